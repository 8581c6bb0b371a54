import { Type, type TSchema } from 'typebox';
import { Address, DateTime, Nullable, PageNumber, Uuid } from './common.ts';

/** Market activity, top holders and users' positions in an event (SPEC.md sections 2, 4.1 and 4.2). */

export const ActivitySchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  createdAt: DateTime,
  createdBy: Uuid,
  updatedAt: DateTime,
  startDate: DateTime,
  endDate: Nullable(DateTime),
  protected: Type.Boolean(),
  icon: Type.String(),
  tokenId1: Type.String(),
  tokenId2: Type.String(),
  conditionId: Type.String(),
  proxy_address: Type.String({ description: "the party's proxy wallet" }),
  outcome1: Type.String(),
  outcome2: Type.String(),
  type: Type.Union([Type.Literal('BUY'), Type.Literal('SELL'), Type.Literal('SPLIT'), Type.Literal('MERGE'), Type.Literal('REDEEM')]),
  timestamp: Type.Integer({ description: 'Unix seconds' }),
  hash: Type.String({ description: 'transaction hash of the trade settlement or the split, merge or redeem' }),
  amount: Type.Number({ description: 'outcome tokens, display units (a split or merge: the collateral moved)' }),
  parent_collection_id: Type.String(),
  partition: Type.Array(Type.Integer()),
  isResolved: Type.Boolean(),
  price: Type.String({ description: 'trade price; "1" for SPLIT and MERGE; payout per token for REDEEM' }),
  fee: Type.Number({ description: "the party's fee, USD" }),
  outcomeIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, description: 'BUY and SELL rows: 0 for tokenId1, 1 for tokenId2' })),
});

/** Pagination<Activity> of offset mode, for either Activity variant. */
export const activityOffsetPageSchema = <T extends TSchema>(row: T) => Type.Object({
  data: Type.Array(row),
  total: Nullable(Type.Integer({ description: 'with total=true: a bounded count' })),
  totalCapped: Type.Optional(Type.Boolean()),
  page: Type.Integer(),
  limit: Type.Integer(),
  hasMore: Type.Boolean(),
});

export const ActivityPageSchema = Type.Union([
  activityOffsetPageSchema(ActivitySchema),
  Type.Object({ data: Type.Array(ActivitySchema), hasMore: Type.Boolean(), nextCursor: Nullable(Type.String()) }),
]);

/** The offset-mode query parameters of every activity route. */
export const offsetPaging = (limitDefault: number, totalDefault: boolean) => ({
  page: PageNumber,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: limitDefault }),
  total: Type.Boolean({ default: totalDefault, description: 'count the matching rows (bounded; totalCapped flags the bound)' }),
  // The sort names the routes map onto columns (SPEC.md's `usersactivityview.*` and short ones), written out so the SDK's request type is a union of them.
  sortBy: Type.Union([Type.Literal('usersactivityview.timestamp'), Type.Literal('timestamp'), Type.Literal('usersactivityview.amount'), Type.Literal('amount')], { default: 'usersactivityview.timestamp' }),
  order: Type.Union([Type.Literal('ASC'), Type.Literal('DESC')], { default: 'DESC' }),
});

/** Offset mode, or keyset mode with `cursor`. */
const paging = (limitDefault: number, totalDefault: boolean) => ({
  ...offsetPaging(limitDefault, totalDefault),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'keyset mode ({data, hasMore, nextCursor}); empty for the first page' })),
});

export const AllMarketsActivityQuery = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('BUY'), Type.Literal('SELL')])),
  name: Type.Optional(Type.String({ maxLength: 200, description: "case-insensitive partial match on the market's name" })),
  ...paging(5, false),
});

export const MarketActivityQuery = Type.Object({
  proxyAddress: Type.Optional(Address),
  type: Type.Optional(Type.Union([Type.Literal('SPLIT'), Type.Literal('MERGE'), Type.Literal('REDEEM')])),
  ...paging(10, true),
});

const MarketHolderSchema = Type.Object({
  userId: Uuid,
  name: Nullable(Type.String({ description: '`Anonymous` for anonymous users' })),
  anonymous: Type.Optional(Type.Boolean()),
  avatarUrl: Nullable(Type.String()),
  walletShort: Nullable(Type.String({ description: 'shortened proxy wallet when there is no name; null when anonymous' })),
  shares: Type.Number({ description: 'display units' }),
  rank: Type.Integer({ minimum: 1 }),
});

const HolderOutcomeSchema = Type.Object({ label: Type.String(), tokenId: Nullable(Type.String()), holders: Type.Array(MarketHolderSchema) });

export const MarketHoldersSchema = Type.Object({ marketId: Uuid, outcome1: HolderOutcomeSchema, outcome2: HolderOutcomeSchema });

export const EventUserPositionSchema = Type.Object({
  market_uuid: Uuid,
  tokenId: Type.String(),
  amount: Type.String({ description: 'display units' }),
  current: Type.String({ description: 'USD: amount × latest price' }),
  displayName: Nullable(Type.String()),
  outcome: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  conditionId: Type.Optional(Type.String()),
  outcomeIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  status: Type.Optional(Type.String()),
  resolvedTo: Type.Optional(Type.String()),
});

export const MarketHoldersQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 12, description: 'per outcome' }) });

/** GET /events/{idOrSlug}/positions: the event by id only. */
export const EventPositionsParams = Type.Object({ idOrSlug: Uuid });
// A string, not an array: repeated `users` parameters arrive as an array and are refused.
export const EventPositionsQuery = Type.Object({ users: Type.String({ minLength: 1, maxLength: 50 * 37, description: '1 to 50 comma-separated user UUIDs' }) });
export const EventPositionsSchema = Type.Array(Type.Object({ userId: Uuid, positions: Type.Array(EventUserPositionSchema) }));
