import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { MatchingEngine } from '../engine/engine.ts';
import type { Settlement } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { OracleService } from './oracle-service.ts';
import { Redemptions } from './redemption.ts';

export { addBondLocks } from './bond-locks.ts';
export type { OracleService } from './oracle-service.ts';
export type { Redemptions, BatchRedeemResult, RedeemablePosition } from './redemption.ts';

export interface Oracle {
  readonly service: OracleService;
  readonly redemptions: Redemptions;
}

export function createOracle(deps: { db: Db; clock: Clock; settlement: Settlement; logger: FastifyBaseLogger; engine: MatchingEngine }): Oracle {
  const moveBalances = <T>(work: (tx: Db) => Promise<T>) => deps.engine.moveBalances(work);
  const service = new OracleService({ db: deps.db, clock: deps.clock, settlement: deps.settlement, logger: deps.logger, retireMarkets: (work) => deps.engine.retireMarkets(work), moveBalances });
  return {
    service,
    redemptions: new Redemptions({ db: deps.db, clock: deps.clock, settlement: deps.settlement, moveBalances }),
  };
}
