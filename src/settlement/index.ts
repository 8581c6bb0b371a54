export * from './types.ts';
export * from './accounts.ts';
export { auditLedger, lockKey, AUDIT_DETAILS_PER_INVARIANT, type AuditReport, type AuditViolation, type ExpectedLocks, type Invariant } from './audit.ts';
export { expectedOrderLocks } from './expected-locks.ts';
