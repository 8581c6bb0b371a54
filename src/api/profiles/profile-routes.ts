import { Type, type TSchema } from 'typebox';
import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import {
  PnlHistoryQuery, PnlHistorySchema, ProfileActivitySchema, ProfileNameParams, ProfilePositionsQuery, ProfilePositionsSchema, ProfileSummarySchema,
} from '../../contract/profiles.ts';
import type { TypedApp } from '../typed-app.ts';

const schema = (summary: string, response: TSchema) => ({ tags: ['profiles'], summary, params: ProfileNameParams, response: { 200: response, ...errorResponses(400, 404) } });

/** SPEC.md 4.8: public profiles by display name; never a wallet address. */
export function registerProfileRoutes(api: TypedApp, ctx: AppContext): void {
  const profiles = ctx.portfolio.profiles;
  api.get('/profiles/by-name/:name/summary', { config: { auth: 'public' }, schema: schema('Value, P&L and predictions of a public profile', ProfileSummarySchema) },
    async (request) => profiles.summary(request.params.name));

  api.get('/profiles/by-name/:name/pnl-history', {
    config: { auth: 'public' },
    schema: { ...schema('P&L over a range, from the recorded series', PnlHistorySchema), querystring: PnlHistoryQuery },
  }, async (request) => profiles.pnlHistory(request.params.name, request.query.range));

  api.get('/profiles/by-name/:name/positions', {
    config: { auth: 'public' },
    schema: {
      ...schema('Active or closed positions, by latest price descending (at most 1,000)', ProfilePositionsSchema),
      querystring: ProfilePositionsQuery,
    },
  }, async (request) => profiles.positions(request.params.name, request.query.status));

  api.get('/profiles/by-name/:name/activity', { config: { auth: 'public' }, schema: schema('The newest 100 trade rows', Type.Array(ProfileActivitySchema)) },
    async (request) => profiles.activity(request.params.name));
}
