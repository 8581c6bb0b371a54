import type { Clock } from '../clock.ts';
import type { Db } from '../store/database.ts';
import { EmbeddedSettlement } from './embedded/embedded-settlement.ts';
import type { Settlement } from './types.ts';

export * from './types.ts';
export * from './accounts.ts';
export { auditLedger, lockKey, type AuditReport, type AuditViolation, type ExpectedLocks, type Invariant } from './audit.ts';
export { expectedOrderLocks } from './expected-locks.ts';

/** The settlement layer that runs inside the server, on the store's database. */
export function createEmbeddedSettlement(deps: { db: Db; clock: Clock }): Settlement {
  return new EmbeddedSettlement(deps.db, deps.clock);
}
