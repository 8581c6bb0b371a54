import { Type, type Static } from 'typebox';
import { Address, DateTime, Nullable, PageNumber, Uuid } from './common.ts';

/** Request and response shapes of SPEC.md section 4.4 and the CreateOrder readings of EXTENSIONS.md §11. */
const NumericString78 = (description: string) => Type.String({ maxLength: 78, minLength: 1, description });

export const CreateOrderSchema = Type.Object({
  salt: NumericString78('unique uint256 numeric string'),
  taker: Address,
  tokenId: NumericString78('outcome token id'),
  makerAmount: NumericString78('positive integer, base units'),
  takerAmount: NumericString78('positive integer, base units'),
  expiration: Type.Integer({ minimum: 0, description: 'Unix seconds, or 0' }),
  feeRateBps: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
  side: Type.Union([Type.Literal(0), Type.Literal(1)], { description: '0 buy, 1 sell' }),
  signature: Type.Optional(Type.String({ maxLength: 200 })),
  orderType: Type.Union([Type.Literal('GTC'), Type.Literal('FOK'), Type.Literal('FAK')]),
  postOnly: Type.Optional(Type.Boolean({ default: false })),
  priceUint: Type.Optional(Type.String({ maxLength: 78 })),
  idempotencyKey: Type.Optional(Type.String({ format: 'uuid' })),
  maker: Type.Optional(Address),
  signer: Type.Optional(Address),
  nonce: Type.Optional(Type.Integer({ minimum: 0 })),
  signatureType: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])),
}, { additionalProperties: false });

export type CreateOrderBody = Static<typeof CreateOrderSchema>;

const orderFields = {
  id: Uuid,
  salt: Type.String(),
  maker: Type.String(),
  signer: Type.String(),
  taker: Type.String(),
  tokenId: Type.String(),
  makerAmount: Type.Number({ description: 'base units' }),
  takerAmount: Type.Number({ description: 'base units' }),
  expiration: Type.Integer(),
  nonce: Type.Integer(),
  feeRateBps: Type.Integer(),
  side: Type.Integer(),
  signatureType: Type.Integer(),
  signature: Type.String(),
  market: Uuid,
  orderType: Type.String(),
  postOnly: Type.Optional(Type.Boolean()),
  owner: Uuid,
  outcome: Type.String(),
  status: Type.String(),
  createdAt: DateTime,
  amount: Type.Number({ description: 'size in display units' }),
  price: Type.Number(),
  matchedAmount: Type.Number({ description: 'filled, display units' }),
  hash: Type.String(),
  priceUint: Type.String({ description: 'price in millionths' }),
  metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
};

export const OrderSchema = Type.Object(orderFields);

export const OrderMarketInfoSchema = Type.Object({
  icon: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  outcomeIndex: Type.Integer(),
  eventId: Type.Optional(Uuid),
  eventName: Type.Optional(Type.String()),
  eventIcon: Type.Optional(Type.String()),
  isMultiMarket: Type.Boolean(),
  isSeriesLayout: Type.Boolean(),
});

export const OrderWithMarketSchema = Type.Object({ ...orderFields, marketInfo: OrderMarketInfoSchema });

export const OrderPaginationSchema = Type.Object({
  first: Type.Integer(),
  last: Type.Integer(),
  limit: Type.Integer(),
  total: Nullable(Type.Integer()),
  totalCapped: Type.Optional(Type.Boolean()),
  data: Type.Array(OrderWithMarketSchema),
  hasMore: Type.Boolean(),
  nextCursor: Nullable(Type.String()),
});

export const BatchOrderResultSchema = Type.Object({
  index: Type.Integer(),
  success: Type.Boolean(),
  orderId: Type.Optional(Uuid),
  error: Type.Optional(Type.String()),
});

export const BatchCancelOrderResultSchema = Type.Object({
  orderId: Uuid,
  success: Type.Boolean(),
  error: Type.Optional(Type.String()),
});

export const CancelAllOrdersResponseSchema = Type.Object({
  clearedMarkets: Type.Array(Uuid),
  failedMarkets: Type.Optional(Type.Array(Uuid)),
});

const literals = <T extends string>(values: readonly T[], options: { default?: T; description?: string } = {}) =>
  Type.Union(values.map((v) => Type.Literal(v)), options);

const listFilters = {
  market: Type.Optional(Uuid),
  maker: Type.Optional(Address),
  marketName: Type.Optional(Type.String({ maxLength: 200, description: "case-insensitive partial match on the market's name" })),
  sortBy: literals(['created_at', 'total', 'amount', 'filled'] as const, { default: 'created_at' }),
  order: literals(['ASC', 'DESC'] as const, { default: 'DESC' }),
};

/** GET /orders. */
export const OrderListQuery = Type.Object({
  ...listFilters,
  status: Type.Optional(literals(['PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED', 'REJECTED'] as const, { description: 'CANCELLED is 400 here; use /orders/paginated' })),
});

/** GET /orders/paginated. */
export const OrderPageQuery = Type.Object({
  ...listFilters,
  status: Type.Optional(literals(['PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED', 'REJECTED'] as const)),
  page: PageNumber,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 30 }),
  total: Type.Boolean({ default: false }),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: 'opaque; from nextCursor; only with the default created_at sort' })),
});

/** The most orders one batch places or cancels. */
export const ORDER_BATCH_MAX = 50;

const OrderbookEventMarketSchema = Type.Object({
  id: Type.Optional(Uuid),
  name: Type.String(),
  tokenId1: Type.String(),
  tokenId2: Type.String(),
  outcome1: Type.String(),
  outcome2: Type.String(),
  orderFeeRateBps: Type.Integer(),
  passiveOrderFeeRateBps: Type.Integer(),
});

const OrderbookEventSchema = Type.Object({
  id: Type.Optional(Uuid),
  name: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  createdAt: Type.Optional(DateTime),
  startDate: Type.Optional(DateTime),
  endDate: Type.Optional(DateTime),
  single: Type.Optional(Type.Boolean()),
  marketsView: Type.Optional(Type.Array(OrderbookEventMarketSchema)),
});

/** GET /orders/events: events with ACTIVE markets, newest first, with those markets. */
export const OrderbookEventPageSchema = Type.Object({
  data: Type.Array(OrderbookEventSchema),
  total: Nullable(Type.Integer()),
  totalCapped: Type.Boolean(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const OrderbookEventsQuery = Type.Object({
  page: PageNumber,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 30 }),
  total: Type.Boolean({ default: true }),
});

export const OrderIdParams = Type.Object({ id: Uuid });

/** POST /orders/batch: items are checked one by one, so that one malformed item fails alone (SPEC.md section 7). */
export const BatchOrdersBody = Type.Object({ orders: Type.Array(Type.Object({}, { additionalProperties: true, description: 'a CreateOrder' }), { minItems: 1, maxItems: ORDER_BATCH_MAX }) });
export const BatchOrdersResponse = Type.Object({ results: Type.Array(BatchOrderResultSchema) });

export const BatchCancelBody = Type.Object({ orderIds: Type.Array(Uuid, { minItems: 1, maxItems: ORDER_BATCH_MAX }) });
export const BatchCancelResponse = Type.Object({ results: Type.Array(BatchCancelOrderResultSchema) });

/** POST /orders/cancel: the caller's open orders in one market. */
export const CancelMarketOrdersBody = Type.Object({ market: Uuid });
/** POST /orders/cancel-event: the caller's open orders in every market of an event. */
export const CancelEventOrdersBody = Type.Object({ eventId: Uuid });
