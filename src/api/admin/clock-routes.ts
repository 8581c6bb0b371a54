import { isManualClock } from '../../clock.ts';
import type { AppContext } from '../context.ts';
import { tickBackgroundJobs } from '../../jobs/background-job.ts';
import { AppError, badRequest } from '../../contract/errors.ts';
import type { TypedApp } from '../typed-app.ts';
import { ClockBody, ClockResponse } from '../../contract/admin.ts';
import { errorResponses } from '../../contract/common.ts';

/** The last instant a date-time of this API can name (years 0001 to 9999): past it, dates stop formatting. */
const LATEST_CLOCK_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * POST /admin/clock: moves the manual clock (tests). It exists only on a manual clock (EXTENSIONS.md
 * sections 3 and 11: 404 on the real clock), so the OpenAPI document lists it only then, which is
 * how the web app's Operate page knows whether to offer it. Every declared background job ticks at
 * once (src/background-jobs.ts), so a test that moves time sees the expiries, oracle settlements,
 * reward minutes and publications it caused.
 */
export function registerClockRoutes(api: TypedApp, ctx: AppContext): void {
  const clock = ctx.clock;
  if (!isManualClock(clock)) return;
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
    const { advanceMs, now } = request.body;
    if ((advanceMs === undefined) === (now === undefined)) throw badRequest('send exactly one of advanceMs or now');
    const target = advanceMs !== undefined ? clock.nowMs() + advanceMs : Date.parse(now!);
    if (!(target <= LATEST_CLOCK_MS)) throw badRequest(`the clock cannot pass ${new Date(LATEST_CLOCK_MS).toISOString()}`);
    let ms: number;
    try {
      ms = advanceMs !== undefined ? clock.advance(advanceMs) : clock.set(Date.parse(now!));
    } catch (error) {
      throw new AppError('VALIDATION_FAILED', (error as Error).message);
    }
    // What became due at the new time happens before the call returns: engine expiries and speed
    // bumps, oracle windows, reward minutes, template periods, then reference prices, in that order.
    await tickBackgroundJobs(ctx.jobs);
    return { now: new Date(ms).toISOString() };
  });
}
