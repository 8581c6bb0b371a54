import { formatPrice, formatUnits } from '../core/money.ts';
import { valuePosition, type PositionValuation } from '../core/positions/valuation.ts';
import type { AccountPosition, PositionMarket } from '../store/positions-repository.ts';

/** SPEC.md 2 UserPosition, with the optional fields this exchange knows. */
export interface UserPosition {
  market_uuid: string;
  tokenId: string;
  acquisitionPrice: string;
  amount: string;
  latest: string;
  current: string;
  initial: string;
  return: string;
  displayName: string | null;
  icon: string;
  slug: string;
  title: string;
  eventName: string;
  eventIcon: string;
  conditionId?: string;
  outcome: string;
  eventId: string;
  isMultiMarket: boolean;
  isSeriesLayout: boolean;
  isDisputed: boolean;
  isSettled: boolean;
  status: 'DRAFT' | 'ACTIVE' | 'RESOLVED';
  resolvedTo?: string;
  outcomeIndex: 0 | 1;
  orderFeeRateBps: number;
  passiveOrderFeeRateBps: number;
  proposedResolvedTo?: 'YES' | 'NO' | 'TIE';
  proposedAt?: number;
  liveness?: number;
}

export type PositionSort = 'latest' | 'current' | 'initial' | 'return';

export interface ValuedPosition {
  row: AccountPosition;
  latestMicros: bigint;
  value: PositionValuation;
}

export function valued(row: AccountPosition, latestMicros: bigint): ValuedPosition {
  return { row, latestMicros, value: valuePosition(row, latestMicros) };
}

const sortKey: Record<PositionSort, (p: ValuedPosition) => bigint> = {
  latest: (p) => p.latestMicros,
  current: (p) => p.value.current,
  initial: (p) => p.value.initial,
  return: (p) => p.value.return,
};

/** Sorts by the key, ties by market id then outcome, so pages never overlap or skip. */
export function sortPositions(positions: ValuedPosition[], sortBy: PositionSort, order: 'ASC' | 'DESC'): ValuedPosition[] {
  const key = sortKey[sortBy];
  const sign = order === 'ASC' ? 1 : -1;
  return [...positions].sort((a, b) => {
    const ka = key(a), kb = key(b);
    if (ka !== kb) return ka < kb ? -sign : sign;
    return a.row.marketId < b.row.marketId ? -1 : a.row.marketId > b.row.marketId ? 1 : a.row.outcomeIndex - b.row.outcomeIndex;
  });
}

export function toUserPosition({ row, latestMicros, value }: ValuedPosition, market: PositionMarket): UserPosition {
  const position: UserPosition = {
    market_uuid: row.marketId,
    tokenId: row.tokenId,
    acquisitionPrice: formatPrice(value.acquisitionPriceMicros),
    amount: formatUnits(row.amount),
    latest: formatPrice(latestMicros),
    current: formatUnits(value.current),
    initial: formatUnits(value.initial),
    return: formatUnits(value.return),
    displayName: null,
    icon: market.marketIcon,
    slug: market.marketSlug,
    title: market.marketName,
    eventName: market.eventName,
    eventIcon: market.eventIcon,
    outcome: row.outcomeIndex === 0 ? market.outcome1 : market.outcome2,
    eventId: market.eventId,
    isMultiMarket: !market.eventSingle,
    isSeriesLayout: market.seriesLayout,
    isDisputed: market.isDisputed,
    isSettled: market.isSettled,
    status: market.marketStatus,
    outcomeIndex: row.outcomeIndex,
    orderFeeRateBps: market.orderFeeRateBps,
    passiveOrderFeeRateBps: market.passiveOrderFeeRateBps,
  };
  if (market.conditionId) position.conditionId = market.conditionId;
  if (row.resolvedTo) position.resolvedTo = row.resolvedTo;
  if (market.proposedOutcome && market.proposedAt) {
    position.proposedResolvedTo = market.proposedOutcome;
    position.proposedAt = Math.floor(market.proposedAt.getTime() / 1000);
    position.liveness = market.livenessSeconds;
  }
  return position;
}
