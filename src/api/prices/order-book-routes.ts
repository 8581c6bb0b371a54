import type { AppContext } from '../context.ts';
import { notFound } from '../../contract/errors.ts';
import { errorResponses } from '../../contract/common.ts';
import { LastTradePriceSchema, OrderBookSchema, TokenQuery } from '../../contract/prices.ts';
import type { TypedApp } from '../typed-app.ts';

/** The live book and last trade price of a token (SPEC.md 4.5), from the engine's memory (on any node), as the durable records left them. */
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
