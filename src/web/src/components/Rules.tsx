import type { Event, Market, OracleOutcome, Resolution } from '../../../client/index.ts';
import { useAction } from '../action.ts';
import { counted, date, units, usd } from '../format.ts';
import type { Loaded } from '../load.ts';
import { endOf, hasEnded, oracleState } from '../resolution.ts';
import { useSession } from '../session.ts';
import { tickCents } from '../ticket-price.ts';

/**
 * The market's rules and its oracle question (the page's, kept fresh: resolution.ts): description,
 * end date, resolution source, status and dispute window, with propose and dispute for a
 * signed-in trader (the server says whether the market allows it; its refusal is shown in words).
 */
export function Rules({ market, event, resolution }: { market: Market; event: Event; resolution: Loaded<Resolution> }) {
  const { client, wallet } = useSession();
  const [busy, run] = useAction();
  const status = resolution.data?.status;
  // EventInput has no resolution-source field: an operator may put one in the event's metadata.
  const declared = (event.metadata as { resolutionSource?: unknown } | undefined)?.resolutionSource;
  const source = typeof declared === 'string' ? declared : undefined;

  // The resolution reloads with the revision every action moves.
  const act = (what: () => Promise<unknown>, done: string) => run(async () => {
    await what();
    return done;
  });
  // An event may ask no bond (EXTENSIONS.md section 4: proposalBond 0), which is said as none, not as $0.00.
  const bond = units(event.proposalBond) ? usd(event.proposalBond) : undefined;
  const propose = (outcome: OracleOutcome) => act(() => client.oracle.propose(market.id, outcome), `Proposed ${outcome}${bond ? `; bond of ${bond} locked` : ''}`);

  return (
    <section className="panel rules" aria-label="Rules" data-testid="market-rules">
      <h2>Rules</h2>
      <p className="prose">{market.description || event.description}</p>
      <dl className="facts">
        <dt>Ends</dt><dd>{date(endOf(market, event))}</dd>
        <dt>Resolution source</dt>
        <dd>{source ?? `The exchange's optimistic oracle: anyone may propose the outcome after the end date ${bond ? `with a ${bond} bond` : 'with no bond'}; it stands unless disputed within ${counted(Math.round(event.liveness / 60), 'minute')}.`}</dd>
        <dt>Oracle status</dt>
        <dd data-testid="oracle-status">{resolution.data ? oracleState(market, resolution.data) : '—'}</dd>
        <dt>Tick · fees</dt><dd className="num">{tickCents(market.tickSize)}¢ · taker {market.orderFeeRateBps} bps, maker {market.passiveOrderFeeRateBps} bps</dd>
      </dl>
      {wallet && status === 'UNPROPOSED' && hasEnded(market, event) && (
        <div className="actions" role="group" aria-label="Propose an outcome">
          {(['YES', 'NO', 'TIE'] as const).map((outcome) => <button key={outcome} type="button" disabled={busy} onClick={() => propose(outcome)}>Propose {outcome}</button>)}
        </div>
      )}
      {wallet && status === 'PROPOSED' && (
        <button type="button" disabled={busy} onClick={() => act(() => client.oracle.dispute(market.id), `Disputed${bond ? `; bond of ${bond} locked` : ''}`)}>Dispute the proposal</button>
      )}
    </section>
  );
}
