import type { Selectable } from 'kysely';
import { UNPROPOSED, type BondParty, type OracleState } from '../core/oracle/state-machine.ts';
import type { Db } from './database.ts';
import type { OracleQuestionsTable } from './schema.ts';

/** Oracle questions (migration 0009_oracle): a market without a row is UNPROPOSED. */
type QuestionRow = Selectable<OracleQuestionsTable>;

const ms = (date: Date | null) => (date ? date.getTime() : null);
const date = (value: number | null) => (value === null ? null : new Date(value));

function party(account: string | null, userId: string | null, bond: bigint, present: boolean): BondParty | null {
  return present ? { account, userId, bondBaseUnits: bond } : null;
}

function toState(row: QuestionRow): OracleState {
  return {
    status: row.status,
    proposedOutcome: row.proposed_outcome,
    proposer: party(row.proposer_account, row.proposer_user_id, row.proposal_bond_base_units, row.proposed_at !== null),
    proposedAtMs: ms(row.proposed_at),
    disputeEndsAtMs: ms(row.dispute_ends_at),
    disputer: party(row.disputer_account, row.disputer_user_id, row.dispute_bond_base_units, row.disputed_at !== null),
    disputedAtMs: ms(row.disputed_at),
    finalOutcome: row.final_outcome,
    settledAtMs: ms(row.settled_at),
    resolvedAtMs: ms(row.resolved_at),
  };
}

/** The question of a market as the tables hold it (UNPROPOSED without a row). */
export async function findQuestion(db: Db, marketId: string): Promise<OracleState> {
  const row = await db.selectFrom('oracle_questions').selectAll().where('market_id', '=', marketId).executeTakeFirst();
  return row ? toState(row) : UNPROPOSED;
}

export async function findQuestions(db: Db, marketIds: string[]): Promise<Map<string, OracleState>> {
  if (marketIds.length === 0) return new Map();
  const rows = await db.selectFrom('oracle_questions').selectAll().where('market_id', 'in', marketIds).execute();
  return new Map(rows.map((row) => [row.market_id, toState(row)]));
}

export async function saveQuestion(db: Db, marketId: string, state: OracleState, now: Date): Promise<void> {
  if (state.status === 'UNPROPOSED') throw new Error('an UNPROPOSED question has no row');
  const row = {
    status: state.status,
    proposed_outcome: state.proposedOutcome,
    proposer_account: state.proposer?.account ?? null,
    proposer_user_id: state.proposer?.userId ?? null,
    proposal_bond_base_units: state.proposer?.bondBaseUnits ?? 0n,
    proposed_at: date(state.proposedAtMs),
    dispute_ends_at: date(state.disputeEndsAtMs),
    disputer_account: state.disputer?.account ?? null,
    disputer_user_id: state.disputer?.userId ?? null,
    dispute_bond_base_units: state.disputer?.bondBaseUnits ?? 0n,
    disputed_at: date(state.disputedAtMs),
    final_outcome: state.finalOutcome,
    settled_at: date(state.settledAtMs),
    resolved_at: date(state.resolvedAtMs),
    updated_at: now,
  };
  await db.insertInto('oracle_questions').values({ market_id: marketId, ...row })
    .onConflict((oc) => oc.column('market_id').doUpdateSet(row)).execute();
}

/** Every question holding bonds (PROPOSED or DISPUTED), for the audit's expected locks. */
export async function findOpenQuestions(db: Db): Promise<OracleState[]> {
  const rows = await db.selectFrom('oracle_questions').selectAll().where('status', 'in', ['PROPOSED', 'DISPUTED']).execute();
  return rows.map(toState);
}

