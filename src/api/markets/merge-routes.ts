import { Type } from 'typebox';
import { PositionMerges } from '../../portfolio/position-merges.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import { BatchMergeResponseSchema, MergeablePositionSchema, PositionBatchBody } from '../../contract/portfolio.ts';
import { checkPositionBatch } from '../request-checks.ts';
import type { TypedApp } from '../typed-app.ts';
import type { WalletRelays } from '../wallet-relays.ts';

/** SPEC.md section 4.3: mergeable positions and batch merge (API key HMAC). */
export function registerMergeRoutes(api: TypedApp, ctx: AppContext, relays: WalletRelays): void {
  const merges = new PositionMerges({ db: ctx.store.db, merge: (user, marketIds) => ctx.conditionalTokens.operations.merge(user, marketIds) });

  api.get('/markets/mergeable-positions', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['portfolio'],
      summary: 'Active markets where the caller has both outcomes available to merge',
      security: [{ apiKey: [] }],
      response: { 200: Type.Array(MergeablePositionSchema), ...errorResponses(401) },
    },
  }, async (request) => merges.mergeable(requireCaller(request)));

  api.post('/markets/merge-positions/batch', {
    config: { auth: 'apiKey', engineCommand: true },
    schema: {
      tags: ['portfolio'],
      summary: 'Merge complete sets back into collateral, every market in one transaction',
      description: 'No amount is sent: each market merges the smaller of the two available (not order-reserved) token balances; on a chain, the wallet\'s on-chain balances less what open orders reserve.',
      security: [{ apiKey: [] }],
      body: PositionBatchBody,
      response: { 200: BatchMergeResponseSchema, ...errorResponses(400, 401, 429, 503) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    checkPositionBatch(request.body.marketIds, ctx.config.positionBatchMax);
    return relays.one(caller.proxyWallet, () => merges.merge(caller, request.body.marketIds));
  });
}
