import type { FastifyBaseLogger } from 'fastify';

/**
 * A background job on the real clock: runs `tick` every `intervalMs`, never two at once (a tick
 * still running when the timer fires is not overlapped; the timer simply skips). With the manual
 * clock the server starts no timer: POST /admin/clock runs the jobs' ticks after moving time.
 */
export function startIntervalJob(name: string, tick: () => Promise<unknown>, logger: FastifyBaseLogger, intervalMs: number): { stop(): Promise<void> } {
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
