import type { AppContext } from '../context.ts';
import { ReferencePriceInputSchema } from '../../contract/admin.ts';
import { errorResponses } from '../../contract/common.ts';
import { ReferencePriceSchema } from '../../contract/prices.ts';
import type { TypedApp } from '../typed-app.ts';

/** POST /admin/prices (EXTENSIONS.md section 13): the operator records a reference price; `at` defaults to now. */
export function registerPriceAdminRoutes(api: TypedApp, ctx: AppContext): void {
  api.post('/admin/prices', {
    config: { auth: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Record a reference price',
      security: [{ bearer: [] }],
      body: ReferencePriceInputSchema,
      response: { 200: ReferencePriceSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const { pair, price, at } = request.body;
    return ctx.prices.record(pair, price, at === undefined ? ctx.clock.nowMs() : Date.parse(at));
  });
}
