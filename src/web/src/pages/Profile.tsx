import { PnlChart } from '../components/PnlChart.tsx';
import { cents, shares, usd } from '../format.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { useLoad } from '../load.ts';
import { rowMarkets, sideName } from '../outcome-names.ts';
import { Link, marketPath, useTitle } from '../router.tsx';
import { useSession } from '../session.ts';

/** A public profile by display name: summary, P&L chart, active positions and recent trades. */
export default function ProfilePage({ name }: { name: string }) {
  useTitle(name);
  const { client } = useSession();
  const profile = useLoad(async () => {
    const [summary, pnl, positions, activity] = await Promise.all([
      client.profiles.summary(name), client.profiles.pnlHistory(name, 'ALL'), client.profiles.activePositions(name), client.profiles.activity(name),
    ]);
    // Rows name a side only: the outcomes' names (and the ticks of the prices) come from their markets, before the rows show.
    const markets = await rowMarkets(client, [...positions, ...activity].map((row) => row.slug));
    return { summary, pnl, positions, activity, markets };
  }, [client, name]);
  if (profile.error) return <LoadFailed what="Profile" error={profile.error} />;
  if (!profile.data) return <p className="muted" role="status">Loading…</p>;
  const { summary, pnl, positions, activity, markets } = profile.data;
  return (
    <div className="stack">
      <section className="panel">
        <h1>{name}</h1>
        <dl className="stats num">
          <div><dt>Positions value</dt><dd>{usd(summary.positionsValue)}</dd></div>
          <div><dt>P&amp;L</dt><dd>{usd(summary.allTimePnl)}</dd></div>
          <div><dt>Biggest win</dt><dd>{usd(summary.biggestWin)}</dd></div>
          <div><dt>Predictions</dt><dd>{summary.predictions}</dd></div>
        </dl>
        <PnlChart history={pnl} />
      </section>
      <section className="panel" aria-label="Active positions">
        <h2>Active positions</h2>
        {positions.length === 0 ? <p className="muted">None.</p> : (
          <ul className="plain">
            {positions.map((position) => (
              <li key={position.id}><span>{position.market} · {sideName(markets, position.slug, position.side)}</span><span className="num">{shares(position.shares)} shares · {usd(position.value)}</span></li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-label="Recent trades">
        <h2>Recent trades</h2>
        <ul className="plain">
          {activity.map((row) => (
            <li key={row.id}><span>{row.action} {sideName(markets, row.slug, row.side)} · {row.slug ? <Link to={marketPath(row.slug)}>{row.market}</Link> : row.market}</span><span className="num">{usd(row.amount)} at {cents(row.price / 100, row.slug ? markets.get(row.slug)?.tickSize : undefined)}</span></li>
          ))}
        </ul>
      </section>
    </div>
  );
}
