import { useState, type FormEvent } from 'react';
import type { MergeablePosition, RedeemablePosition } from '../../../client/index.ts';
import { OpenOrders, useOpenOrders } from '../components/OpenOrders.tsx';
import { PnlChart } from '../components/PnlChart.tsx';
import { cents, errorText, shares, usd } from '../format.ts';
import { useLoad } from '../load.ts';
import { Link, marketPath, useTitle } from '../router.tsx';
import { useAction } from '../action.ts';
import { notify, useSession } from '../session.ts';

/** The trader's positions, value and P&L, open orders, activity, and the merge and redeem batches. */
export default function PortfolioPage() {
  useTitle('Portfolio');
  const { wallet } = useSession();
  if (!wallet) return <section className="panel"><h1>Portfolio</h1><p>Sign in to see your positions, orders and activity.</p></section>;
  return (
    <div className="stack">
      <Summary />
      <Positions />
      <Batches />
      <AllOpenOrders />
      <Activity />
    </div>
  );
}

function AllOpenOrders() {
  return <OpenOrders orders={useOpenOrders()} />;
}

function Summary() {
  const { client, user, revision } = useSession();
  const data = useLoad(async () => {
    const [balance, value] = await Promise.all([client.account.balance(), client.portfolio.value()]);
    const pnl = user?.displayName ? await client.profiles.pnlHistory(user.displayName, 'ALL') : undefined;
    return { balance, value, pnl };
  }, [client, user, revision]);
  return (
    <section className="panel" aria-label="Summary">
      <h1>Portfolio</h1>
      <dl className="stats num" data-testid="portfolio-summary">
        <div><dt>Positions value</dt><dd>{data.data ? usd(data.data.value.value) : '—'}</dd></div>
        <div><dt>Cash available</dt><dd>{usd(data.data?.balance.collateral.available)}</dd></div>
        <div><dt>In open orders</dt><dd>{usd(data.data?.balance.collateral.locked)}</dd></div>
        <div><dt>P&amp;L</dt><dd>{data.data?.pnl ? usd(data.data.pnl.value) : '—'}</dd></div>
      </dl>
      {data.data?.pnl ? <PnlChart history={data.data.pnl} /> : <DisplayName />}
    </section>
  );
}

/** P&L history is public by display name (SPEC.md 4.8), so the chart needs one. */
function DisplayName() {
  const { client } = useSession();
  const [name, setName] = useState('');
  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await client.account.update({ displayName: name });
      location.reload();
    } catch (error) {
      notify(errorText(error));
    }
  };
  return (
    <form className="inline" onSubmit={save}>
      <label>Choose a display name to see your P&amp;L chart and public profile <input value={name} onChange={(e) => setName(e.target.value)} minLength={3} maxLength={30} required /></label>
      <button type="submit">Save</button>
    </form>
  );
}

function Positions() {
  const { client, revision } = useSession();
  const positions = useLoad(() => client.portfolio.positions({ limit: 100 }), [client, revision]);
  const rows = positions.data?.data ?? [];
  return (
    <section className="panel" aria-label="Positions" data-testid="positions">
      <h2>Positions</h2>
      {rows.length === 0 ? <p className="muted">No positions.</p> : (
        <table>
          <thead><tr><th scope="col">Market</th><th scope="col">Outcome</th><th scope="col" className="num">Shares</th><th scope="col" className="num">Avg</th><th scope="col" className="num">Now</th><th scope="col" className="num">Value</th><th scope="col" className="num">P&amp;L</th></tr></thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.tokenId}>
                <td>{row.slug ? <Link to={marketPath(row.slug)}>{row.title ?? row.slug}</Link> : row.title}</td>
                <td>{row.outcome}</td>
                <td className="num">{shares(row.amount)}</td>
                <td className="num">{cents(row.acquisitionPrice)}</td>
                <td className="num">{cents(row.latest)}</td>
                <td className="num">{usd(row.current)}</td>
                <td className={`num ${row.return.startsWith('-') ? 'down' : 'up'}`}>{usd(row.return)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Redeemable (resolved) and mergeable (both legs held) markets, each list with its batch action. */
function Batches() {
  const { client, revision } = useSession();
  const [busy, act] = useAction();
  const lists = useLoad(async () => {
    const [redeemable, mergeable] = await Promise.all([client.portfolio.redeemable(), client.portfolio.mergeable()]);
    return { redeemable, mergeable };
  }, [client, revision]);
  const run = (label: string, action: () => Promise<{ included: string[]; excluded: { reason: string }[] }>) => act(async () => {
    const result = await action();
    return `${label}: ${result.included.length} markets${result.excluded.length ? `, ${result.excluded.length} skipped (${result.excluded.map((e) => e.reason).join(', ')})` : ''}`;
  });
  const list = (title: string, rows: (RedeemablePosition | MergeablePosition)[], label: string, action: (ids: string[]) => Promise<{ included: string[]; excluded: { reason: string }[] }>) => (
    <section className="panel" aria-label={title} data-testid={title.toLowerCase()}>
      <header className="panel-head">
        <h2>{title}</h2>
        {rows.length > 0 && <button type="button" className="primary" disabled={busy} onClick={() => run(label, () => action(rows.map((r) => r.marketId)))}>{label} all</button>}
      </header>
      {rows.length === 0 ? <p className="muted">None.</p> : (
        <ul className="plain">
          {rows.map((row) => (
            <li key={row.marketId}>
              <Link to={marketPath(row.slug)}>{row.name}</Link>
              <button type="button" disabled={busy} onClick={() => run(label, () => action([row.marketId]))}>{label}</button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
  return (
    <div className="two">
      {list('Redeemable', lists.data?.redeemable ?? [], 'Redeem', (ids) => client.portfolio.redeemMany(ids))}
      {list('Mergeable', lists.data?.mergeable ?? [], 'Merge', (ids) => client.portfolio.mergeMany(ids))}
    </div>
  );
}

function Activity() {
  const { client, revision } = useSession();
  const activity = useLoad(() => client.portfolio.activity({ limit: 50 }), [client, revision]);
  const rows = activity.data?.data ?? [];
  return (
    <section className="panel" aria-label="Activity" data-testid="activity">
      <h2>Activity</h2>
      {rows.length === 0 ? <p className="muted">Nothing yet.</p> : (
        <table>
          <thead><tr><th scope="col">When</th><th scope="col">Type</th><th scope="col">Market</th><th scope="col" className="num">Amount</th><th scope="col" className="num">Price</th></tr></thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.hash}${row.type}${row.outcomeIndex ?? ''}`}>
                <td className="muted">{new Date(row.timestamp * 1000).toLocaleString()}</td>
                <td>{row.type}{row.outcomeIndex !== undefined ? ` ${row.outcomeIndex === 0 ? row.outcome1 : row.outcome2}` : ''}</td>
                <td><Link to={marketPath(row.slug)}>{row.name}</Link></td>
                <td className="num">{shares(String(row.amount))}</td>
                <td className="num">{cents(row.price)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
