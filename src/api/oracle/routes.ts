import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { errorResponses, MarketIdParams } from '../../contract/common.ts';
import { OutcomeBody, ResolutionSchema } from '../../contract/oracle.ts';
import type { TypedApp } from '../typed-app.ts';
import { userAccount } from '../../settlement/accounts.ts';

/**
 * EXTENSIONS.md section 4: a market's Resolution, and users' proposals and disputes (each locks the
 * event's `proposalBond` of the caller's collateral). Refusals: 404 unknown market; 400
 * VALIDATION_FAILED before the market's endDate; 400 INSUFFICIENT_BALANCE when the bond is not
 * available; 409 CONFLICT when a proposal is open, the window has closed, there is nothing to
 * dispute or the market is resolved; 403 FORBIDDEN disputing one's own proposal.
 */
export function registerOracleRoutes(api: TypedApp, ctx: AppContext): void {
  const oracle = () => ctx.oracle.service;

  api.get('/markets/:marketId/resolution', {
    config: { auth: 'public' },
    schema: {
      tags: ['oracle'],
      summary: "A market's oracle question and resolution",
      params: MarketIdParams,
      response: { 200: ResolutionSchema, ...errorResponses(400, 404) },
    },
  }, async (request) => oracle().resolution(request.params.marketId, request.isAdmin));

  api.post('/markets/:marketId/oracle/propose', {
    config: { auth: 'apiKey', engineCommand: true },
    schema: {
      tags: ['oracle'],
      summary: "Propose the market's outcome, locking the proposal bond",
      security: [{ apiKey: [] }],
      params: MarketIdParams,
      body: OutcomeBody,
      response: { 200: ResolutionSchema, ...errorResponses(400, 401, 404, 409, 503) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    return oracle().propose({ kind: 'user', account: userAccount(caller.proxyWallet), userId: caller.userId }, request.params.marketId, request.body.outcome);
  });

  api.post('/markets/:marketId/oracle/dispute', {
    config: { auth: 'apiKey', engineCommand: true },
    schema: {
      tags: ['oracle'],
      summary: 'Dispute the open proposal inside its window, locking a bond of the same size',
      security: [{ apiKey: [] }],
      params: MarketIdParams,
      response: { 200: ResolutionSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    return oracle().dispute({ kind: 'user', account: userAccount(caller.proxyWallet), userId: caller.userId }, request.params.marketId);
  });
}
