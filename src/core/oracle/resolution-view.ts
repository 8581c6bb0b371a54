import type { OracleOutcome, OracleState, OracleStatus } from './state-machine.ts';

/** EXTENSIONS.md section 4 Resolution: the API shape of one market's oracle question. */
export interface ResolutionView {
  marketId: string;
  status: OracleStatus;
  proposedOutcome: OracleOutcome | null;
  proposedAt: string | null;
  disputeEndsAt: string | null;
  disputed: boolean;
  finalOutcome: OracleOutcome | null;
  settledAt: string | null;
  resolvedAt: string | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function toResolutionView(marketId: string, state: OracleState): ResolutionView {
  return {
    marketId,
    status: state.status,
    proposedOutcome: state.proposedOutcome,
    proposedAt: iso(state.proposedAtMs),
    disputeEndsAt: iso(state.disputeEndsAtMs),
    disputed: state.disputer !== null,
    finalOutcome: state.finalOutcome,
    settledAt: iso(state.settledAtMs),
    resolvedAt: iso(state.resolvedAtMs),
  };
}
