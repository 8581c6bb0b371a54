import type { Event, EventListParams, ExchangeClient } from '../../client/index.ts';

/** The events route's largest page. */
const PAGE_LIMIT = 100;
/** At most this many events are ranked (five pages): the home's other sorts are one request. */
const MAX_PAGES = 5;

/**
 * When an event ends for a trader: the soonest end of its markets still open (ACTIVE, end not yet
 * passed; a market without an end ends with its event), else the event's own end; undefined for
 * neither. A recurring price series (EXTENSIONS.md section 13) has no end of its own, its current
 * round ends within the period.
 */
function endsAt(event: Event, nowMs: number): number | undefined {
  const eventEnd = event.endDate ? Date.parse(event.endDate) : undefined;
  const open = event.markets
    .filter((market) => market.status === 'ACTIVE')
    .map((market) => (market.endDate ? Date.parse(market.endDate) : eventEnd))
    .filter((end): end is number => end !== undefined && end > nowMs);
  return open.length > 0 ? Math.min(...open) : eventEnd;
}

/**
 * The `count` events of `filters` that end soonest by `endsAt`, events with no end last. The
 * events route sorts by the event's `endDate` only, nulls last, so a series (whose `endDate` is
 * null) came last although its current round ends first: the events are read in that order (up
 * to MAX_PAGES pages) and ranked here. The route's order breaks ties.
 */
export async function endingSoon(client: ExchangeClient, filters: EventListParams, count: number): Promise<Event[]> {
  const events: Event[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await client.events.list({ ...filters, sortBy: 'endDate', order: 'ASC', limit: PAGE_LIMIT, page, total: false });
    events.push(...answer.data);
    if (answer.data.length < PAGE_LIMIT) break;
  }
  const now = Date.now();
  const ends = new Map(events.map((event) => [event, endsAt(event, now) ?? Number.POSITIVE_INFINITY]));
  // Two events without an end compare equal (Infinity − Infinity is NaN, which no sort can use).
  return events.sort((a, b) => (ends.get(a) === ends.get(b) ? 0 : ends.get(a)! - ends.get(b)!)).slice(0, count);
}
