import type { Clock } from '../clock.ts';
import type { MatchingEngine } from '../engine/engine.ts';
import type { Db } from '../store/database.ts';
import { OracleService } from './oracle-service.ts';
import { Redemptions, type RedeemCommand } from './redemption.ts';

export type { OracleService } from './oracle-service.ts';
export type { Redemptions, BatchRedeemResult, RedeemablePosition, RedeemCommand } from './redemption.ts';

export interface Oracle {
  readonly service: OracleService;
  readonly redemptions: Redemptions;
}

export function createOracle(deps: { db: Db; clock: Clock; engine: MatchingEngine; redeem: RedeemCommand }): Oracle {
  return {
    service: new OracleService({ db: deps.db, clock: deps.clock, engine: deps.engine }),
    redemptions: new Redemptions({ db: deps.db, redeem: deps.redeem }),
  };
}
