import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { errorResponses, Nullable, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

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

/** SPEC.md 4.1: several users' positions in one event's markets. */
export function registerEventPositionRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/events/:idOrSlug/positions', {
    config: { auth: 'optionalUser' },
    schema: {
      tags: ['events'],
      summary: "Users' positions in an event, each sorted by current value",
      params: Type.Object({ idOrSlug: Uuid }),
      // A string, not an array: repeated `users` parameters arrive as an array and are refused.
      querystring: Type.Object({ users: Type.String({ minLength: 1, maxLength: 50 * 37, description: '1 to 50 comma-separated user UUIDs' }) }),
      response: { 200: Type.Array(Type.Object({ userId: Uuid, positions: Type.Array(EventUserPositionSchema) })), ...errorResponses(400, 404) },
    },
  }, async (request) => ctx.marketData.eventPositions.forUsers(request.params.idOrSlug, request.query.users, { admin: request.isAdmin, userId: request.caller?.userId }));
}
