import type { ActivityType } from '../../store/market-data-activity-repository.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../../contract/errors.ts';
import { errorResponses } from '../../contract/common.ts';
import { TradedCountSchema, UserActivityPageSchema, UserActivityQuery } from '../../contract/portfolio.ts';
import type { TypedApp } from '../typed-app.ts';
import { listQuery } from './activity-routes.ts';

const ACTIVITY_TYPES: readonly ActivityType[] = ['BUY', 'SELL', 'SPLIT', 'MERGE', 'REDEEM'];

/** `types` as one comma-separated value or repeated parameters (EXTENSIONS.md section 11); none means all. */
function parseTypes(values: string[] | undefined): ActivityType[] | undefined {
  const types = (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  const bad = types.find((t) => !ACTIVITY_TYPES.includes(t as ActivityType));
  if (bad !== undefined) throw badRequest(`types: "${bad}" is not one of ${ACTIVITY_TYPES.join(', ')}`);
  return types.length === 0 ? undefined : [...new Set(types as ActivityType[])];
}

/** SPEC.md section 4.3: the caller's activity and how many markets they traded (API key HMAC). */
export function registerUserActivityRoutes(api: TypedApp, ctx: AppContext): void {
  const reads = ctx.marketData.userActivity;

  api.get('/markets/user-activity', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['portfolio'],
      summary: "The caller's trades, splits, merges and redeems",
      security: [{ apiKey: [] }],
      querystring: UserActivityQuery,
      response: { 200: UserActivityPageSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    const { term, name, market, types, fromTimestamp, toTimestamp } = request.query;
    if (fromTimestamp !== undefined && toTimestamp !== undefined && fromTimestamp > toTimestamp) throw badRequest('fromTimestamp is after toTimestamp');
    return reads.list(caller.proxyWallet, { term, name, market, types: parseTypes(types), fromTimestamp, toTimestamp }, listQuery(request.query));
  });

  api.get('/markets/traded-count', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['portfolio'],
      summary: 'How many distinct markets the caller has traded in',
      security: [{ apiKey: [] }],
      response: { 200: TradedCountSchema, ...errorResponses(401) },
    },
  }, async (request) => reads.tradedCount(requireCaller(request).proxyWallet));
}
