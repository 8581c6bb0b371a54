import type { OracleState } from '../core/oracle/state-machine.ts';
import { updateMarket } from '../store/catalogue-markets-repository.ts';
import type { Db } from '../store/database.ts';
import { saveQuestion } from '../store/oracle-questions-repository.ts';

const seconds = (ms: number | null) => BigInt(ms === null ? 0 : Math.floor(ms / 1000));

/**
 * Saves a question and mirrors it onto the market's SPEC.md fields in the same transaction:
 * hasProposedPrice, proposedPrice, proposedAt, isDisputed, questionFlaggedTimestamp (when the
 * question was disputed, Unix seconds), isSettled. Resolution fields are set by platform resolution.
 */
export async function saveQuestionAndMarket(tx: Db, marketId: string, state: OracleState, nowMs: number): Promise<void> {
  const now = new Date(nowMs);
  await saveQuestion(tx, marketId, state, now);
  await updateMarket(tx, marketId, {
    has_proposed_price: state.proposedOutcome !== null,
    proposed_price: state.proposedOutcome,
    proposed_at: state.proposedAtMs === null ? null : new Date(state.proposedAtMs),
    is_disputed: state.disputer !== null,
    question_flagged_timestamp: seconds(state.disputedAtMs),
    is_settled: state.status === 'SETTLED' || state.status === 'RESOLVED',
    updated_at: now,
  });
}
