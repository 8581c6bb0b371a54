import { useEffect } from 'react';
import type { Event, Market, OracleOutcome, Resolution } from '../../client/index.ts';
import { date } from './format.ts';
import { useLoad, type Loaded } from './load.ts';
import { useSession } from './session.ts';

/**
 * How often an unresolved market's page asks its oracle question again. The Socket.IO API
 * announces no proposal, dispute or resolution (EXTENSIONS.md section 6), so the page polls: every
 * 10 s once the market has ended or a proposal is open (the dispute window is minutes long), and
 * every minute before, when only an operator's early proposal can come (EXTENSIONS.md section 4),
 * so that every open market's viewers do not ask six times a minute for what rarely changes.
 */
const RESOLUTION_POLL_MS = 10_000;
const QUIET_RESOLUTION_POLL_MS = 60_000;

/**
 * The market's oracle question (EXTENSIONS.md section 4), asked again on every action of the
 * trader (the session's revision) and, while `live`, on the intervals above when the tab is shown
 * (`ended`: the market's end date has passed). Each answer re-renders the page, which also moves a
 * market past its end date into "awaiting resolution".
 */
export function useResolution(marketId: string, live: boolean, ended: boolean): Loaded<Resolution> {
  const { client, revision } = useSession();
  const resolution = useLoad(() => client.oracle.resolution(marketId), [client, marketId, revision]);
  const { reload } = resolution;
  const proposed = resolution.data !== undefined && resolution.data.status !== 'UNPROPOSED';
  const pollMs = ended || proposed ? RESOLUTION_POLL_MS : QUIET_RESOLUTION_POLL_MS;
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => document.visibilityState === 'visible' && reload(), pollMs);
    return () => clearInterval(timer);
  }, [live, reload, pollMs]);
  return resolution;
}

/** When the market ends: its own end date, else its event's (EXTENSIONS.md section 11); undefined without one. */
export function endOf(market: Market, event: Event): string | undefined {
  return market.endDate ?? event.endDate ?? undefined;
}

/** True once the market's end date has passed (on the browser's clock). */
export function hasEnded(market: Market, event: Event): boolean {
  const end = endOf(market, event);
  return end !== undefined && Date.parse(end) <= Date.now();
}

/** An oracle outcome in the market's own words: YES is outcome 1's name, NO outcome 2's. */
export function outcomeLabel(market: Market, outcome: OracleOutcome): string {
  return outcome === 'YES' ? market.outcome1 : outcome === 'NO' ? market.outcome2 : 'Tie';
}

/** Where the oracle question stands, in words: what was proposed, until when it can be disputed, who decides. */
export function oracleState(market: Market, resolution: Resolution): string {
  const proposed = resolution.proposedOutcome ? outcomeLabel(market, resolution.proposedOutcome) : undefined;
  const final = resolution.finalOutcome ? outcomeLabel(market, resolution.finalOutcome) : undefined;
  switch (resolution.status) {
    case 'UNPROPOSED': return 'No outcome proposed yet';
    case 'PROPOSED': return `${proposed} proposed; open to dispute until ${date(resolution.disputeEndsAt)}`;
    case 'DISPUTED': return `${proposed} proposed and disputed; the operator decides`;
    case 'SETTLED': return `Settled: ${final}; the market resolves next`;
    case 'RESOLVED': return resolution.finalOutcome === 'TIE' ? 'Resolved: Tie; every share redeems for $0.50' : `Resolved: ${final}; its shares redeem for $1`;
  }
}
