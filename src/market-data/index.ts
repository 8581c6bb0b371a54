import type { Clock } from '../clock.ts';
import { unitsFromNumber } from '../core/money.ts';
import type { Db } from '../store/database.ts';
import type { CatalogueReads } from '../catalogue/reads.ts';
import { MarketActivityReads } from './activity.ts';
import { EventPositionReads, engineLatestPrices } from './event-positions.ts';
import { HolderReads } from './holders.ts';
import { PriceHistoryReads } from './price-history.ts';
import { TradeReads } from './trades.ts';
import { UserActivityReads } from './user-activity.ts';

/** The public market-data reads (SPEC.md 4.1 positions, 4.2 holders and activity, 4.5 history, 4.6 trades). */
export interface MarketData {
  readonly trades: TradeReads;
  readonly holders: HolderReads;
  readonly priceHistory: PriceHistoryReads;
  readonly eventPositions: EventPositionReads;
  readonly activity: MarketActivityReads;
  readonly userActivity: UserActivityReads;
}

export interface MarketDataDeps {
  db: Db;
  clock: Clock;
  catalogue: CatalogueReads;
  /** The matching engine's last trade prices and books (latest prices of positions). */
  engine: Parameters<typeof engineLatestPrices>[0];
  /** TRADE_ACTIVITY_MIN_USD. */
  tradeActivityMinUsd: number;
}

export function createMarketData(deps: MarketDataDeps): MarketData {
  return {
    trades: new TradeReads(deps.db, unitsFromNumber(deps.tradeActivityMinUsd) ?? 0n),
    holders: new HolderReads(deps.db, deps.catalogue),
    priceHistory: new PriceHistoryReads(deps.db, deps.clock),
    eventPositions: new EventPositionReads(deps.db, deps.catalogue, engineLatestPrices(deps.engine)),
    activity: new MarketActivityReads(deps.db, deps.catalogue),
    userActivity: new UserActivityReads(deps.db),
  };
}
