import type { AppContext } from '../context.ts';
import { errorResponses, MarketIdParams } from '../../contract/common.ts';
import { OutcomeBody, ResolutionSchema } from '../../contract/oracle.ts';
import type { TypedApp } from '../typed-app.ts';

/**
 * EXTENSIONS.md section 3: the operator's proposal (no bond, no reward, any time, same dispute
 * window) and the escalation vote that settles a DISPUTED question (409 otherwise) and resolves
 * the market at once.
 */
export function registerOracleAdminRoutes(api: TypedApp, ctx: AppContext): void {
  api.post('/admin/markets/:marketId/oracle/propose', {
    config: { auth: 'admin', engineCommand: true },
    schema: {
      tags: ['admin'],
      summary: 'Operator proposal (no bond)',
      security: [{ bearer: [] }],
      params: MarketIdParams,
      body: OutcomeBody,
      response: { 200: ResolutionSchema, ...errorResponses(400, 401, 404, 409, 503) },
    },
  }, async (request) => ctx.oracle.service.propose({ kind: 'operator' }, request.params.marketId, request.body.outcome));

  api.post('/admin/markets/:marketId/oracle/decide', {
    // Deciding resolves the market inside the engine's transaction: it runs on the engine's node.
    config: { auth: 'admin', engineCommand: true },
    schema: {
      tags: ['admin'],
      summary: 'Decide a disputed question; the market resolves',
      security: [{ bearer: [] }],
      params: MarketIdParams,
      body: OutcomeBody,
      response: { 200: ResolutionSchema, ...errorResponses(400, 401, 404, 409, 503) },
    },
  }, async (request) => ctx.oracle.service.decide(request.params.marketId, request.body.outcome));
}
