import type { Market } from '../../../client/index.ts';
import { outcomePrices, sumUsd } from '../components/EventCard.tsx';
import { centsOf, date, errorText, money, percent } from '../format.ts';
import { useLoad } from '../load.ts';
import { Link, marketPath, useTitle } from '../router.tsx';
import { useSession } from '../session.ts';

/** A multi-market or negRisk event: one row per candidate or question, each opening its market. */
export default function EventPage({ slug }: { slug: string }) {
  const { client } = useSession();
  const event = useLoad(() => client.events.get(slug, { includeVolume: true }), [client, slug]);
  useTitle(event.data?.name ?? '');
  if (event.error) return <p className="error" role="alert">{errorText(event.error)}</p>;
  if (!event.data) return <p className="muted" role="status">Loading…</p>;
  const { data } = event;
  const markets = [...data.markets].sort((a, b) => b.chance - a.chance);
  return (
    <section className="panel">
      <h1>{data.name}</h1>
      <p className="muted num">
        {data.negRisk ? 'Exactly one resolves YES · ' : ''}Ends {date(data.endDate)} · {money(sumUsd(data.markets.map((m) => m.tradeVolumeUsd)))} volume
      </p>
      <p className="prose">{data.description}</p>
      <table className="event-markets">
        <thead><tr><th scope="col">Market</th><th scope="col" className="num">Chance</th><th scope="col" className="num">{data.markets[0]?.outcome1 ?? 'Yes'}</th><th scope="col" className="num">{data.markets[0]?.outcome2 ?? 'No'}</th></tr></thead>
        <tbody>{markets.map((market) => <Row key={market.id} market={market} />)}</tbody>
      </table>
    </section>
  );
}

function Row({ market }: { market: Market }) {
  const [yes, no] = outcomePrices(market);
  return (
    <tr>
      <td><Link to={marketPath(market.slug)}>{market.name}</Link></td>
      <td className="num">{percent(yes)}</td>
      <td className="num"><Link to={marketPath(market.slug)} className="outcome yes">{centsOf(yes)}</Link></td>
      <td className="num"><Link to={marketPath(market.slug)} className="outcome no">{centsOf(no)}</Link></td>
    </tr>
  );
}
