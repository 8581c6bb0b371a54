import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { MatchingEngine } from '../engine/engine.ts';
import type { Settlement } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { startIntervalJob } from '../jobs/interval-job.ts';
import { OracleService } from './oracle-service.ts';
import { Redemptions } from './redemption.ts';

export { addBondLocks } from './bond-locks.ts';
export type { OracleService } from './oracle-service.ts';
export type { Redemptions, BatchRedeemResult, RedeemablePosition } from './redemption.ts';

/** How often the real-clock job looks for proposals whose window has ended. */
const ORACLE_TICK_INTERVAL_MS = 1000;

export interface Oracle {
  readonly service: OracleService;
  readonly redemptions: Redemptions;
  /** Starts the oracle-windows job on the real clock; with the manual clock POST /admin/clock ticks instead. */
  start(): void;
  stop(): Promise<void>;
}

export function createOracle(deps: { db: Db; clock: Clock; settlement: Settlement; logger: FastifyBaseLogger; engine: MatchingEngine }): Oracle {
  const service = new OracleService({ db: deps.db, clock: deps.clock, settlement: deps.settlement, logger: deps.logger, retireMarkets: (work) => deps.engine.retireMarkets(work) });
  let job: { stop(): Promise<void> } | undefined;
  return {
    service,
    redemptions: new Redemptions({ db: deps.db, clock: deps.clock, settlement: deps.settlement }),
    start() {
      if (deps.clock.kind === 'real' && !job) job = startIntervalJob('oracle', () => service.tick(), deps.logger, ORACLE_TICK_INTERVAL_MS);
    },
    async stop() {
      await job?.stop();
      job = undefined;
    },
  };
}
