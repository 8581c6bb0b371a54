/**
 * The database's table types, one interface per module, composed here. Column names are
 * snake_case as in SQL; repositories map rows to domain objects.
 */
import type { ColumnType, Generated } from 'kysely';

export interface SettingsTable {
  key: string;
  value: string;
  created_at: Generated<Date>;
}

export interface UsersTable {
  id: string;
  /** Sign-in address (EOA), stored lowercase. */
  address: string;
  /** Derived proxy wallet, stored lowercase. */
  proxy_wallet: string;
  display_name: string | null;
  avatar_url: string | null;
  anonymous: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type OrderStatus = 'PENDING' | 'EXECUTING' | 'EXECUTED' | 'CANCELLED' | 'REJECTED';
export type TradeStatus = 'MATCHED' | 'MINED' | 'CONFIRMED' | 'FAILED';

export interface OrdersTable {
  id: string;
  user_id: string;
  /** Ledger account that reserves and settles for the order: the owner's proxy wallet, lowercase. */
  account: string;
  market_id: string;
  token_id: string;
  /** 0 for tokenId1 (outcome 1), 1 for tokenId2. */
  outcome_index: number;
  /** 0 buy, 1 sell. */
  side: number;
  order_type: 'GTC' | 'FOK' | 'FAK';
  post_only: Generated<boolean>;
  status: OrderStatus;
  /** Limit price in millionths, in the order's own token terms. */
  price_micros: bigint;
  size_base_units: bigint;
  matched_base_units: Generated<bigint>;
  salt: string;
  maker: string;
  signer: string;
  taker: string;
  maker_amount: string;
  taker_amount: string;
  expiration: bigint;
  nonce: string;
  /** Taker fee rate (the signed `feeRateBps`). */
  fee_rate_bps: number;
  /** The market's maker fee rate when the order was accepted. */
  passive_fee_rate_bps: number;
  signature_type: number;
  signature: string;
  hash: string;
  idempotency_key: string | null;
  metadata: unknown | null;
  /** Time priority, assigned by the engine at acceptance. */
  book_seq: bigint;
  /** Set while a taker order waits out the market's speed bump. */
  delayed_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface TradesTable {
  id: string;
  /** Match order across the exchange (a total order where timestamps tie). */
  seq: bigint;
  market_id: string;
  /** TRANSFER (same token), MINT (two buys) or MERGE (two sells). */
  kind: 'TRANSFER' | 'MINT' | 'MERGE';
  status: TradeStatus;
  /** The taker's token, side and price (EXTENSIONS.md section 11). */
  token_id: string;
  side: number;
  price_micros: bigint;
  size_base_units: bigint;
  /** price × size of the taker's fill, the trade's USD volume. */
  notional_base_units: bigint;
  /** The maker's own token, side and price (a MINT's or MERGE's maker: the other token, 1 − price). */
  maker_token_id: string;
  maker_side: number;
  maker_price_micros: bigint;
  taker_order_id: string;
  maker_order_id: string;
  taker_user_id: string;
  maker_user_id: string;
  taker_wallet: string;
  maker_wallet: string;
  taker_fee_base_units: bigint;
  maker_fee_base_units: bigint;
  tx_hash: string | null;
  matched_at: Date;
  mined_at: Date | null;
  confirmed_at: Date | null;
}

export interface AuthNoncesTable {
  nonce: string;
  expires_at: Date;
  used_at: Date | null;
}

export interface EndedSessionsTable {
  session_id: string;
  expires_at: Date;
}

export interface ApiKeysTable {
  /** The public API key (a UUID). */
  id: string;
  user_id: string;
  /** AES-256-GCM ciphertext of the HMAC secret (see src/identity/api-key-crypto.ts). */
  secret_ciphertext: string;
  /** Salted SHA-256 of the passphrase. */
  passphrase_hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Numeric(78, 0) amounts: written as decimal strings or bigints, read back as strings. */
type Numeric = ColumnType<string, string | bigint, string | bigint>;

export interface LedgerBalancesTable {
  /** A lowercase 0x address (a user's proxy wallet) or a named system account. */
  account: string;
  /** 'collateral' or an outcome tokenId (decimal string). */
  asset: string;
  balance: Numeric;
  /** Reserved by open orders or bonds; never more than balance. */
  locked: Numeric;
}

export interface LedgerTransactionsTable {
  seq: bigint;
  tx_hash: string;
  kind: string;
  ref: string;
  created_at: Date;
  block_number: bigint | null;
  /** The chain's transaction of the same move in the user's wallet (migration 0023), or null. */
  chain_tx_hash: string | null;
  /** The writing transaction's id (migration 0011); set by its default. */
  xid: Generated<bigint>;
}

export interface LedgerEntriesTable {
  tx_seq: bigint;
  idx: number;
  account: string;
  asset: string;
  /** Signed change of the account's balance of the asset. */
  amount: Numeric;
  reason: string;
}

/** migrations/0025_chain_payment_intents.ts: a signed payment recorded before it is sent, each version of it (0028). */
export interface ChainPaymentIntentsTable {
  key: string;
  version: Generated<number>;
  chain_tx_hash: string;
  nonce: bigint;
  raw_tx: string;
  signed_at: Generated<Date>;
}

/** A payout the operator's side made on chain for a ledger transaction (migration 0024). */
export interface ChainPayoutsTable {
  ledger_tx_hash: string;
  /** The account credited: a wallet (lowercase) or the fee account. */
  account: string;
  amount: Numeric;
  chain_tx_hash: string;
  paid_at: Date;
}

export interface LedgerMarketsTable {
  condition_id: string;
  token_id1: string;
  token_id2: string;
  payout1: number | null;
  payout2: number | null;
  payout_den: number | null;
  resolved_at: Date | null;
}

export interface LedgerBlocksTable {
  number: bigint;
  hash: string;
  parent_hash: string;
  tx_count: number;
  sealed_at: Date;
}

export interface LedgerChainHeadTable {
  id: number;
  number: bigint;
  hash: string;
}

export type MarketStatus = 'DRAFT' | 'ACTIVE' | 'RESOLVED';
/** Stored event status; ENDED is derived at read time (end date passed while ACTIVE). */
export type StoredEventStatus = 'DRAFT' | 'ACTIVE' | 'RESOLVED';

export interface CategoriesTable {
  id: string;
  name: string;
  active: boolean;
  position: number;
  created_by: string;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface TagsTable {
  id: string;
  slug: string;
  label: string;
  type: string;
  created_at: Date;
}

export interface EventsTable {
  id: string;
  slug: string;
  name: string;
  description: string;
  icon: string;
  status: StoredEventStatus;
  start_date: Date;
  end_date: Date | null;
  protected: boolean;
  single: boolean;
  neg_risk: boolean;
  series_layout: boolean;
  is_determined: Generated<boolean>;
  is_initialized: Generated<boolean>;
  winning_market_id: string | null;
  fee_bips: number | null;
  reward_base_units: bigint;
  proposal_bond_base_units: bigint;
  liveness_seconds: number;
  order_fee_rate_bps: number;
  passive_order_fee_rate_bps: number;
  onchain_market_id: Generated<string>;
  ancillary_data: string;
  metadata: unknown | null;
  /** The template that owns this series event (migration 0017_price_markets). */
  template_id: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

export interface EventCategoriesTable {
  event_id: string;
  category_id: string;
}

export interface EventTagsTable {
  event_id: string;
  tag_id: string;
}

export interface MarketsTable {
  id: string;
  event_id: string;
  position: number;
  slug: string;
  name: string;
  description: string | null;
  icon: string;
  status: MarketStatus;
  start_date: Date | null;
  end_date: Date | null;
  is_paused: Generated<boolean>;
  hidden: Generated<boolean>;
  neg_risk: boolean;
  tick_size: string;
  order_fee_rate_bps: number;
  passive_order_fee_rate_bps: number;
  speed_bump_delay_ms: Generated<number>;
  outcome1: string;
  outcome2: string;
  /** Null until the event is published. */
  condition_id: string | null;
  question_id: string | null;
  token_id1: string | null;
  token_id2: string | null;
  onchain_market_id: Generated<string>;
  transaction_hash: Generated<string>;
  ancillary_data: string;
  is_initialized: Generated<boolean>;
  is_registered: Generated<boolean>;
  is_resolved: Generated<boolean>;
  is_settled: Generated<boolean>;
  is_disputed: Generated<boolean>;
  has_proposed_price: Generated<boolean>;
  market_resolved_to: Generated<string>;
  resolved_on_adapter_timestamp: Generated<bigint>;
  question_flagged_timestamp: Generated<bigint>;
  proposed_at: Date | null;
  proposed_price: string | null;
  display_timezone: string | null;
  question_index: number | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** Markets' volumes, kept by triggers on trades (migration 0027). */
export interface MarketVolumeTotalsTable {
  market_id: string;
  volume_base_units: string;
}

export interface MarketVolumeHoursTable {
  market_id: string;
  hour: Date;
  volume_base_units: string;
}

export interface Database {
  settings: SettingsTable;
  users: UsersTable;
  orders: OrdersTable;
  trades: TradesTable;
  market_volume_totals: MarketVolumeTotalsTable;
  market_volume_hours: MarketVolumeHoursTable;
  auth_nonces: AuthNoncesTable;
  api_keys: ApiKeysTable;
  ended_sessions: EndedSessionsTable;
  ledger_balances: LedgerBalancesTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_markets: LedgerMarketsTable;
  ledger_blocks: LedgerBlocksTable;
  ledger_chain_head: LedgerChainHeadTable;
  chain_payouts: ChainPayoutsTable;
  chain_payment_intents: ChainPaymentIntentsTable;
  categories: CategoriesTable;
  tags: TagsTable;
  events: EventsTable;
  event_categories: EventCategoriesTable;
  event_tags: EventTagsTable;
  markets: MarketsTable;
  oracle_questions: OracleQuestionsTable;
  redemptions: RedemptionsTable;
  reward_configs: RewardConfigsTable;
  reward_accruals: RewardAccrualsTable;
  reward_payouts: RewardPayoutsTable;
  reward_claims: RewardClaimsTable;
  position_cursor: PositionCursorTable;
  positions: PositionsTable;
  pnl_series: PnlSeriesTable;
  engine_leadership: EngineLeadershipTable;
  engine_projection: EngineProjectionTable;
  engine_journal: EngineJournalTable;
  engine_snapshots: EngineSnapshotsTable;
  engine_snapshot_parts: EngineSnapshotPartsTable;
  reference_prices: ReferencePricesTable;
  price_targets: PriceTargetsTable;
  templates: TemplatesTable;
  template_markets: TemplateMarketsTable;
}

export type PriceSource = 'manual' | 'pyth' | 'binance';

/** One reference price of a pair at its own time, in 10^-8 units (migration 0017_price_markets). */
export interface ReferencePricesTable {
  pair: string;
  at: Date;
  price: bigint;
  source: PriceSource;
  recorded_at: Date;
}

/** A market's priceTargetConfig (EXTENSIONS.md section 13); target_price null while unknown. */
export interface PriceTargetsTable {
  market_id: string;
  target_type: 'CLOSE_PRICE' | 'FIXED';
  pair: string;
  source: 'oracle' | 'manual';
  target_price: bigint | null;
  target_at: Date;
  resolve_at: Date;
  /** Set when the price job proposed from the target: the operator can no longer change it (migration 0031). */
  final_at: Date | null;
}

/** The rewards a template attaches to every market it publishes: RewardConfigInput minus `date`. */
export interface TemplateRewards {
  rewardUsdc: string;
  maxDistanceFromMid: string;
  extremeMaxDistanceFromMid?: string | undefined;
  minOrderSizeUsdc: string;
}

export interface TemplatesTable {
  id: string;
  slug: string;
  name: string;
  description: string;
  pair: string;
  period: '15m' | '1h' | '4h' | '1d';
  first_start: Date;
  lead: number;
  display_timezone: string;
  tick_size: string;
  order_fee_rate_bps: number | null;
  passive_order_fee_rate_bps: number | null;
  rewards: ColumnType<TemplateRewards | null, string | null, string | null>;
  event_id: string;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface TemplateMarketsTable {
  template_id: string;
  period_start: Date;
  market_id: string;
}

/** An oracle question past UNPROPOSED (migration 0009_oracle); null accounts are the operator. */
export interface OracleQuestionsTable {
  market_id: string;
  status: 'PROPOSED' | 'DISPUTED' | 'SETTLED' | 'RESOLVED';
  proposed_outcome: 'YES' | 'NO' | 'TIE' | null;
  proposer_account: string | null;
  proposer_user_id: string | null;
  proposal_bond_base_units: bigint;
  proposed_at: Date | null;
  dispute_ends_at: Date | null;
  disputer_account: string | null;
  disputer_user_id: string | null;
  dispute_bond_base_units: bigint;
  disputed_at: Date | null;
  final_outcome: 'YES' | 'NO' | 'TIE' | null;
  settled_at: Date | null;
  resolved_at: Date | null;
  updated_at: Date;
}

export interface RedemptionsTable {
  id: string;
  user_id: string;
  account: string;
  market_id: string;
  tx_hash: string;
  burned1_base_units: bigint;
  burned2_base_units: bigint;
  payout_base_units: bigint;
  created_at: Date;
}

/** One market's reward configuration for one UTC date (migration 0013_rewards). */
export interface RewardConfigsTable {
  market_id: string;
  /** UTC date, YYYY-MM-DD. */
  reward_date: string;
  reward_base_units: bigint;
  start_at: Date | null;
  end_at: Date | null;
  max_distance_micros: number;
  extreme_max_distance_micros: number;
  min_order_size_base_units: bigint;
  /** [{startAt, endAt, multiplier}] as the admin sent them (ISO strings, decimal multiplier). */
  boost_windows: ColumnType<{ startAt: string; endAt: string; multiplier: string }[], string, string>;
  enabled: boolean;
  sampled_through_minute: bigint | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface RewardAccrualsTable {
  market_id: string;
  reward_date: string;
  user_id: string;
  amount_base_units: bigint;
}

export type RewardPayoutStatus = 'PENDING' | 'PAID' | 'CARRIED' | 'ROLLED_UP' | 'FAILED' | 'CANCELLED' | 'NEEDS_INVESTIGATION';

export interface RewardPayoutsTable {
  id: string;
  user_id: string;
  market_id: string;
  reward_date: string;
  earned_base_units: bigint;
  carried_in_base_units: bigint;
  amount_base_units: bigint;
  status: RewardPayoutStatus;
  claim_id: string | null;
  tx_hash: string | null;
  paid_at: Date | null;
  created_at: Date;
}

export type RewardClaimState = 'dispatched' | 'in-flight' | 'paid' | 'failed';

export interface RewardClaimsTable {
  id: string;
  user_id: string;
  account: string;
  amount_base_units: bigint;
  row_count: number;
  state: RewardClaimState;
  tx_hash: string | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The position projector's progress (migration 0011_positions): one row, id 1. */
export interface PositionCursorTable {
  id: number;
  /** Every journal transaction whose xid is below this is projected. */
  xid_horizon: bigint;
}

/** One holder's position in one token: core/positions' PositionState, amounts in base units. */
export interface PositionsTable {
  account: string;
  token_id: string;
  market_id: string;
  outcome_index: number;
  amount: Numeric;
  cost_basis: Numeric;
  realized_pnl: Numeric;
  acquired_amount: Numeric;
  acquired_cost: Numeric;
  disposed_amount: Numeric;
  disposed_proceeds: Numeric;
  /** Ledger sequence of the last transaction applied. */
  last_seq: bigint;
  updated_at: Date;
}

/** Realised P&L an account made within one UTC hour (signed base units). */
export interface PnlSeriesTable {
  account: string;
  hour: Date;
  realized_pnl: Numeric;
}

/** The engine lease (migration 0015_engine_leadership): a single row, id 1. */
/** How far the tables have projected the engine's journal (migration 0020). */
export interface EngineProjectionTable {
  id: number;
  seq: bigint;
}

/** One journal record per engine batch (migration 0022): its text, and its hash chained to the previous one. */
export interface EngineJournalTable {
  seq: bigint;
  at: Date;
  hash: string;
  record: string;
}

/** The engine's state after the record `seq` (whose hash is `hash`), in `parts` parts of text. */
export interface EngineSnapshotsTable {
  seq: bigint;
  hash: string;
  state_hash: string;
  parts: number;
  created_at: Date;
}

export interface EngineSnapshotPartsTable {
  seq: bigint;
  part: number;
  data: string;
}

export interface EngineLeadershipTable {
  id: number;
  /** The fencing token: bumped by every takeover. */
  token: bigint;
  /** The node id of the lease holder; null once released. */
  holder: string | null;
  /** Where the holder takes order commands that other nodes pass on. */
  url: string | null;
  renewed_at: Date;
}
