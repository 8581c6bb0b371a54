import { useState } from 'react';
import type { Event, Market } from '../../../client/index.ts';
import { sumUsd } from '../components/EventCard.tsx';
import { OrderTicket } from '../components/OrderTicket.tsx';
import { PriceChart } from '../components/PriceChart.tsx';
import { centsOf, date, money, percent, period, usd } from '../format.ts';
import { onLiveTick, useBookWatcher } from '../live-book.ts';
import { useTrades } from '../live-trades.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { useLoad } from '../load.ts';
import { likeliestFirst, livePrice, ONE } from '../price.ts';
import { Link, marketPath, useTitle } from '../router.tsx';
import { useSession } from '../session.ts';

/** A multi-market or negRisk event: every outcome's chance on one chart, one row per candidate or question, and a ticket. */
export default function EventPage({ slug }: { slug: string }) {
  const { client } = useSession();
  const event = useLoad(() => client.events.get(slug, { includeVolume: true }), [client, slug]);
  useTitle(event.data?.name ?? '');
  if (event.error) return <LoadFailed what="Event" error={event.error} />;
  if (!event.data) return <p className="muted" role="status">Loading…</p>;
  return <EventView event={event.data} />;
}

/** A socket subscribes to 100 tokens a call: both tokens of the first 50 markets. */
const WATCHED_MARKETS = 50;
/** Lines on the chart: the likeliest outcomes, so it stays readable. */
const CHARTED = 6;
const PALETTE = ['#2563eb', '#059669', '#d97706', '#db2777', '#7c3aed', '#0891b2'];

/**
 * When the event ends; a price series (EXTENSIONS.md section 13) never does: a market every
 * period, the length of its latest market, and the current market's target.
 */
function timing(event: Event): string {
  if (event.endDate) return `Ends ${date(event.endDate)}`;
  if (!event.templateId) return 'No end date';
  const latest = event.markets.filter((m) => m.startDate && m.endDate).sort((a, b) => b.startDate!.localeCompare(a.startDate!))[0];
  const every = latest ? ` every ${period(Date.parse(latest.endDate!) - Date.parse(latest.startDate!))}` : '';
  const target = event.metadata?.cryptoPairTargetPrice;
  return `A new market${every}${target ? ` · current target ${Number(target).toLocaleString('en-US')}` : ''}`;
}

type Published = Market & { tokenId1: string; tokenId2: string };
const published = (market: Market): market is Published => market.tokenId1 !== null && market.tokenId2 !== null;

function EventView({ event }: { event: Event }) {
  const { client } = useSession();
  const listed = event.markets.filter(published);
  const { watcher } = useBookWatcher(client, listed.slice(0, WATCHED_MARKETS).flatMap((m) => [m.tokenId1, m.tokenId2]));
  const markets = listed.map((market) => onLiveTick(market, watcher));
  const trades = useTrades(client, event.id);
  const latestTrade = trades[0]?.id;
  // Asked again on each trade, as the market headline's: the load-time figure went stale with the first fill.
  const volume = useLoad(() => client.events.volume(event.id), [client, event.id, latestTrade]);
  // The one current price of each market (price.ts), likeliest first.
  const rows = likeliestFirst(markets, (market) => livePrice(market, watcher?.bestBid(market.tokenId1), watcher?.bestAsk(market.tokenId1), trades));
  const [chosen, setChosen] = useState<{ marketId: string; outcome: 0 | 1 } | undefined>(undefined);
  const [buyRequest, setBuyRequest] = useState(0);
  const selected = rows.find((row) => row.market.id === chosen?.marketId) ?? rows[0];
  const outcome = chosen && chosen.marketId === selected?.market.id ? chosen.outcome : 0;
  const choose = (marketId: string, picked: 0 | 1) => {
    setChosen({ marketId, outcome: picked });
    setBuyRequest((count) => count + 1);
  };
  const charted = rows.slice(0, CHARTED);
  const since = markets.map((m) => m.firstPriceDataAt).filter((at): at is string => at !== null).sort()[0] ?? null;
  const ticked = markets.map((m) => m.tickSize).sort((a, b) => a.length - b.length).at(-1) ?? '0.01';
  const selectedToken = selected && (outcome === 0 ? selected.market.tokenId1 : selected.market.tokenId2);
  return (
    <div className="market-layout">
      <div className="market-main">
        <header className="market-head">
          <h1>{event.name}</h1>
          <p className="muted num">
            {event.negRisk ? 'Exactly one resolves YES · ' : ''}<span data-testid="event-timing">{timing(event)}</span> · <span data-testid="event-volume">{volume.data === undefined ? money(sumUsd(event.markets.map((m) => m.tradeVolumeUsd))) : usd(volume.data)} Vol.</span>
          </p>
        </header>
        {charted.length > 0 && (
          <PriceChart
            client={client}
            lines={charted.map((row, index) => ({ tokenId: row.market.tokenId1, label: row.market.name, color: PALETTE[index % PALETTE.length]! }))}
            current={charted.map((row) => row.price)}
            tickSize={ticked}
            since={since}
            refresh={latestTrade}
          />
        )}
        <section className="panel event-outcomes" aria-label="Outcomes">
          <table className="event-markets">
            <thead><tr><th scope="col">Outcome</th><th scope="col" className="num">Chance</th><th scope="col"><span className="sr-only">Buy</span></th></tr></thead>
            <tbody>
              {rows.map(({ market, price }) => (
                <tr key={market.id} className={market.id === selected?.market.id ? 'selected' : undefined}>
                  <td><Link to={marketPath(market.slug)}>{market.name}</Link></td>
                  <td className="num chance-cell" data-testid="event-chance">{percent(price)}</td>
                  <td className="buy-cell">
                    <button type="button" className="outcome yes" onClick={() => choose(market.id, 0)}>Buy {market.outcome1} {centsOf(price, market.tickSize)}</button>
                    <button type="button" className="outcome no" onClick={() => choose(market.id, 1)}>Buy {market.outcome2} {centsOf(ONE - price, market.tickSize)}</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <p className="prose muted">{event.description}</p>
      </div>
      {selected && selectedToken && (
        <aside className="market-side">
          <p className="ticket-for"><span className="muted">Trading</span> <Link to={marketPath(selected.market.slug)}>{selected.market.name}</Link></p>
          <OrderTicket
            key={selected.market.id}
            market={selected.market}
            outcome={outcome}
            onOutcome={(picked) => setChosen({ marketId: selected.market.id, outcome: picked })}
            price={undefined}
            book={watcher?.depth(selectedToken, 100)}
            prices={[selected.price, ONE - selected.price]}
            buyRequest={buyRequest}
          />
        </aside>
      )}
    </div>
  );
}
