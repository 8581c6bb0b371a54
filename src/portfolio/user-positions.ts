import { formatUnits } from '../core/money.ts';
import { valuePosition, type PositionValuation } from '../core/positions/valuation.ts';
import type { PositionWithMarket } from '../store/positions-repository.ts';

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
  row: PositionWithMarket;
  latestMicros: bigint;
  value: PositionValuation;
}

export function valued(row: PositionWithMarket, latestMicros: bigint): ValuedPosition {
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

export function toUserPosition({ row, latestMicros, value }: ValuedPosition): UserPosition {
  const position: UserPosition = {
    market_uuid: row.marketId,
    tokenId: row.tokenId,
    acquisitionPrice: formatUnits(value.acquisitionPriceMicros),
    amount: formatUnits(row.amount),
    latest: formatUnits(latestMicros),
    current: formatUnits(value.current),
    initial: formatUnits(value.initial),
    return: formatUnits(value.return),
    displayName: null,
    icon: row.marketIcon,
    slug: row.marketSlug,
    title: row.marketName,
    eventName: row.eventName,
    eventIcon: row.eventIcon,
    outcome: row.outcomeIndex === 0 ? row.outcome1 : row.outcome2,
    eventId: row.eventId,
    isMultiMarket: !row.eventSingle,
    isSeriesLayout: row.seriesLayout,
    isDisputed: row.isDisputed,
    isSettled: row.isSettled,
    status: row.marketStatus,
    outcomeIndex: row.outcomeIndex,
    orderFeeRateBps: row.orderFeeRateBps,
    passiveOrderFeeRateBps: row.passiveOrderFeeRateBps,
  };
  if (row.conditionId) position.conditionId = row.conditionId;
  if (row.resolvedTo) position.resolvedTo = row.resolvedTo;
  if (row.proposedOutcome && row.proposedAt) {
    position.proposedResolvedTo = row.proposedOutcome;
    position.proposedAt = Math.floor(row.proposedAt.getTime() / 1000);
    position.liveness = row.livenessSeconds;
  }
  return position;
}
