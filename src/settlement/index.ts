import type { Clock } from '../clock.ts';
import { EmbeddedSettlement } from './embedded/embedded-settlement.ts';
import type { Settlement } from './types.ts';

export * from './types.ts';
export * from './accounts.ts';
export { auditLedger, lockKey, type AuditReport, type AuditViolation, type ExpectedLocks, type Invariant } from './audit.ts';
export { expectedOrderLocks } from './expected-locks.ts';

/** The settlement layer that runs inside the server, in the transactions of the store it is given. */
export function createEmbeddedSettlement(deps: { clock: Clock }): Settlement {
  return new EmbeddedSettlement(deps.clock);
}
