import type { OracleOutcome, Resolution } from '../types.ts';
import type { ClientContext } from './context.ts';

/**
 * A market's optimistic-oracle question (EXTENSIONS.md section 4). Proposing and disputing lock
 * the event's `proposalBond` of the caller's collateral; the question settles when the dispute
 * window ends (or the operator decides a dispute: `client.admin.oracleDecide`).
 */
export function oracleSection({ transport }: ClientContext) {
  const path = (marketId: string, rest = '') => `/markets/${encodeURIComponent(marketId)}${rest}`;
  return {
    resolution: (marketId: string) => transport.call<Resolution>('GET', path(marketId, '/resolution')),
    /** Proposes the outcome once the market has ended. Not retried: a second proposal would be refused, not repeated. */
    propose: (marketId: string, outcome: OracleOutcome) => transport.call<Resolution>('POST', path(marketId, '/oracle/propose'), { auth: 'apiKey', body: { outcome } }),
    /** Disputes someone else's open proposal inside its window, locking a bond of the same size. */
    dispute: (marketId: string) => transport.call<Resolution>('POST', path(marketId, '/oracle/dispute'), { auth: 'apiKey' }),
  };
}
