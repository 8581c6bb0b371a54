import type { MarketDirectory } from '../engine/market-directory.ts';
import type { MarketTradingInfo } from '../engine/types.ts';
import type { Db } from '../store/database.ts';
import { findPublishedMarkets, findTradingMarketById, findUnresolvedPublishedMarkets, type TradingMarketRow } from '../store/catalogue-markets-repository.ts';

/** A published market as the engine trades it; undefined for a DRAFT (it has no token ids yet). */
function toTradingInfo(row: TradingMarketRow): MarketTradingInfo | undefined {
  if (row.status === 'DRAFT' || !row.token_id1 || !row.token_id2 || !row.condition_id) return undefined;
  return {
    id: row.id,
    eventId: row.event_id,
    status: row.status,
    isPaused: row.is_paused,
    isResolved: row.is_resolved,
    negRisk: row.neg_risk,
    tokenId1: row.token_id1,
    tokenId2: row.token_id2,
    conditionId: row.condition_id,
    outcome1: row.outcome1,
    outcome2: row.outcome2,
    tickSize: row.tick_size,
    orderFeeRateBps: row.order_fee_rate_bps,
    passiveOrderFeeRateBps: row.passive_order_fee_rate_bps,
    speedBumpDelayMs: row.speed_bump_delay_ms,
    oracleReward: row.event_reward_base_units.toString(),
  };
}

/** The engine's view of the catalogue (src/engine/market-directory.ts), read from the store. */
export function createMarketDirectory(db: Db): MarketDirectory {
  return {
    async load(marketId) {
      const row = await findTradingMarketById(db, marketId);
      return row && toTradingInfo(row);
    },
    async loadActive() {
      const rows = await findUnresolvedPublishedMarkets(db);
      return rows.flatMap((row) => toTradingInfo(row) ?? []);
    },
    async loadPublished() {
      const rows = await findPublishedMarkets(db);
      return rows.flatMap((row) => toTradingInfo(row) ?? []);
    },
  };
}
