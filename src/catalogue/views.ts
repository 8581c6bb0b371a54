import type { MarketRewardView } from '../rewards/market-reward.ts';
import type { PriceTargetView } from './price-targets.ts';
import { formatUnits } from '../core/money.ts';
import type { ResolutionView } from '../core/oracle/resolution-view.ts';
import type { EventReadRow, EventStatus } from '../store/catalogue-events-repository.ts';
import type { MarketRow } from '../store/catalogue-markets-repository.ts';
import type { Volume } from '../store/catalogue-stats-repository.ts';
import type { CategoryRow, TagRow } from '../store/catalogue-taxonomy-repository.ts';

/**
 * The catalogue's API shapes (SPEC.md section 2: Event, Market, Tag, Category, MarketVolume) and
 * the pure mapping from rows. Required fields are always present; nullable ones are null.
 */
export interface TagView { id: string; slug: string; label: string; type: string }

export interface CategoryView {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string | null;
  active: boolean;
  position: number;
}

export type { ResolutionView };

export interface MarketView {
  id: string;
  name: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  startDate: string | null;
  endDate: string | null;
  description: string | null;
  chance: number;
  status: 'DRAFT' | 'ACTIVE' | 'RESOLVED';
  icon: string;
  /** Null until the event is published (EXTENSIONS.md section 11). */
  tokenId1: string | null;
  tokenId2: string | null;
  outcome1: string;
  outcome2: string;
  ancillaryData: string;
  isInitialized: boolean;
  isRegistered: boolean;
  isPaused: boolean;
  hidden: boolean;
  isResolved: boolean;
  isSettled: boolean;
  isDisputed: boolean;
  hasProposedPrice: boolean;
  negRisk: boolean;
  conditionId: string | null;
  questionId: string | null;
  orderFeeRateBps: number;
  passiveOrderFeeRateBps: number;
  tickSize: string;
  speedBumpDelayMs: number;
  firstPriceDataAt: string | null;
  resolvedOnAdapterTimestamp: number;
  questionFlaggedTimestamp: number;
  marketResolvedTo: string;
  marketId: string;
  transactionHash: string;
  eventId: string;
  questionIndex: number | null;
  proposedAt: string | null;
  proposedPrice: string | null;
  displayTimezone: string | null;
  /** EXTENSIONS.md section 13; null on markets without a price target. */
  priceTargetConfig: PriceTargetView | null;
  tradeVolumeUsd?: string;
  tradeVolumeUsd24h?: string;
  resolution?: ResolutionView;
  reward?: MarketRewardShape | null;
}

/** A market's reward opportunity as src/rewards shapes it (SPEC.md MarketReward). */
export type MarketRewardShape = MarketRewardView;

export interface EventView {
  id: string;
  name: string;
  slug: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  startDate: string;
  createdBy: string;
  endDate: string | null;
  icon: string;
  eventStatus: EventStatus;
  protected: boolean;
  single: boolean;
  negRisk: boolean;
  isDetermined: boolean;
  isInitialized: boolean;
  winningMarketId: string | null;
  feeBips: number | null;
  reward: string;
  proposalBond: string;
  liveness: number;
  orderFeeRateBps: number;
  passiveOrderFeeRateBps: number;
  marketId: string;
  ancillaryData: string;
  metadata?: Record<string, unknown>;
  /** Set on the series event a template owns. */
  templateId?: string;
  categories: CategoryView[];
  tags: TagView[];
  markets: MarketView[];
  totalVolumeUSD: string;
  liquidity: string;
}

export interface MarketVolumeView { marketId: string; eventId: string; tradeVolumeUsd: string; tradeVolumeUsd24h: string }

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export const toTagView = (row: TagRow): TagView => ({ id: row.id, slug: row.slug, label: row.label, type: row.type });

export const toCategoryView = (row: CategoryRow): CategoryView => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  createdBy: row.created_by,
  updatedBy: row.updated_by,
  active: row.active,
  position: row.position,
});

export interface MarketExtras {
  chance: number;
  /** When its first trade was matched (firstPriceDataAt: price history starts there); undefined before any. */
  firstTradeAt: Date | undefined;
  volume?: Volume | undefined;
  resolution?: ResolutionView | undefined;
  /** Present with includeRewards: the opportunity, or null when there is none. */
  reward?: MarketRewardShape | null | undefined;
  priceTarget?: PriceTargetView | undefined;
}

export function toMarketView(row: MarketRow, extras: MarketExtras): MarketView {
  const view: MarketView = {
    id: row.id,
    name: row.name,
    slug: row.slug,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    startDate: iso(row.start_date),
    endDate: iso(row.end_date),
    description: row.description,
    chance: extras.chance,
    status: row.status,
    icon: row.icon,
    tokenId1: row.token_id1,
    tokenId2: row.token_id2,
    outcome1: row.outcome1,
    outcome2: row.outcome2,
    ancillaryData: row.ancillary_data,
    isInitialized: row.is_initialized,
    isRegistered: row.is_registered,
    isPaused: row.is_paused,
    hidden: row.hidden,
    isResolved: row.is_resolved,
    isSettled: row.is_settled,
    isDisputed: row.is_disputed,
    hasProposedPrice: row.has_proposed_price,
    negRisk: row.neg_risk,
    conditionId: row.condition_id,
    questionId: row.question_id,
    orderFeeRateBps: row.order_fee_rate_bps,
    passiveOrderFeeRateBps: row.passive_order_fee_rate_bps,
    tickSize: row.tick_size,
    speedBumpDelayMs: row.speed_bump_delay_ms,
    firstPriceDataAt: extras.firstTradeAt?.toISOString() ?? null,
    resolvedOnAdapterTimestamp: Number(row.resolved_on_adapter_timestamp),
    questionFlaggedTimestamp: Number(row.question_flagged_timestamp),
    marketResolvedTo: row.market_resolved_to,
    marketId: row.onchain_market_id,
    transactionHash: row.transaction_hash,
    eventId: row.event_id,
    questionIndex: row.question_index,
    proposedAt: iso(row.proposed_at),
    proposedPrice: row.proposed_price,
    displayTimezone: row.display_timezone,
    priceTargetConfig: extras.priceTarget ?? null,
  };
  if (extras.volume) {
    view.tradeVolumeUsd = formatUnits(extras.volume.totalBaseUnits);
    view.tradeVolumeUsd24h = formatUnits(extras.volume.last24hBaseUnits);
  }
  if (extras.resolution) view.resolution = extras.resolution;
  // Null means "no active or later-today opportunity" (SPEC.md Market.reward).
  if (extras.reward !== undefined) view.reward = extras.reward;
  return view;
}

export interface EventParts {
  categories: CategoryView[];
  tags: TagView[];
  markets: MarketView[];
  /** The target of a series event's current market, when known (`metadata.cryptoPairTargetPrice`). */
  currentTargetPrice?: string | undefined;
}

export function toEventView(row: EventReadRow, parts: EventParts): EventView {
  const view: EventView = {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    startDate: row.start_date.toISOString(),
    createdBy: row.created_by,
    endDate: iso(row.end_date),
    icon: row.icon,
    eventStatus: row.effective_status,
    protected: row.protected,
    single: row.single,
    negRisk: row.neg_risk,
    isDetermined: row.is_determined,
    isInitialized: row.is_initialized,
    winningMarketId: row.winning_market_id,
    feeBips: row.fee_bips,
    reward: formatUnits(row.reward_base_units),
    proposalBond: formatUnits(row.proposal_bond_base_units),
    liveness: row.liveness_seconds,
    orderFeeRateBps: row.order_fee_rate_bps,
    passiveOrderFeeRateBps: row.passive_order_fee_rate_bps,
    marketId: row.onchain_market_id,
    ancillaryData: row.ancillary_data,
    categories: parts.categories,
    tags: parts.tags,
    markets: parts.markets,
    totalVolumeUSD: formatUnits(BigInt(row.volume)),
    liquidity: formatUnits(BigInt(row.liquidity)),
  };
  if (row.metadata !== null && typeof row.metadata === 'object') view.metadata = row.metadata as Record<string, unknown>;
  if (parts.currentTargetPrice !== undefined) view.metadata = { ...view.metadata, cryptoPairTargetPrice: parts.currentTargetPrice };
  if (row.template_id !== null) view.templateId = row.template_id;
  return view;
}
