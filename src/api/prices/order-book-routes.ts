import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { notFound } from '../../contract/errors.ts';
import { errorResponses } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

const TokenQuery = Type.Object({ token_id: Type.String({ pattern: '^[0-9]{1,78}$', description: 'outcome token id' }) });

const LevelSchema = Type.Object({ price: Type.String(), size: Type.String(), numOrders: Type.Optional(Type.Integer()) });
export const OrderBookSchema = Type.Object({
  market: Type.String({ format: 'uuid' }),
  asset_id: Type.String(),
  hash: Type.String({ description: 'sha256 of the market, the token and every level (price, size), best first' }),
  timestamp: Type.Integer({ description: 'Unix milliseconds' }),
  bids: Type.Array(LevelSchema, { description: 'best (highest) first' }),
  asks: Type.Array(LevelSchema, { description: 'best (lowest) first' }),
  tick_size: Type.String(),
});
const LastTradePriceSchema = Type.Object({ price: Type.String(), side: Type.Union([Type.Literal('buy'), Type.Literal('sell')]) });

/** The live book and last trade price of a token (SPEC.md 4.5), from the engine's memory (on any node). */
export function registerOrderBookRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/order-book/book', {
    config: { auth: 'public' },
    schema: { tags: ['prices'], summary: "A token's order book, in that token's terms", querystring: TokenQuery, response: { 200: OrderBookSchema, ...errorResponses(400, 404, 503) } },
  }, async (request) => {
    const book = await ctx.books.orderBook(request.query.token_id);
    if (!book) throw notFound(`token ${request.query.token_id} of a tradable market`);
    return book;
  });

  api.get('/order-book/last-trade-price', {
    config: { auth: 'public' },
    schema: {
      tags: ['prices'],
      summary: "A token's last trade price and the taker's side on that token; 404 before the market's first trade",
      querystring: TokenQuery,
      response: { 200: LastTradePriceSchema, ...errorResponses(400, 404, 503) },
    },
  }, async (request) => {
    const last = await ctx.books.lastTradePrice(request.query.token_id);
    if (!last) throw notFound(`a trade of token ${request.query.token_id}`);
    return last;
  });
}
