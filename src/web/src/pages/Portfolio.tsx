import type { UserActivity, UserPosition, UserPositionsPage } from '../../../client/index.ts';
import type { ReadableChain } from '../chain.ts';
import type { WalletOnChain } from '../chain-reads.ts';
import { OpenOrders, useOpenOrders } from '../components/OpenOrders.tsx';
import { PnlChart } from '../components/PnlChart.tsx';
import { Redeemable } from '../components/Redeemable.tsx';
import { TxLink } from '../components/TxLink.tsx';
import { WithdrawForm } from '../components/WithdrawForm.tsx';
import { activityPrice, cents, centsOf, describeBatch, money, shares, sharesOf, signedPercent, units, usd } from '../format.ts';
import { useLoad } from '../load.ts';
import { useTickSizes } from '../market-ticks.ts';
import { Link, marketPath, useTitle } from '../router.tsx';
import { useAction } from '../action.ts';
import { useSession } from '../session.ts';
import { type PositionValue, usePositionValues } from '../position-values.ts';
import { ONE } from '../price.ts';
import { useWalletOnChain } from '../wallet-on-chain.ts';

/**
 * The trader's account value and P&L, positions, open orders, activity, and the merge and redeem
 * batches; with a chain to read, the wallet's balances on chain beside the ledger's, and withdrawals.
 */
export default function PortfolioPage() {
  useTitle('Portfolio');
  const { wallet } = useSession();
  if (!wallet) return <section className="panel"><h1>Portfolio</h1><p>Sign in to see your positions, orders and activity.</p></section>;
  return <PortfolioView />;
}

function PortfolioView() {
  const { client, revision } = useSession();
  // One read of the positions for the summary's P&L and the table.
  const positions = useLoad(() => client.portfolio.positions({ limit: 100 }), [client, revision]);
  const rows = positions.data?.data ?? [];
  const { chain, onChain } = useWalletOnChain(rows.map((row) => row.tokenId));
  const values = usePositionValues(rows);
  const orders = useOpenOrders();
  const activity = useLoad(() => client.portfolio.activity({ limit: 50 }), [client, revision]);
  // Rows of many markets carry no tick: their markets' ticks, so each price shows as its market's page shows it.
  const ticks = useTickSizes(client, [...rows.map((row) => row.market_uuid), ...(orders.data ?? []).map((order) => order.market), ...(activity.data?.data ?? []).map((row) => row.id)]);
  return (
    <div className="stack">
      <Summary positions={positions.data} values={values} chain={chain} onChain={onChain} />
      <Positions rows={rows} values={values} ticks={ticks} chain={chain} onChain={onChain} />
      {chain && <WithdrawForm chain={chain} />}
      <div className="two">
        <Redeemable />
        <Mergeable />
      </div>
      <OpenOrders orders={orders} ticks={ticks} />
      <Activity rows={activity.data?.data ?? []} ticks={ticks} chain={chain} />
    </div>
  );
}

/**
 * Account value (cash, cash held by open orders, positions at the prices their market pages show:
 * position-values.ts) and P&L of the positions held (their value against what they cost, fees
 * included), which needs no display name. The P&L chart is public by display name (SPEC.md 4.8):
 * shown once there is one. With a chain, the collateral the wallet holds on chain is shown
 * beside, and a difference is explained.
 */
function Summary({ positions, values, chain, onChain }: {
  positions: UserPositionsPage | undefined; values: Map<string, PositionValue>; chain: ReadableChain | undefined; onChain: WalletOnChain | undefined;
}) {
  const { client, user, revision } = useSession();
  const data = useLoad(async () => {
    const [balance, value] = await Promise.all([client.account.balance(), client.portfolio.value()]);
    const pnl = user?.displayName ? await client.profiles.pnlHistory(user.displayName, 'ALL') : undefined;
    return { balance, value: units(value.value) ?? 0n, pnl };
  }, [client, user, revision]);
  const cash = units(data.data?.balance.collateral.balance);
  const pnl = positions ? positionsPnl(positions.data, values) : undefined;
  const value = positions && data.data ? positionsValue(positions, values, data.data.value) : undefined;
  return (
    <section className="panel" aria-label="Summary">
      <h1>Portfolio</h1>
      <dl className="stats num" data-testid="portfolio-summary">
        <div className="lead"><dt>Account value</dt><dd data-testid="account-value">{value !== undefined && cash !== undefined ? money(cash + value) : '—'}</dd></div>
        <div className="lead">
          <dt>P&amp;L of positions held</dt>
          <dd data-testid="pnl" className={pnl && pnl.gain < 0n ? 'down' : pnl && pnl.gain > 0n ? 'up' : undefined}>{pnl ? `${money(pnl.gain)}${pnl.cost > 0n ? ` (${signedPercent(pnl.gain, pnl.cost)})` : ''}` : '—'}</dd>
        </div>
        <div><dt>Positions value</dt><dd data-testid="positions-value">{value !== undefined ? money(value) : '—'}</dd></div>
        <div><dt>Cash available</dt><dd>{usd(data.data?.balance.collateral.available)}</dd></div>
        <div><dt>In open orders</dt><dd>{usd(data.data?.balance.collateral.locked)}</dd></div>
        {chain && <div><dt>Cash in your wallet on chain</dt><dd data-testid="cash-on-chain" title={`ERC-20 balance of ${chain.collateral} held by your wallet, read from chain ${chain.chainId}`}>{onChain ? money(onChain.collateral) : '—'}</dd></div>}
      </dl>
      {onChain && cash !== undefined && <CashInFlight ledger={cash} chain={onChain.collateral} />}
      {data.data?.pnl ? (
        <>
          <h2>All-time P&amp;L <span className="num">{usd(data.data.pnl.value)}</span></h2>
          <PnlChart history={data.data.pnl} />
        </>
      ) : <NoDisplayName />}
    </section>
  );
}

/**
 * The ledger's cash against the wallet's on chain, in words, when they differ. The ledger moves
 * when the exchange records something (a match, a credit, a withdrawal), the chain when its
 * transaction is mined, so a difference is usually funds in flight and goes away as trades
 * settle; one that lasts is a deposit the exchange has not indexed yet (src/chain/README.md,
 * "Balances from the chain": recorded once its block is confirmed), or a credit that never
 * reached the chain.
 */
function CashInFlight({ ledger, chain }: { ledger: bigint; chain: bigint }) {
  if (ledger === chain) return null;
  const gap = chain > ledger ? chain - ledger : ledger - chain;
  return (
    <p className="in-flight" data-testid="cash-in-flight" role="status">
      {chain > ledger
        ? `${money(gap)} more on chain than the exchange's ledger counts (${money(ledger)}): trades still settling on chain, or a deposit the exchange has not seen yet.`
        : `${money(gap)} less on chain than the exchange's ledger counts (${money(ledger)}): trades or credits not yet on chain.`}
    </p>
  );
}

/** What the listed positions gained against what they cost (`initial`), at the market pages' prices. */
function positionsPnl(rows: UserPosition[], values: Map<string, PositionValue>): { gain: bigint; cost: bigint } {
  return rows.reduce((total, row) => ({ gain: total.gain + (values.get(row.tokenId)?.gain ?? 0n), cost: total.cost + (units(row.initial) ?? 0n) }), { gain: 0n, cost: 0n });
}

/**
 * The positions' value at the market pages' prices. The page lists 100 positions; beyond them
 * (`total` says so) the rest count at the API's own value (its `value` less the listed rows'
 * `current`), the only figure there is for them.
 */
function positionsValue(positions: UserPositionsPage, values: Map<string, PositionValue>, apiValue: bigint): bigint {
  const listed = positions.data.reduce((sum, row) => sum + (values.get(row.tokenId)?.value ?? 0n), 0n);
  if (positions.total <= positions.data.length) return listed;
  return listed + apiValue - positions.data.reduce((sum, row) => sum + (units(row.current) ?? 0n), 0n);
}

/**
 * The P&L chart and the public profile are by display name (SPEC.md 4.8): the account page, where a
 * name is chosen, changed or cleared, shows them once there is one.
 */
function NoDisplayName() {
  return <p className="muted" data-testid="no-display-name">Choose a display name on <Link to="/account">your account page</Link> to see your P&amp;L chart and public profile.</p>;
}

/**
 * Held positions; with a chain, the shares the wallet holds on chain too, marked where they differ
 * from the ledger's. Avg and Now on the market's tick (`ticks` by market id): Now is the market
 * page's price, Avg an average, to a tenth of the tick (format.ts centsOf).
 */
function Positions({ rows, values, ticks, chain, onChain }: {
  rows: UserPosition[]; values: Map<string, PositionValue>; ticks: ReadonlyMap<string, string>; chain: ReadableChain | undefined; onChain: WalletOnChain | undefined;
}) {
  return (
    <section className="panel" aria-label="Positions" data-testid="positions">
      <h2>Positions</h2>
      {rows.length === 0 ? <p className="muted">No positions.</p> : (
        <table className="stacking">
          <thead><tr><th scope="col">Market</th><th scope="col">Outcome</th><th scope="col" className="num">Shares</th>{chain && <th scope="col" className="num" title="ConditionalTokens balance of your wallet, read from the chain">On chain</th>}<th scope="col" className="num">Avg</th><th scope="col" className="num" title={NOW}>Now</th><th scope="col" className="num">Value</th><th scope="col" className="num">P&amp;L</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.tokenId}>
                <td data-label="Market">{row.slug ? <Link to={marketPath(row.slug)}>{row.title ?? row.slug}</Link> : row.title}</td>
                <td data-label="Outcome">{row.outcome}{row.status === 'RESOLVED' && <Settled latest={row.latest} />}</td>
                <td data-label="Shares" className="num">{shares(row.amount)}</td>
                {chain && <td data-label="On chain" className="num"><TokensOnChain ledger={row.amount} chain={onChain?.tokens.get(row.tokenId)} /></td>}
                <td data-label="Avg" className="num">{cents(row.acquisitionPrice, ticks.get(row.market_uuid))}</td>
                <PositionFigures value={values.get(row.tokenId)} tickSize={ticks.get(row.market_uuid)} />
                <td className="actions-cell">
                  {row.slug && row.status !== 'RESOLVED' && (
                    <Link to={`${marketPath(row.slug)}?side=sell&token=${row.tokenId}&shares=${row.amount}`} className="button sell">Sell</Link>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows.length > 0 && <p className="muted">Now: {NOW}.</p>}
    </section>
  );
}

/** What the Now column shows. */
const NOW = "The price its market's page shows: the midpoint of the best bid and ask, or the last trade when the spread is wider than 10¢; once resolved, what a share redeems for";

/** A position's price now (on its market's tick), value and P&L, at its market page's price. */
function PositionFigures({ value, tickSize }: { value: PositionValue | undefined; tickSize: string | undefined }) {
  if (!value) return <><td data-label="Now" className="num">—</td><td data-label="Value" className="num">—</td><td data-label="P&L" className="num">—</td></>;
  return (
    <>
      <td data-label="Now" className="num" data-testid="position-now">{centsOf(value.price, tickSize)}</td>
      <td data-label="Value" className="num" data-testid="position-value">{money(value.value)}</td>
      <td data-label="P&L" className={`num ${value.gain < 0n ? 'down' : 'up'}`}>{money(value.gain)}</td>
    </>
  );
}

/** How a resolved market's position ended: its shares redeem for `latest` (1, 0, or 0.5 on a tie). */
function Settled({ latest }: { latest: string }) {
  const pays = units(latest);
  if (pays === 0n) return <span className="badge" data-testid="position-lost" title="These shares redeem for nothing">lost</span>;
  return <span className="badge" title="Redeem them under Redeemable">{pays === ONE ? 'won' : 'tie'}</span>;
}

/** A position's shares on chain, flagged when the ledger counts otherwise (a trade settling, most often). */
function TokensOnChain({ ledger, chain }: { ledger: string; chain: bigint | undefined }) {
  if (chain === undefined) return <>—</>;
  const differs = units(ledger) !== chain;
  return (
    <span data-testid="tokens-on-chain" className={differs ? 'in-flight-value' : undefined} title={differs ? 'Differs from the ledger: settling on chain' : undefined}>
      {sharesOf(chain)}{differs && <span className="sr-only"> (settling on chain)</span>}
    </span>
  );
}

/** Markets where both outcomes are held: merged back into collateral, one by one or all at once. */
function Mergeable() {
  const { client, revision } = useSession();
  const [busy, act] = useAction();
  const mergeable = useLoad(() => client.portfolio.mergeable(), [client, revision]);
  const rows = mergeable.data ?? [];
  const merge = (ids: string[]) => act(async () => describeBatch('Merge', await client.portfolio.mergeMany(ids)));
  return (
    <section className="panel" aria-label="Mergeable" data-testid="mergeable">
      <header className="panel-head">
        <h2>Mergeable</h2>
        {rows.length > 0 && <button type="button" className="primary" disabled={busy} onClick={() => merge(rows.map((r) => r.marketId))}>Merge all</button>}
      </header>
      {rows.length === 0 ? <p className="muted">None.</p> : (
        <ul className="plain">
          {rows.map((row) => (
            <li key={row.marketId}>
              <Link to={marketPath(row.slug)}>{row.name}</Link>
              <button type="button" disabled={busy} onClick={() => merge([row.marketId])}>Merge</button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The trader's trades, splits, merges and redeems, each with its transaction (a link to it when the
 * chain can be read); a trade's price on its market's tick (`ticks` by market id, a row's `id`).
 */
function Activity({ rows, ticks, chain }: { rows: UserActivity[]; ticks: ReadonlyMap<string, string>; chain: ReadableChain | undefined }) {
  return (
    <section className="panel" aria-label="Activity" data-testid="activity">
      <h2>Activity</h2>
      {rows.length === 0 ? <p className="muted">Nothing yet.</p> : (
        <table className="stacking">
          <thead><tr><th scope="col">When</th><th scope="col">Type</th><th scope="col">Market</th><th scope="col" className="num">Amount</th><th scope="col" className="num">Price</th><th scope="col">Transaction</th></tr></thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.hash}${row.type}${row.outcomeIndex ?? ''}`}>
                <td data-label="When" className="muted">{new Date(row.timestamp * 1000).toLocaleString()}</td>
                <td data-label="Type">{row.type}{row.outcomeIndex !== undefined ? ` ${row.outcomeIndex === 0 ? row.outcome1 : row.outcome2}` : ''}</td>
                <td data-label="Market"><Link to={marketPath(row.slug)}>{row.name}</Link></td>
                <td data-label="Amount" className="num">{shares(String(row.amount))}</td>
                <td data-label="Price" className="num">{activityPrice(row.type, row.price, ticks.get(row.id))}</td>
                <td data-label="Transaction"><TxLink hash={row.hash} chain={chain} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
