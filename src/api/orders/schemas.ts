import { Type, type Static } from 'typebox';
import { Address, DateTime, Nullable, Uuid } from '../schemas/common.ts';

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

export const OrderStatusSchema = Type.Union(['PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED', 'REJECTED'].map((s) => Type.Literal(s)));

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
