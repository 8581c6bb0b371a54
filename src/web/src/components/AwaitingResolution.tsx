import type { Event, Market, Resolution } from '../../../client/index.ts';
import { date } from '../format.ts';
import { endOf, oracleState } from '../resolution.ts';

/**
 * Above the ticket once the market's end date has passed and it is not resolved yet: that it
 * ended, where its oracle question stands, and that the book stays open meanwhile (EXTENSIONS.md
 * section 11: markets trade until they are RESOLVED).
 */
export function AwaitingResolution({ market, event, resolution }: { market: Market; event: Event; resolution: Resolution | undefined }) {
  return (
    <section className="panel awaiting" aria-label="Awaiting resolution" data-testid="market-ended" role="status">
      <h2>Ended {date(endOf(market, event))}: awaiting resolution</h2>
      <p data-testid="awaiting-oracle">{resolution ? `Oracle: ${oracleState(market, resolution)}.` : 'Asking the oracle…'}</p>
      <p className="muted">The book stays open until the market resolves.</p>
    </section>
  );
}
