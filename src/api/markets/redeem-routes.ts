import { Type } from 'typebox';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import { BatchRedeemResponseSchema, RedeemablePositionSchema, PositionBatchBody } from '../../contract/portfolio.ts';
import { checkPositionBatch } from '../request-checks.ts';
import type { TypedApp } from '../typed-app.ts';
import type { WalletRelays } from '../wallet-relays.ts';

/** SPEC.md section 4.3: redeemable positions and batch redeem (API key HMAC). */
export function registerRedeemRoutes(api: TypedApp, ctx: AppContext, relays: WalletRelays): void {
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
    config: { auth: 'apiKey', engineCommand: true },
    schema: {
      tags: ['portfolio'],
      summary: 'Redeem resolved markets in one transaction',
      security: [{ apiKey: [] }],
      body: PositionBatchBody,
      response: { 200: BatchRedeemResponseSchema, ...errorResponses(400, 401, 429, 503) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    checkPositionBatch(request.body.marketIds, ctx.config.positionBatchMax);
    return relays.one(caller.proxyWallet, () => ctx.oracle.redemptions.redeem(caller, request.body.marketIds));
  });
}
