import { useAction } from '../action.ts';
import { useSession } from '../session.ts';
import { cents, counted, describeOrder, shares } from '../format.ts';
import type { OrderWithMarket } from '../../../client/index.ts';
import { useLoad, type Loaded } from '../load.ts';
import { Link, marketPath } from '../router.tsx';

/** The trader's resting orders (of one market, or all), reloaded on every /user message. */
export function useOpenOrders(marketId?: string): Loaded<OrderWithMarket[]> {
  const { client, wallet, revision } = useSession();
  return useLoad(() => (wallet ? client.orders.list({ status: 'PENDING', ...(marketId ? { market: marketId } : {}) }) : Promise.resolve([])), [client, wallet, marketId, revision]);
}

/**
 * The trader's resting orders (useOpenOrders: the market page also marks them in the book), with
 * cancel and cancel-all; each price on its market's tick, `ticks` by market id (format.ts centsOf).
 */
export function OpenOrders({ orders, ticks, marketId }: { orders: Loaded<OrderWithMarket[]>; ticks: ReadonlyMap<string, string>; marketId?: string }) {
  const { client, wallet } = useSession();
  const [busy, act] = useAction();
  if (!wallet) return null;

  const rows = orders.data ?? [];
  return (
    <section className="panel" aria-label="Open orders" data-testid="open-orders">
      <header className="panel-head">
        <h2>Open orders</h2>
        {rows.length > 0 && (
          <button type="button" disabled={busy} onClick={() => act(async () => {
            if (marketId) return `${(await client.orders.cancelMarket(marketId)).length} orders cancelled`;
            return `Orders cancelled in ${counted((await client.orders.cancelAll()).clearedMarkets.length, 'market')}`;
          })}>Cancel all</button>
        )}
      </header>
      {rows.length === 0 ? <p className="muted">No open orders.</p> : (
        <table>
          <thead><tr>{!marketId && <th scope="col">Market</th>}<th scope="col">Side</th><th scope="col" className="num">Price</th><th scope="col" className="num">Filled</th><th scope="col" /></tr></thead>
          <tbody>
            {rows.map((order) => {
              const what = `${order.side === 0 ? 'Buy' : 'Sell'} ${order.outcome}`;
              const price = cents(String(order.price), ticks.get(order.market));
              return (
              <tr key={order.id}>
                {!marketId && <td><Link to={marketPath(order.marketInfo.slug)}>{order.marketInfo.title}</Link></td>}
                <td className={order.side === 0 ? 'up' : 'down'}>
                  {what}
                  {order.expiration > 0 && <small className="muted" data-testid="order-expires"> until {until(order.expiration)}</small>}
                </td>
                <td className="num">{price}</td>
                <td className="num">{shares(String(order.matchedAmount))} / {shares(String(order.amount))}</td>
                {/* Named by its order: a screen reader's list of buttons said "Cancel" once per row. */}
                <td><button type="button" className="ghost" disabled={busy} aria-label={`Cancel ${what} at ${price}${marketId ? '' : `: ${order.marketInfo.title}`}`} onClick={() => act(async () => describeOrder(await client.orders.cancel(order.id), ticks.get(order.market)))}>Cancel</button></td>
              </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** When a good-till-date order expires (Unix seconds): the time today, else the day and time. */
function until(expirationSec: number): string {
  const at = new Date(expirationSec * 1000);
  const today = at.toDateString() === new Date().toDateString();
  return at.toLocaleString(undefined, today ? { timeStyle: 'short' } : { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}
