import { Type } from 'typebox';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { errorResponses, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

/** The hard maximum of a batch (SPEC.md section 8); POSITION_BATCH_MAX (default 50) applies below it. */
const HARD_BATCH_MAX = 200;

export const RedeemablePositionSchema = Type.Object({
  marketId: Uuid,
  onchainMarketId: Type.String(),
  conditionId: Type.String(),
  tokenId1: Type.String(),
  tokenId2: Type.String(),
  slug: Type.String(),
  name: Type.String(),
});

export const BatchRedeemResponseSchema = Type.Object({
  txHash: Type.String({ description: 'the one ledger transaction of every included market; "" when none was included' }),
  included: Type.Array(Uuid),
  excluded: Type.Array(Type.Object({ marketId: Uuid, reason: Type.Union([Type.Literal('not-redeemable'), Type.Literal('zero-onchain-balance'), Type.Literal('not-binary')]) })),
});

/** SPEC.md section 4.3: redeemable positions and batch redeem (API key HMAC). */
export function registerRedeemRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/markets/redeemable-positions', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['portfolio'],
      summary: 'Resolved markets where the caller still holds tokens',
      security: [{ apiKey: [] }],
      response: { 200: Type.Array(RedeemablePositionSchema), ...errorResponses(401) },
    },
  }, async (request) => ctx.oracle.redemptions.redeemable(requireCaller(request)));

  api.post('/markets/redeem-positions/batch', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['portfolio'],
      summary: 'Redeem resolved markets in one transaction',
      security: [{ apiKey: [] }],
      body: Type.Object({ marketIds: Type.Array(Uuid, { minItems: 1, maxItems: HARD_BATCH_MAX }) }),
      response: { 200: BatchRedeemResponseSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    const { marketIds } = request.body;
    if (marketIds.length > ctx.config.positionBatchMax) throw badRequest(`marketIds: at most ${ctx.config.positionBatchMax} markets per batch`);
    if (new Set(marketIds.map((id) => id.toLowerCase())).size !== marketIds.length) throw badRequest('marketIds must be unique');
    return ctx.oracle.redemptions.redeem(caller, marketIds);
  });
}
