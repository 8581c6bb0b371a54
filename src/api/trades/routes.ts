import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import { TradeActivityListSchema, TradeActivityQuery, TradesListSchema, TradesQuery } from '../../contract/trades.ts';
import type { TypedApp } from '../typed-app.ts';

/** SPEC.md 4.6: public trades. */
export function registerTradeRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/trades', {
    config: { auth: 'public' },
    schema: { tags: ['trades'], summary: 'Trades, newest first (taker token, side and price)', querystring: TradesQuery, response: { 200: TradesListSchema, ...errorResponses(400) } },
  }, async (request) => ctx.marketData.trades.list(request.query));

  api.get('/trades/activity', {
    config: { auth: 'public' },
    schema: { tags: ['trades'], summary: 'Confirmed trades with trader, market and event, newest first', querystring: TradeActivityQuery, response: { 200: TradeActivityListSchema, ...errorResponses(400) } },
  }, async (request) => ctx.marketData.trades.activity(request.query));
}
