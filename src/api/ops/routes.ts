import { Type } from 'typebox';
import type { Registry } from 'prom-client';
import type { AppContext } from '../context.ts';
import type { TypedApp } from '../typed-app.ts';
import { AppError } from '../errors.ts';
import { errorResponses } from '../schemas/common.ts';

/** Operational routes at the root (EXTENSIONS.md sections 7 and 11). */
export function registerOpsRoutes(app: TypedApp, ctx: AppContext, registry: Registry): void {
  app.get('/healthz', {
    schema: { tags: ['operations'], summary: 'Liveness', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', {
    schema: {
      tags: ['operations'],
      summary: 'Readiness: the store answers and the engine has loaded',
      response: { 200: Type.Object({ status: Type.Literal('ready') }), ...errorResponses(503) },
    },
  }, async () => {
    if (ctx.ready && (await storeAnswers(ctx))) return { status: 'ready' as const };
    throw new AppError('SERVICE_UNAVAILABLE', 'the store or the engine is not ready');
  });

  app.get('/metrics', {
    schema: { tags: ['operations'], summary: 'Prometheus metrics', produces: ['text/plain'], response: { 200: Type.String() } },
  }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

async function storeAnswers(ctx: AppContext): Promise<boolean> {
  try {
    await ctx.store.db.selectFrom('settings').select('key').limit(1).execute();
    return true;
  } catch {
    return false;
  }
}
