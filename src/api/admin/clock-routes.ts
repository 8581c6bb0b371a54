import { isManualClock } from '../../clock.ts';
import type { AppContext } from '../context.ts';
import { AppError, badRequest, notFound } from '../../contract/errors.ts';
import type { TypedApp } from '../typed-app.ts';
import { ClockBody, ClockResponse } from '../../contract/admin.ts';
import { errorResponses } from '../../contract/common.ts';

/**
 * POST /admin/clock: moves the manual clock (tests); 404 on the real clock (EXTENSIONS.md section 11).
 * The engine and the oracle run their timers at once, so a test that moves time sees the expiries
 * and oracle settlements it caused.
 */
export function registerClockRoutes(api: TypedApp, ctx: AppContext): void {
  api.post('/admin/clock', {
    config: { auth: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Advance or set the manual clock',
      security: [{ bearer: [] }],
      body: ClockBody,
      response: { 200: ClockResponse, ...errorResponses(400, 401, 404) },
    },
  }, async (request) => {
    const clock = ctx.clock;
    if (!isManualClock(clock)) throw notFound('the manual clock');
    const { advanceMs, now } = request.body;
    if ((advanceMs === undefined) === (now === undefined)) throw badRequest('send exactly one of advanceMs or now');
    let ms: number;
    try {
      ms = advanceMs !== undefined ? clock.advance(advanceMs) : clock.set(Date.parse(now!));
    } catch (error) {
      throw new AppError('VALIDATION_FAILED', (error as Error).message);
    }
    // What became due at the new time (expiries, speed bumps) happens before the call returns.
    await ctx.trading.engine.tick();
    // Oracle windows that ended settle, and their markets resolve, before the call returns too.
    await ctx.oracle.service.tick();
    // Reward minutes the jump passed over are sampled one by one, and ended days closed.
    await ctx.rewards.tick();
    // Templates publish the periods now due, then the feed is polled, due targets derived and
    // due price-target markets proposed.
    await ctx.templates.tick();
    await ctx.prices.tick();
    return { now: new Date(ms).toISOString() };
  });
}
