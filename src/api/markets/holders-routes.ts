import { Type } from 'typebox';
import { IdOrSlugParams } from '../catalogue/schemas.ts';
import type { AppContext } from '../context.ts';
import { errorResponses, Nullable, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

const MarketHolderSchema = Type.Object({
  userId: Uuid,
  name: Nullable(Type.String({ description: '`Anonymous` for anonymous users' })),
  anonymous: Type.Optional(Type.Boolean()),
  avatarUrl: Nullable(Type.String()),
  walletShort: Nullable(Type.String({ description: 'shortened proxy wallet when there is no name; null when anonymous' })),
  shares: Type.Number({ description: 'display units' }),
  rank: Type.Integer({ minimum: 1 }),
});
const OutcomeSchema = Type.Object({ label: Type.String(), tokenId: Nullable(Type.String()), holders: Type.Array(MarketHolderSchema) });
export const MarketHoldersSchema = Type.Object({ marketId: Uuid, outcome1: OutcomeSchema, outcome2: OutcomeSchema });

/** SPEC.md 4.2: the top holders of each outcome of a market. */
export function registerHolderRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/markets/:idOrSlug/holders', {
    config: { auth: 'optionalUser' },
    schema: {
      tags: ['markets'],
      summary: 'Top holders per outcome, ranked by shares',
      params: IdOrSlugParams,
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 12, description: 'per outcome' }) }),
      response: { 200: MarketHoldersSchema, ...errorResponses(400, 404) },
    },
  }, async (request) => ctx.marketData.holders.ofMarket(request.params.idOrSlug, request.query.limit, request.isAdmin));
}
