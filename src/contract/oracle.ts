import { Type } from 'typebox';
import { DateTime, Nullable, oneOf, Uuid } from './common.ts';

/** The oracle's shapes (EXTENSIONS.md section 4). */
export const OracleOutcome = oneOf(['YES', 'NO', 'TIE'] as const);

export const ResolutionSchema = Type.Object({
  marketId: Uuid,
  status: oneOf(['UNPROPOSED', 'PROPOSED', 'DISPUTED', 'SETTLED', 'RESOLVED'] as const),
  proposedOutcome: Nullable(OracleOutcome),
  proposedAt: Nullable(DateTime),
  disputeEndsAt: Nullable(DateTime),
  disputed: Type.Boolean(),
  finalOutcome: Nullable(OracleOutcome),
  settledAt: Nullable(DateTime),
  resolvedAt: Nullable(DateTime),
}, { description: 'EXTENSIONS.md section 4 Resolution' });

/** The body of a proposal or an operator's decision. */
export const OutcomeBody = Type.Object({ outcome: OracleOutcome });
