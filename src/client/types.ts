/**
 * Request and response types of the routes, taken from the TypeBox schemas of `src/contract` that
 * the server validates with (type-only imports: nothing is loaded at runtime).
 */
import type { HeartbeatResponse, MmpScopeSchema, MmpSetBody, MmpSettingSchema } from '../contract/maker-safety.ts';
import type { Static } from 'typebox';
import type { AccountPatch as AccountPatchSchema, AccountSchema, BalanceResponse } from '../contract/account.ts';
import type {
  CategoryInputSchema, EventInputSchema, MarketInputSchema, MarketPatchSchema, ReferencePriceInputSchema, RewardsPauseSchema, TagInputSchema, TemplateInputSchema,
  TemplatePatchSchema, TemplateSchema, TreasuryBalanceSchema,
} from '../contract/admin.ts';
import type { ApiKeySummarySchema, SignInSessionSchema } from '../contract/auth.ts';
import type { CategorySchema, EventListQuery, EventPageSchema, EventReadQuery, EventSchema, MarketSchema, MarketVolumeSchema, TagSchema } from '../contract/catalogue.ts';
import type { ExchangeSchema } from '../contract/exchange.ts';
import type {
  ActivityPageSchema, ActivitySchema, AllMarketsActivityQuery, EventPositionsSchema, EventUserPositionSchema, MarketActivityQuery, MarketHoldersSchema,
} from '../contract/markets.ts';
import type { ResolutionSchema } from '../contract/oracle.ts';
import type {
  BatchCancelOrderResultSchema, BatchOrderResultSchema, CancelAllOrdersResponseSchema, CreateOrderSchema, OrderbookEventPageSchema, OrderPaginationSchema, OrderSchema,
  OrderWithMarketSchema,
} from '../contract/orders.ts';
import type {
  BatchMergeResponseSchema, BatchRedeemResponseSchema, MergeablePositionSchema, PositionsQuery, RedeemablePositionSchema, UserActivityPageSchema, UserActivityQuery,
  UserActivitySchema, UserPositionSchema, UserPositionsResponseSchema, UserPositionValueSchema, ValueQuery,
} from '../contract/portfolio.ts';
import type { LastTradePriceSchema, OrderBookSchema, PriceHistoryQuery, PriceHistorySchema, ReferencePriceSchema } from '../contract/prices.ts';
import type {
  ActiveProfilePositionSchema, ClosedProfilePositionSchema, PnlHistorySchema, PnlRangeSchema, ProfileActivitySchema, ProfileSummarySchema,
} from '../contract/profiles.ts';
import type {
  ClaimResponse as ClaimResponseSchema, LeaderboardQuery, MarketReward as MarketRewardSchema, MarketRewardDetail as MarketRewardDetailSchema, PayoutHistoryPage as PayoutHistoryPageSchema,
  PayoutHistoryQuery, PublicRewardsMarketPoolPage as PublicRewardsMarketPoolPageSchema, QualifyingOrder as QualifyingOrderSchema, RewardConfigInput, RewardPoolsQuery,
  RewardsLeaderboardResponse as RewardsLeaderboardResponseSchema, UserRewardsSummary as UserRewardsSummarySchema,
} from '../contract/rewards.ts';
import type { TradeActivityListSchema, TradeActivityQuery, TradeActivitySchema, TradeSchema, TradesListSchema, TradesQuery } from '../contract/trades.ts';

export type ExchangeInfo = Static<typeof ExchangeSchema>;
export type Account = Static<typeof AccountSchema>;
export type AccountPatch = Static<typeof AccountPatchSchema>;
export type SignInSession = Static<typeof SignInSessionSchema>;
export type ApiKeySummary = Static<typeof ApiKeySummarySchema>;
export type Balances = Static<typeof BalanceResponse>;

export type Event = Static<typeof EventSchema>;
export type EventPage = Static<typeof EventPageSchema>;
export type EventListParams = Partial<Static<typeof EventListQuery>>;
export type EventReadParams = Partial<Static<typeof EventReadQuery>>;
export type Market = Static<typeof MarketSchema>;
export type MarketVolume = Static<typeof MarketVolumeSchema>;
export type Category = Static<typeof CategorySchema>;
export type Tag = Static<typeof TagSchema>;

export type CreateOrder = Static<typeof CreateOrderSchema>;
export type Order = Static<typeof OrderSchema>;
export type OrderWithMarket = Static<typeof OrderWithMarketSchema>;
export type OrderPagination = Static<typeof OrderPaginationSchema>;
export type OrderStatus = 'PENDING' | 'EXECUTING' | 'EXECUTED' | 'CANCELLED' | 'REJECTED';
/**
 * Written out because the route builds its literal unions with `map`, which TypeScript cannot
 * follow into a static type; the fields are those of the route's ListQuery and PaginatedQuery.
 */
export type OrderListParams = {
  market?: string;
  status?: OrderStatus;
  maker?: string;
  marketName?: string;
  sortBy?: 'created_at' | 'total' | 'amount' | 'filled';
  order?: 'ASC' | 'DESC';
};
export type OrderPageParams = OrderListParams & {
  page?: number;
  limit?: number;
  total?: boolean;
  cursor?: string;
};
export type BatchOrderResult = Static<typeof BatchOrderResultSchema>;
export type BatchCancelOrderResult = Static<typeof BatchCancelOrderResultSchema>;
export type CancelAllOrdersResponse = Static<typeof CancelAllOrdersResponseSchema>;
export type OrderbookEventPage = Static<typeof OrderbookEventPageSchema>;
export type OrderBook = Static<typeof OrderBookSchema>;
export type OrderBookLevel = OrderBook['bids'][number];
export type LastTradePrice = Static<typeof LastTradePriceSchema>;

export type EventInput = Static<typeof EventInputSchema>;
export type MarketInput = Static<typeof MarketInputSchema>;
export type MarketPatch = Static<typeof MarketPatchSchema>;
export type CategoryInput = Static<typeof CategoryInputSchema>;
export type TagInput = Static<typeof TagInputSchema>;

export type Trade = Static<typeof TradeSchema>;
export type TradesList = Static<typeof TradesListSchema>;
export type TradesParams = Partial<Static<typeof TradesQuery>>;
export type TradeActivity = Static<typeof TradeActivitySchema>;
export type TradeActivityList = Static<typeof TradeActivityListSchema>;
export type TradeActivityParams = Partial<Static<typeof TradeActivityQuery>>;

type PriceHistoryQueryFields = Static<typeof PriceHistoryQuery>;
/** `token`, `interval` and `fidelity` are required; the rest have the server's defaults. */
export type PriceHistoryParams = Pick<PriceHistoryQueryFields, 'token' | 'interval' | 'fidelity'> & Partial<Omit<PriceHistoryQueryFields, 'token' | 'interval' | 'fidelity'>>;
export type PriceHistory = Static<typeof PriceHistorySchema>;
export type PriceHistoryPoint = PriceHistory['data'][number];

export type Activity = Static<typeof ActivitySchema>;
/** Offset mode (`page`, `total`) or cursor mode (`nextCursor`, when the call sent `cursor`). */
export type ActivityPage = Static<typeof ActivityPageSchema>;
export type AllMarketsActivityParams = Partial<Static<typeof AllMarketsActivityQuery>>;
export type MarketActivityParams = Partial<Static<typeof MarketActivityQuery>>;
export type MarketHolders = Static<typeof MarketHoldersSchema>;
export type EventUserPosition = Static<typeof EventUserPositionSchema>;
export type EventPositions = Static<typeof EventPositionsSchema>;
export type RedeemablePosition = Static<typeof RedeemablePositionSchema>;
export type BatchRedeemResponse = Static<typeof BatchRedeemResponseSchema>;

export type Resolution = Static<typeof ResolutionSchema>;
export type OracleOutcome = NonNullable<Resolution['finalOutcome']>;

export type UserPosition = Static<typeof UserPositionSchema>;
export type UserPositionsPage = Static<typeof UserPositionsResponseSchema>;
export type UserPositionsParams = Partial<Static<typeof PositionsQuery>>;
export type UserPositionValue = Static<typeof UserPositionValueSchema>;
/** `markets`: market ids (sent as repeated parameters). */
export type UserPositionValueParams = Partial<Static<typeof ValueQuery>>;
export type UserActivity = Static<typeof UserActivitySchema>;
export type UserActivityPage = Static<typeof UserActivityPageSchema>;
/** `types`: BUY, SELL, SPLIT, MERGE, REDEEM (none: all). */
export type UserActivityParams = Partial<Static<typeof UserActivityQuery>>;
export type MergeablePosition = Static<typeof MergeablePositionSchema>;
export type BatchMergeResponse = Static<typeof BatchMergeResponseSchema>;

export type ProfileSummary = Static<typeof ProfileSummarySchema>;
export type PnlRange = Static<typeof PnlRangeSchema>;
export type PnlHistory = Static<typeof PnlHistorySchema>;
export type ActiveProfilePosition = Static<typeof ActiveProfilePositionSchema>;
export type ClosedProfilePosition = Static<typeof ClosedProfilePositionSchema>;
export type ProfileActivity = Static<typeof ProfileActivitySchema>;

export type UserRewardsSummary = Static<typeof UserRewardsSummarySchema>;
export type QualifyingOrder = Static<typeof QualifyingOrderSchema>;
export type PayoutHistoryPage = Static<typeof PayoutHistoryPageSchema>;
export type PayoutHistoryParams = Partial<Static<typeof PayoutHistoryQuery>>;
export type ClaimResponse = Static<typeof ClaimResponseSchema>;
export type MarketReward = Static<typeof MarketRewardSchema>;
export type MarketRewardDetail = Static<typeof MarketRewardDetailSchema>;
export type RewardPoolsPage = Static<typeof PublicRewardsMarketPoolPageSchema>;
export type RewardPoolsParams = Partial<Static<typeof RewardPoolsQuery>>;
export type RewardsLeaderboard = Static<typeof RewardsLeaderboardResponseSchema>;
export type RewardsLeaderboardParams = Partial<Static<typeof LeaderboardQuery>>;
export type RewardConfig = Static<typeof RewardConfigInput>;
export type RewardsPause = Static<typeof RewardsPauseSchema>;
export type TreasuryBalance = Static<typeof TreasuryBalanceSchema>;

export type ReferencePrice = Static<typeof ReferencePriceSchema>;
export type ReferencePriceInput = Static<typeof ReferencePriceInputSchema>;
export type Template = Static<typeof TemplateSchema>;
export type TemplateInput = Static<typeof TemplateInputSchema>;
export type TemplatePatch = Static<typeof TemplatePatchSchema>;

export type HeartbeatAnswer = Static<typeof HeartbeatResponse>;
export type MmpScope = Static<typeof MmpScopeSchema>;
export type MmpSettingRequest = Static<typeof MmpSetBody>;
export type MmpSetting = Static<typeof MmpSettingSchema>;
