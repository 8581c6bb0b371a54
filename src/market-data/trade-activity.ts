import { formatUnitsPadded, unitsToCentsNumber } from '../core/money.ts';
import type { TradeActivityRow } from '../store/market-data-trades-repository.ts';

/** The fixed label shown instead of an anonymous trader's name (SPEC.md section 2). */
export const ANONYMOUS_LABEL = 'Anonymous';

/** TradeActivity of SPEC.md section 2: one row per confirmed trade, showing the taker. */
export interface TradeActivity {
  id: string;
  matchedAt: number;
  confirmedAt: number | null;
  userId: string;
  displayName: string | null;
  avatarUrl: string | null;
  anonymous?: true;
  side: 'bought' | 'sold';
  sideRaw: number;
  outcome: 'Side_A' | 'Side_B' | null;
  notionalUsd: number;
  price: string;
  size: string;
  tokenId: string;
  marketId: string;
  marketName: string | null;
  marketDisplayName: string | null;
  eventId: string | null;
  eventSlug: string | null;
  eventName: string | null;
  isMultiMarket: boolean;
}

function outcomeOf(row: TradeActivityRow): TradeActivity['outcome'] {
  if (row.token_id === row.token_id1) return 'Side_A';
  if (row.token_id === row.token_id2) return 'Side_B';
  return null;
}

export function toTradeActivity(row: TradeActivityRow): TradeActivity {
  const activity: TradeActivity = {
    id: row.id,
    matchedAt: Number(row.matched_at_us),
    confirmedAt: row.confirmed_at_us === null ? null : Number(row.confirmed_at_us),
    userId: row.taker_user_id,
    displayName: row.anonymous ? ANONYMOUS_LABEL : row.display_name,
    avatarUrl: row.anonymous ? null : row.avatar_url,
    side: row.side === 0 ? 'bought' : 'sold',
    sideRaw: row.side,
    outcome: outcomeOf(row),
    notionalUsd: unitsToCentsNumber(row.notional_base_units),
    price: formatUnitsPadded(row.price_micros),
    size: formatUnitsPadded(row.size_base_units),
    tokenId: row.token_id,
    marketId: row.market_id,
    marketName: row.market_name,
    // Markets carry one name; there is no separate display name, so clients fall back to marketName.
    marketDisplayName: null,
    eventId: row.event_id,
    eventSlug: row.event_slug,
    eventName: row.event_name,
    isMultiMarket: row.event_single === null ? false : !row.event_single,
  };
  if (row.anonymous) activity.anonymous = true;
  return activity;
}
