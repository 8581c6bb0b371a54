import { useState, type FormEvent } from 'react';
import type { Category, EventListParams, Market, Tag } from '../../../client/index.ts';
import { EventCard } from '../components/EventCard.tsx';
import { endingSoon } from '../ending-soon.ts';
import { errorText } from '../format.ts';
import { useBookWatcher } from '../live-book.ts';
import { useLoad } from '../load.ts';
import { livePrice } from '../price.ts';
import { setQuery, useQuery, useTitle } from '../router.tsx';
import { useSession } from '../session.ts';

/** Sort choices of the home page, as the events route's sortBy and order (but Ending soon). */
const SORTS = {
  volume: { label: 'Volume', sortBy: 'tradeVolumeUsd', order: 'DESC' },
  volume24h: { label: '24h volume', sortBy: 'tradeVolumeUsd24h', order: 'DESC' },
  // The route sorts by liquidity only under a liquidity filter; minLiquidity 0 keeps every event.
  liquidity: { label: 'Liquidity', sortBy: 'liquidity', order: 'DESC', minLiquidity: 0 },
  newest: { label: 'Newest', sortBy: 'createdAt', order: 'DESC' },
  // Ranked here by the soonest end of each event's open markets (ending-soon.ts): the route sorts by the event's endDate, null for a series.
  ending: { label: 'Ending soon' },
} as const satisfies Record<string, { label: string } & EventListParams>;
type SortKey = keyof typeof SORTS;
const PAGE = 24;
/** A socket subscribes to 100 tokens a call: outcome 1 of the first 100 markets listed, whose books give the cards' prices. */
const WATCHED_TOKENS = 100;

export function Home() {
  useTitle('');
  const { client } = useSession();
  const query = useQuery();
  const term = query.get('q') ?? '';
  const category = query.get('category') ?? undefined;
  const tag = query.get('tag') ?? undefined;
  const sort = (query.get('sort') ?? 'volume') as SortKey;
  const [draft, setDraft] = useState(term);

  // No route lists categories and tags publicly: the chips are those of the active events.
  const facets = useLoad(async () => {
    const page = await client.events.list({ eventStatus: 'ACTIVE', limit: 100, total: false });
    const categories = new Map<string, Category>();
    const tags = new Map<string, Tag>();
    for (const event of page.data) {
      for (const c of event.categories) categories.set(c.id, c);
      for (const t of event.tags) tags.set(t.id, t);
    }
    return { categories: [...categories.values()].sort((a, b) => a.position - b.position), tags: [...tags.values()] };
  }, [client]);

  const { label: _label, ...sortParams } = SORTS[sort] ?? SORTS.volume;
  const events = useLoad(async () => {
    const filters: EventListParams = { eventStatus: 'ACTIVE', includeVolume: true, ...(term ? { term } : {}), ...(category ? { category } : {}), ...(tag ? { tag } : {}) };
    if (sort === 'ending') return endingSoon(client, filters, PAGE);
    return (await client.events.list({ ...filters, limit: PAGE, total: false, ...sortParams })).data;
  }, [client, term, category, tag, sort]);

  // The cards show each market's current price as its own page does (price.ts): the midpoint of a
  // tight book, else the last trade, which the API's `chance` is.
  const tokenIds = (events.data ?? []).flatMap((event) => event.markets.map((market) => market.tokenId1)).filter((id): id is string => id !== null);
  const { watcher } = useBookWatcher(client, tokenIds.slice(0, WATCHED_TOKENS));
  const priceOf = (market: Market) => livePrice(market, market.tokenId1 ? watcher?.bestBid(market.tokenId1) : undefined, market.tokenId1 ? watcher?.bestAsk(market.tokenId1) : undefined);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery({ q: draft.trim() || undefined });
  };

  return (
    <>
      <section className="toolbar" aria-label="Filters">
        <form role="search" onSubmit={search} className="search">
          <label className="sr-only" htmlFor="search">Search markets</label>
          <input id="search" type="search" placeholder="Search markets" value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={200} />
        </form>
        <label className="sort">
          <span>Sort</span>
          <select value={sort} onChange={(e) => setQuery({ sort: e.target.value === 'volume' ? undefined : e.target.value })}>
            {Object.entries(SORTS).map(([key, value]) => <option key={key} value={key}>{value.label}</option>)}
          </select>
        </label>
      </section>
      <nav className="chips" aria-label="Categories">
        <button type="button" className="chip" aria-pressed={!category && !tag} onClick={() => setQuery({ category: undefined, tag: undefined })}>All</button>
        {facets.data?.categories.map((c) => (
          <button type="button" key={c.id} className="chip" aria-pressed={category === c.id} onClick={() => setQuery({ category: category === c.id ? undefined : c.id })}>{c.name}</button>
        ))}
        {facets.data?.tags.map((t) => (
          <button type="button" key={t.id} className="chip tag" aria-pressed={tag === t.id} onClick={() => setQuery({ tag: tag === t.id ? undefined : t.id })}>#{t.label}</button>
        ))}
      </nav>
      {events.error ? <p className="error" role="alert">{errorText(events.error)}</p> : null}
      <section className="grid" aria-busy={events.loading} aria-label="Markets">
        {events.data?.map((event) => <EventCard key={event.id} event={event} priceOf={priceOf} />)}
        {events.data && events.data.length === 0 && <p className="muted">No markets match.</p>}
      </section>
    </>
  );
}
