import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import { EventPositionsParams, EventPositionsQuery, EventPositionsSchema } from '../../contract/markets.ts';
import type { TypedApp } from '../typed-app.ts';

/** SPEC.md 4.1: several users' positions in one event's markets. */
export function registerEventPositionRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/events/:idOrSlug/positions', {
    config: { auth: 'optionalUser' },
    schema: {
      tags: ['events'],
      summary: "Users' positions in an event, each sorted by current value",
      params: EventPositionsParams,
      querystring: EventPositionsQuery,
      response: { 200: EventPositionsSchema, ...errorResponses(400, 404) },
    },
  }, async (request) => ctx.marketData.eventPositions.forUsers(request.params.idOrSlug, request.query.users, { admin: request.isAdmin, userId: request.caller?.userId }));
}
