import type { QuestionTerms } from '../core/oracle/state-machine.ts';
import type { EventRow } from '../store/catalogue-events-repository.ts';
import type { MarketRow } from '../store/catalogue-markets-repository.ts';

/** What the oracle rules of a market's question depend on, read from the market and its event. */
export function questionTerms(market: MarketRow, event: EventRow): QuestionTerms {
  const end = market.end_date ?? event.end_date;
  return {
    marketActive: market.status === 'ACTIVE' && !market.is_resolved,
    endMs: end ? end.getTime() : null,
    proposalBondBaseUnits: event.proposal_bond_base_units,
    rewardBaseUnits: event.reward_base_units,
    livenessMs: event.liveness_seconds * 1000,
    yesExcluded: event.neg_risk && event.winning_market_id !== null && event.winning_market_id !== market.id,
  };
}
