/**
 * Request and response types of the routes, taken from the TypeBox schemas the server validates
 * with (type-only imports: nothing of the server is loaded at runtime).
 */
import type { Static } from 'typebox';
import type { AccountSchema } from '../api/account/schemas.ts';
import type { BalanceResponse } from '../api/account/balance-routes.ts';
import type { CategoryInputSchema, EventInputSchema, MarketInputSchema, MarketPatchSchema, TagInputSchema } from '../api/admin/catalogue-routes.ts';
import type { ApiKeySummarySchema } from '../api/auth/api-key-routes.ts';
import type { CategorySchema, EventPageSchema, EventSchema, MarketSchema, MarketVolumeSchema, TagSchema } from '../api/catalogue/schemas.ts';
import type { EventListQuery, EventReadQuery } from '../api/catalogue/event-routes.ts';
import type { ExchangeSchema } from '../api/exchange/routes.ts';
import type { OrderbookEventPageSchema } from '../api/orders/events-routes.ts';
import type {
  BatchCancelOrderResultSchema, BatchOrderResultSchema, CancelAllOrdersResponseSchema, CreateOrderSchema, OrderPaginationSchema, OrderSchema, OrderWithMarketSchema,
} from '../api/orders/schemas.ts';
import type { OrderBookSchema } from '../api/prices/order-book-routes.ts';

export type ExchangeInfo = Static<typeof ExchangeSchema>;
export type Account = Static<typeof AccountSchema>;
export type AccountPatch = { displayName?: string | null; avatarUrl?: string | null; anonymous?: boolean };
export type SignInSession = { token: string; expiresAt: string; user: Account };
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
export type LastTradePrice = { price: string; side: 'buy' | 'sell' };

export type EventInput = Static<typeof EventInputSchema>;
export type MarketInput = Static<typeof MarketInputSchema>;
export type MarketPatch = Static<typeof MarketPatchSchema>;
export type CategoryInput = Static<typeof CategoryInputSchema>;
export type TagInput = Static<typeof TagInputSchema>;
