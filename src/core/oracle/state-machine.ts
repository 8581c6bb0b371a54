/**
 * The optimistic oracle of one market's question (EXTENSIONS.md section 4), as a pure function of
 * (state, command, now): no I/O and no clock. The engine applies the new state and the returned
 * ledger effects in the same journal record (src/engine/state/oracle-commands.ts), so bonds,
 * rewards and payouts move exactly when
 * the state changes, and a state can only pay out once (SETTLED is left only for RESOLVED).
 *
 * UNPROPOSED → PROPOSED → (window ends: tick) SETTLED → RESOLVED
 *              PROPOSED → (dispute) DISPUTED → (decide) SETTLED → RESOLVED
 * `resolveQuestion` is the last step, SETTLED → RESOLVED.
 * `force` is the platform determining an outcome without the oracle (the other markets of a
 * negRisk event once one resolved YES): it settles from any unsettled state.
 */
export type OracleOutcome = 'YES' | 'NO' | 'TIE';
export type OracleStatus = 'UNPROPOSED' | 'PROPOSED' | 'DISPUTED' | 'SETTLED' | 'RESOLVED';

/** A bondholder: a ledger account, or null for the operator (who posts no bond and earns nothing). */
export interface BondParty {
  account: string | null;
  userId: string | null;
  bondBaseUnits: bigint;
}

export interface OracleState {
  status: OracleStatus;
  proposedOutcome: OracleOutcome | null;
  proposer: BondParty | null;
  proposedAtMs: number | null;
  disputeEndsAtMs: number | null;
  disputer: BondParty | null;
  disputedAtMs: number | null;
  finalOutcome: OracleOutcome | null;
  settledAtMs: number | null;
  resolvedAtMs: number | null;
}

/** What a question's rules depend on besides its own state (read from the market and its event). */
export interface QuestionTerms {
  /** The market is ACTIVE (published, not resolved). */
  marketActive: boolean;
  /** The market's endDate (or its event's); null when it has none. */
  endMs: number | null;
  proposalBondBaseUnits: bigint;
  rewardBaseUnits: bigint;
  livenessMs: number;
  /** A negRisk sibling already resolved YES, so this market can only resolve NO. */
  yesExcluded: boolean;
}

export type Caller = { kind: 'user'; account: string; userId: string } | { kind: 'operator' };

export type OracleCommand =
  | { kind: 'propose'; by: Caller; outcome: OracleOutcome }
  | { kind: 'dispute'; by: Extract<Caller, { kind: 'user' }> }
  | { kind: 'decide'; outcome: OracleOutcome }
  | { kind: 'tick' }
  | { kind: 'force'; outcome: OracleOutcome };

/**
 * Ledger effects, in the order to apply them. `lock`/`unlock` reserve and release a bond in its
 * holder's own collateral; `pay` moves available collateral: from a bondholder (its released bond),
 * or from the reward treasury (`from: 'treasury'`) to a party or the fee account (`to: 'fees'`).
 */
export type OracleEffect =
  | { kind: 'lock'; account: string; amount: bigint; ref: string }
  | { kind: 'unlock'; account: string; amount: bigint; ref: string }
  | { kind: 'pay'; from: string | 'treasury'; to: string | 'fees'; amount: bigint; why: 'BOND_FORFEIT' | 'ORACLE_REWARD' };

export type OracleRefusal = 'VALIDATION_FAILED' | 'CONFLICT' | 'FORBIDDEN' | 'MARKET_NOT_TRADABLE';

export type OracleResult =
  | { ok: true; state: OracleState; effects: OracleEffect[] }
  | { ok: false; code: OracleRefusal; message: string };

export const UNPROPOSED: OracleState = Object.freeze({
  status: 'UNPROPOSED',
  proposedOutcome: null,
  proposer: null,
  proposedAtMs: null,
  disputeEndsAtMs: null,
  disputer: null,
  disputedAtMs: null,
  finalOutcome: null,
  settledAtMs: null,
  resolvedAtMs: null,
}) as OracleState;

const refuse = (code: OracleRefusal, message: string): OracleResult => ({ ok: false, code, message });
export const bondRef = (marketId: string, role: 'proposal' | 'dispute') => `bond:${marketId}:${role}`;

export function applyOracle(marketId: string, state: OracleState, command: OracleCommand, terms: QuestionTerms, nowMs: number): OracleResult {
  switch (command.kind) {
    case 'propose': return propose(marketId, state, command, terms, nowMs);
    case 'dispute': return dispute(marketId, state, command.by, terms, nowMs);
    case 'decide':
      if (state.status !== 'DISPUTED') return refuse('CONFLICT', `the question is ${state.status}; only a DISPUTED question can be decided`);
      if (command.outcome === 'YES' && terms.yesExcluded) return refuse('CONFLICT', 'another market of this negRisk event already resolved YES');
      return settle(marketId, state, command.outcome, terms, nowMs);
    case 'tick':
      if (state.status !== 'PROPOSED' || nowMs < state.disputeEndsAtMs!) return { ok: true, state, effects: [] };
      return settle(marketId, state, state.proposedOutcome!, terms, nowMs);
    case 'force':
      if (state.status === 'SETTLED' || state.status === 'RESOLVED') return refuse('CONFLICT', `the question is already ${state.status}`);
      return settle(marketId, state, command.outcome, terms, nowMs);
  }
}

/** Platform resolution of a settled question: SETTLED → RESOLVED, nothing moves. */
export function resolveQuestion(state: OracleState, nowMs: number): OracleResult {
  if (state.status !== 'SETTLED') return refuse('CONFLICT', `the question is ${state.status}; only a SETTLED question resolves`);
  return { ok: true, state: { ...state, status: 'RESOLVED', resolvedAtMs: nowMs }, effects: [] };
}

function propose(marketId: string, state: OracleState, command: Extract<OracleCommand, { kind: 'propose' }>, terms: QuestionTerms, nowMs: number): OracleResult {
  // EXTENSIONS.md section 9: a market that is not ACTIVE, or is resolved, is MARKET_NOT_TRADABLE.
  if (!terms.marketActive) return refuse('MARKET_NOT_TRADABLE', 'the market is not ACTIVE; proposals are for ACTIVE markets');
  if (state.status !== 'UNPROPOSED') return refuse('CONFLICT', `the question is ${state.status}; one proposal at a time`);
  if (command.outcome === 'YES' && terms.yesExcluded) return refuse('CONFLICT', 'another market of this negRisk event already resolved YES');
  const operator = command.by.kind === 'operator';
  if (!operator && (terms.endMs === null || nowMs < terms.endMs)) return refuse('VALIDATION_FAILED', 'the market has not ended; proposals open at its endDate');
  const proposer: BondParty = command.by.kind === 'operator'
    ? { account: null, userId: null, bondBaseUnits: 0n }
    : { account: command.by.account, userId: command.by.userId, bondBaseUnits: terms.proposalBondBaseUnits };
  return {
    ok: true,
    state: { ...state, status: 'PROPOSED', proposedOutcome: command.outcome, proposer, proposedAtMs: nowMs, disputeEndsAtMs: nowMs + terms.livenessMs },
    effects: lockBond(proposer, bondRef(marketId, 'proposal')),
  };
}

function dispute(marketId: string, state: OracleState, by: Extract<Caller, { kind: 'user' }>, terms: QuestionTerms, nowMs: number): OracleResult {
  if (state.status === 'DISPUTED') return refuse('CONFLICT', 'the proposal is already disputed');
  if (state.status !== 'PROPOSED') return refuse('CONFLICT', `the question is ${state.status}; there is no proposal to dispute`);
  if (nowMs >= state.disputeEndsAtMs!) return refuse('CONFLICT', 'the dispute window has closed');
  if (state.proposer?.account === by.account) return refuse('FORBIDDEN', 'a proposer cannot dispute its own proposal');
  const disputer: BondParty = { account: by.account, userId: by.userId, bondBaseUnits: terms.proposalBondBaseUnits };
  return {
    ok: true,
    state: { ...state, status: 'DISPUTED', disputer, disputedAtMs: nowMs },
    effects: lockBond(disputer, bondRef(marketId, 'dispute')),
  };
}

/**
 * Settles with `outcome` and pays the bonds. Undisputed: the proposer's bond comes back with the
 * reward (when the proposal was right; a forced different outcome only returns the bond).
 * Disputed: the side that was right gets its bond back, half of the other bond and the reward; the
 * other half goes to the fee account. When the right side is the operator (no account), the whole
 * losing bond goes to the fee account.
 */
function settle(marketId: string, state: OracleState, outcome: OracleOutcome, terms: QuestionTerms, nowMs: number): OracleResult {
  const effects: OracleEffect[] = [];
  const settled: OracleState = { ...state, status: 'SETTLED', finalOutcome: outcome, settledAtMs: nowMs };
  const { proposer, disputer } = state;
  if (proposer) effects.push(...unlockBond(proposer, bondRef(marketId, 'proposal')));
  if (disputer) effects.push(...unlockBond(disputer, bondRef(marketId, 'dispute')));
  if (!proposer) return { ok: true, state: settled, effects };
  const proposerRight = state.proposedOutcome === outcome;
  if (!disputer) {
    if (proposerRight) effects.push(...reward(proposer, terms.rewardBaseUnits));
    return { ok: true, state: settled, effects };
  }
  const [winner, loser] = proposerRight ? [proposer, disputer] : [disputer, proposer];
  if (loser.account !== null && loser.bondBaseUnits > 0n) {
    const half = winner.account === null ? 0n : loser.bondBaseUnits / 2n;
    if (half > 0n) effects.push({ kind: 'pay', from: loser.account, to: winner.account!, amount: half, why: 'BOND_FORFEIT' });
    effects.push({ kind: 'pay', from: loser.account, to: 'fees', amount: loser.bondBaseUnits - half, why: 'BOND_FORFEIT' });
  }
  effects.push(...reward(winner, terms.rewardBaseUnits));
  return { ok: true, state: settled, effects };
}

function lockBond(party: BondParty, ref: string): OracleEffect[] {
  return party.account !== null && party.bondBaseUnits > 0n ? [{ kind: 'lock', account: party.account, amount: party.bondBaseUnits, ref }] : [];
}

function unlockBond(party: BondParty, ref: string): OracleEffect[] {
  return party.account !== null && party.bondBaseUnits > 0n ? [{ kind: 'unlock', account: party.account, amount: party.bondBaseUnits, ref }] : [];
}

function reward(party: BondParty, amount: bigint): OracleEffect[] {
  return party.account !== null && amount > 0n ? [{ kind: 'pay', from: 'treasury', to: party.account, amount, why: 'ORACLE_REWARD' }] : [];
}

/** The bonds a question keeps locked in its holders' collateral, for the audit's expected locks. */
export function lockedBonds(state: OracleState): { account: string; amount: bigint }[] {
  if (state.status !== 'PROPOSED' && state.status !== 'DISPUTED') return [];
  return [state.proposer, state.disputer].flatMap((p) => (p && p.account !== null && p.bondBaseUnits > 0n ? [{ account: p.account, amount: p.bondBaseUnits }] : []));
}
