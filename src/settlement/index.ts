import type { Clock } from '../clock.ts';
import { EmbeddedSettlement } from './embedded/embedded-settlement.ts';
import type { Settlement } from './types.ts';

export * from './types.ts';
export * from './accounts.ts';
export { auditLedger, lockKey, AUDIT_DETAILS_PER_INVARIANT, type AuditReport, type AuditViolation, type ExpectedLocks, type Invariant } from './audit.ts';
export { expectedOrderLocks } from './expected-locks.ts';

/** The settlement layer that runs inside the server: every operation runs on the database handle its caller passes (a transaction, but for reads). */
export function createEmbeddedSettlement(deps: { clock: Clock }): Settlement {
  return new EmbeddedSettlement(deps.clock);
}
