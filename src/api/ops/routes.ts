import type { Registry } from 'prom-client';
import type { AppContext } from '../context.ts';
import type { TypedApp } from '../typed-app.ts';
import { errorBody } from '../../contract/errors.ts';
import { within } from '../../core/within.ts';
import { HealthSchema, MetricsText, NotReadySchema, ReadySchema } from '../../contract/ops.ts';

/** Operational routes at the root (EXTENSIONS.md sections 7 and 11). */
export function registerOpsRoutes(app: TypedApp, ctx: AppContext, registry: Registry): void {
  app.get('/healthz', {
    schema: { tags: ['operations'], summary: 'Liveness', response: { 200: HealthSchema } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', {
    schema: {
      tags: ['operations'],
      summary: 'Readiness: the store (and Redis, with REDIS_URL) answers and this node can serve order commands, itself (leader) or through the node that runs the engine (follower)',
      response: {
        200: ReadySchema,
        503: NotReadySchema,
      },
    },
  }, async (_request, reply) => {
    const role = ctx.leadership.role;
    // A leader serves once its engine takes commands, a follower once its state is whole (README of src/engine).
    const engineServes = role === 'leader' ? ctx.trading.engine.takesCommands : ctx.trading.engine.whole;
    if (ctx.ready && ctx.leadership.canServeCommands && engineServes && (await dependenciesAnswer(ctx))) return { status: 'ready' as const, role, node: ctx.leadership.nodeId };
    // Section 12's body, inside the error body of section 9 that every non-2xx carries.
    const message = ctx.ready ? 'this node cannot serve order commands now: the store or Redis does not answer, or no node runs the matching engine' : 'the node is starting';
    return reply.code(503).header('retry-after', '1').send({ ...errorBody(503, 'SERVICE_UNAVAILABLE', message), status: 'not-ready' as const, role, node: ctx.leadership.nodeId });
  });

  app.get('/metrics', {
    schema: { tags: ['operations'], summary: 'Prometheus metrics', produces: ['text/plain'], response: { 200: MetricsText } },
  }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

/**
 * A readiness probe answers within this, whatever its dependencies do: a store that stopped
 * answering would otherwise hold the probe as long as the store's own timeout (DATABASE_TIMEOUT_MS),
 * past the probe's patience, and a load balancer would learn nothing.
 */
const READINESS_WAIT_MS = 2_000;

/** The store, and Redis when nodes share one: without it no signed request can be checked (src/shared-state). */
async function dependenciesAnswer(ctx: AppContext): Promise<boolean> {
  const answered = Promise.all([storeAnswers(ctx), ctx.sharedState.answers()]).then(([store, redis]) => store && redis);
  return within(answered, READINESS_WAIT_MS, () => false);
}

async function storeAnswers(ctx: AppContext): Promise<boolean> {
  try {
    await ctx.store.db.selectFrom('settings').select('key').limit(1).execute();
    return true;
  } catch {
    return false;
  }
}
