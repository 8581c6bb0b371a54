import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../store/database.ts';
import { createCatalogueAdmin, type CatalogueAdmin } from './admin.ts';
import type { MarketsOnChain } from './markets-on-chain.ts';
import { createCatalogueReads, type CatalogueReads, type MarketRewardLookup, type PriceTargetLookup } from './reads.ts';

export { createMarketDirectory } from './market-directory.ts';
export type { CatalogueAdmin, EventInput, MarketInput, MarketPatch } from './admin.ts';
export type { CatalogueReads, PriceTargetLookup } from './reads.ts';
export type { PriceTargetView } from './price-targets.ts';
export type { MarketsOnChain } from './markets-on-chain.ts';

export interface Catalogue {
  readonly admin: CatalogueAdmin;
  readonly reads: CatalogueReads;
}

export interface CatalogueOptions {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'oracleAddress' | 'collateralAddress'>;
  operatorUserId: string;
  /**
   * Called after a publish or a market patch commits, with the markets it changed, so the engine
   * reloads them (MarketDirectory.load). A rejection reaches the admin caller as an error.
   */
  onMarketsChanged?: ((marketIds: string[]) => Promise<void>) | undefined;
  /** The current reward opportunities of markets, for `includeRewards` (src/rewards owns them). */
  marketRewards?: MarketRewardLookup | undefined;
  /** Markets' price targets, CLOSE_PRICE ones derived from the feed as they are read (src/prices). */
  priceTargets?: PriceTargetLookup | undefined;
  /** The chain markets are prepared on at publish (CHAIN=embedded or rpc), whose operator is their oracle; ORACLE_ADDRESS and the simulated ids without. */
  marketsOnChain?: MarketsOnChain | undefined;
}

/** Events, markets, categories and tags: the operator's writes and everyone's reads. */
export function createCatalogue(options: CatalogueOptions): Catalogue {
  return {
    admin: createCatalogueAdmin({
      db: options.db,
      clock: options.clock,
      operatorUserId: options.operatorUserId,
      oracle: options.config.oracleAddress,
      collateral: options.config.collateralAddress,
      chain: options.marketsOnChain,
      onMarketsChanged: options.onMarketsChanged,
    }),
    reads: createCatalogueReads(options.db, options.clock, options.marketRewards, options.priceTargets),
  };
}
