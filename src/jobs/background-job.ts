import type { FastifyBaseLogger } from 'fastify';
import { startIntervalJob } from './interval-job.ts';

/**
 * One background job as the server declares it (src/background-jobs.ts): server startup (the
 * leader's duties, or every node), shutdown and POST /admin/clock all read the same entry, so
 * adding a job is one entry there.
 */
export interface BackgroundJob {
  readonly name: string;
  /**
   * The real-clock timer's period; null for a job that keeps its own timers once started (the
   * engine). With the manual clock no timer runs: POST /admin/clock ticks instead.
   */
  readonly intervalMs: number | null;
  /** One pass of the work: the timer's, and the manual clock's after moving time. */
  tick(): Promise<unknown>;
  /** True: runs only on the node that runs the engine, among the leader's duties. False: on every node. */
  readonly leaderOnly: boolean;
  /** Before the timer starts (optional): load state, resume unfinished work. */
  start?(): Promise<void>;
  /** After the timer stopped and its running tick ended (optional): write what is buffered. */
  stop?(): Promise<void>;
}

export interface RunningJobs {
  /** Stops the jobs in the reverse order: each one's timer (waiting for its tick), then its `stop`. */
  stop(): Promise<void>;
}

/** Starts the jobs in their declared order: each one's `start`, then (with `timers`) its timer. */
export async function startBackgroundJobs(jobs: readonly BackgroundJob[], options: { timers: boolean; logger: FastifyBaseLogger }): Promise<RunningJobs> {
  const started: { job: BackgroundJob; timer: { stop(): Promise<void> } | undefined }[] = [];
  for (const job of jobs) {
    await job.start?.();
    const timer = options.timers && job.intervalMs !== null ? startIntervalJob(job.name, () => job.tick(), options.logger, job.intervalMs) : undefined;
    started.push({ job, timer });
  }
  return {
    async stop() {
      for (const { job, timer } of started.splice(0).reverse()) {
        await timer?.stop();
        await job.stop?.();
      }
    },
  };
}

/** The manual clock: every job's tick, one after the other in the declared order. */
export async function tickBackgroundJobs(jobs: readonly BackgroundJob[]): Promise<void> {
  for (const job of jobs) await job.tick();
}
