import type { MarketTradingInfo } from './types.ts';

/** Where the engine reads the markets it trades (the catalogue's store). */
export interface MarketDirectory {
  load(marketId: string): Promise<MarketTradingInfo | undefined>;
  /** Every published market that has not resolved. */
  loadActive(): Promise<MarketTradingInfo[]>;
  /** Every published market, resolved ones too (the engine's first state, src/engine/genesis.ts). */
  loadPublished(): Promise<MarketTradingInfo[]>;
}
