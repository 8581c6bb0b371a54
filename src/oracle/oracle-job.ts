import type { FastifyBaseLogger } from 'fastify';

/** How often the real-clock job looks for proposals whose window has ended. */
export const ORACLE_TICK_INTERVAL_MS = 1000;

/**
 * A clock-driven background job (the oracle windows; the rewards sampler reuses it): runs `tick` on an interval, never two at once (a tick still
 * running when the timer fires is not overlapped; the timer simply skips). With the manual clock
 * the server does not start it: POST /admin/clock runs the tick after moving time.
 */
export function startOracleJob(tick: () => Promise<unknown>, logger: FastifyBaseLogger, intervalMs = ORACLE_TICK_INTERVAL_MS, name = 'oracle'): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = tick()
      .catch((error) => logger.error({ err: error }, `${name} tick failed`))
      .finally(() => { running = undefined; });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
