import { useAction } from '../action.ts';
import { useSession } from '../session.ts';
import { cents, describeOrder, shares } from '../format.ts';
import { useLoad } from '../load.ts';
import { Link, marketPath } from '../router.tsx';

/** The trader's resting orders (of one market, or all), with cancel and cancel-all; live from /user. */
export function OpenOrders({ marketId }: { marketId?: string }) {
  const { client, wallet, revision } = useSession();
  const [busy, act] = useAction();
  const orders = useLoad(() => (wallet ? client.orders.list({ status: 'PENDING', ...(marketId ? { market: marketId } : {}) }) : Promise.resolve([])), [client, wallet, marketId, revision]);
  if (!wallet) return null;

  const rows = orders.data ?? [];
  return (
    <section className="panel" aria-label="Open orders" data-testid="open-orders">
      <header className="panel-head">
        <h2>Open orders</h2>
        {rows.length > 0 && (
          <button type="button" disabled={busy} onClick={() => act(async () => {
            if (marketId) return `${(await client.orders.cancelMarket(marketId)).length} orders cancelled`;
            return `Orders cancelled in ${(await client.orders.cancelAll()).clearedMarkets.length} markets`;
          })}>Cancel all</button>
        )}
      </header>
      {rows.length === 0 ? <p className="muted">No open orders.</p> : (
        <table>
          <thead><tr>{!marketId && <th scope="col">Market</th>}<th scope="col">Side</th><th scope="col" className="num">Price</th><th scope="col" className="num">Filled</th><th scope="col" /></tr></thead>
          <tbody>
            {rows.map((order) => (
              <tr key={order.id}>
                {!marketId && <td><Link to={marketPath(order.marketInfo.slug)}>{order.marketInfo.title}</Link></td>}
                <td className={order.side === 0 ? 'up' : 'down'}>{order.side === 0 ? 'Buy' : 'Sell'} {order.outcome}</td>
                <td className="num">{cents(String(order.price))}</td>
                <td className="num">{shares(String(order.matchedAmount))} / {shares(String(order.amount))}</td>
                <td><button type="button" className="ghost" disabled={busy} onClick={() => act(async () => describeOrder(await client.orders.cancel(order.id)))}>Cancel</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
