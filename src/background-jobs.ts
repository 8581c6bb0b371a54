import type { FastifyBaseLogger } from 'fastify';
import type { MatchingEngine } from './engine/engine.ts';
import type { BackgroundJob } from './jobs/background-job.ts';
import type { Oracle } from './oracle/index.ts';
import type { Prices } from './prices/index.ts';
import type { Rewards } from './rewards/index.ts';
import { elapsed } from './store/open-and-migrate.ts';
import type { Templates } from './templates/index.ts';

export interface BackgroundJobServices {
  engine: MatchingEngine;
  oracle: Oracle;
  rewards: Rewards;
  templates: Templates;
  prices: Prices;
  /** The completion of credits and withdrawals cut between the chain and the ledger (api/account/payment-completion.ts); absent without a chain. */
  paymentCompletion?: { start(): Promise<void>; tick(): Promise<unknown>; stop(): Promise<void> } | undefined;
  /** The embedded store's autovacuum pass; absent on PostgreSQL, whose own autovacuum runs. */
  embeddedAutovacuum?: { tick(): Promise<unknown> } | undefined;
  logger: FastifyBaseLogger;
}

/**
 * Every background job of the server, in the order they start and POST /admin/clock ticks them
 * (they stop in the reverse order): src/server.ts starts the leader-only ones among the engine
 * node's duties and the others on every node, and stops them on shutdown; the manual clock ticks
 * them all. Adding a job is one entry here (src/jobs/README.md).
 */
export function declareBackgroundJobs(s: BackgroundJobServices): readonly BackgroundJob[] {
  const completion = s.paymentCompletion;
  return [
    {
      // Expiries and speed bumps (the engine's own 1 s timer), settlement rounds; starting recovers the engine's state (a standby has it already).
      name: 'engine',
      intervalMs: null,
      leaderOnly: true,
      tick: () => s.engine.tick(),
      async start() {
        const loadingMs = performance.now();
        await s.engine.start();
        const { books, openOrders } = s.engine.reads.bookStats();
        s.logger.info(`engine loaded ${books} book(s) and ${openOrders} open order(s) in ${elapsed(loadingMs)}`);
      },
      stop: () => s.engine.stop(),
    },
    // Credits mined on chain whose ledger side was never made, and withdrawals journaled whose transaction was never seen mined, are completed.
    ...(completion ? [{ name: 'payment completion', intervalMs: 60_000, leaderOnly: true, start: () => completion.start(), tick: () => completion.tick(), stop: () => completion.stop() }] : []),
    // Oracle windows that ended settle, and their markets resolve.
    { name: 'oracle', intervalMs: 1000, leaderOnly: true, tick: () => s.oracle.service.tick() },
    // Reward minutes sampled one by one (every minute started since the last tick), ended days closed.
    { name: 'rewards', intervalMs: 5_000, leaderOnly: true, tick: () => s.rewards.tick(), start: () => s.rewards.start(), stop: () => s.rewards.stop() },
    // Templates publish the periods now due (a period is at least 15 minutes).
    { name: 'templates', intervalMs: 10_000, leaderOnly: true, tick: () => s.templates.tick() },
    // The feed is polled, due targets derived and due price-target markets proposed.
    { name: 'prices', intervalMs: 5_000, leaderOnly: true, tick: () => s.prices.tick() },
    // PGlite runs no autovacuum: once a minute, as PostgreSQL's, every table due (src/store/embedded-autovacuum.ts).
    ...(s.embeddedAutovacuum ? [{ name: 'autovacuum', intervalMs: 60_000, leaderOnly: true, tick: s.embeddedAutovacuum.tick }] : []),
  ];
}
