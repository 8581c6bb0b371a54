import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { Event, Market } from '../../../client/index.ts';
import { AwaitingResolution } from '../components/AwaitingResolution.tsx';
import { BuyBar } from '../components/BuyBar.tsx';
import { MarketHeadline } from '../components/MarketHeadline.tsx';
import { OpenOrders, useOpenOrders } from '../components/OpenOrders.tsx';
import { OrderBook } from '../components/OrderBook.tsx';
import { OrderTicket } from '../components/OrderTicket.tsx';
import { PriceChart } from '../components/PriceChart.tsx';
import { RecentTrades } from '../components/RecentTrades.tsx';
import { PriceTarget } from '../components/PriceTarget.tsx';
import { Rules } from '../components/Rules.tsx';
import { money, shares, usd } from '../format.ts';
import { onLiveTick, useBookWatcher } from '../live-book.ts';
import { TRADES_KEPT, useTrades } from '../live-trades.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { useLoad } from '../load.ts';
import { ownLevels } from '../own-orders.ts';
import { livePrice, ONE } from '../price.ts';
import { resolvedOf, type Resolved } from '../resolved.ts';
import { hasEnded, useResolution } from '../resolution.ts';
import { Link, useTitle } from '../router.tsx';
import { useAction } from '../action.ts';
import { useSession } from '../session.ts';

export default function MarketPage({ slug }: { slug: string }) {
  const { client } = useSession();
  const loaded = useLoad(async () => {
    const market = await client.markets.get(slug);
    return { market, event: await client.events.get(market.eventId) };
  }, [client, slug]);
  useTitle(loaded.data?.market.name ?? '');
  if (loaded.error) return <LoadFailed what="Market" error={loaded.error} />;
  if (!loaded.data) return <p className="muted" role="status">Loading…</p>;
  return <MarketView market={loaded.data.market} event={loaded.data.event} onResolved={loaded.reload} />;
}

/**
 * One market, live: the book (both tokens, one watcher), the trades and the trader's open orders
 * are held here, so the headline, chart, book, ticket and trades list all read the same current
 * price (price.ts) and the same book. Its oracle question is asked again while it is unresolved
 * (resolution.ts); once the oracle says RESOLVED, `onResolved` reads the market again, and the
 * page turns into the resolved market's.
 */
function MarketView({ market: read, event, onResolved }: { market: Market; event: Event; onResolved: () => void }) {
  const { client } = useSession();
  // The portfolio's Sell opens the page on the position's token (`?token=`).
  const [outcome, setOutcome] = useState<0 | 1>(() => (new URLSearchParams(location.search).get('token') === read.tokenId2 ? 1 : 0));
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const { tokenId1, tokenId2 } = read;
  // A resolved market's book is gone (the server refuses its subscription): nothing to watch.
  const resolved = resolvedOf(read);
  const awaiting = !resolved && hasEnded(read, event);
  const resolution = useResolution(read.id, !resolved, awaiting);
  const oracleResolved = resolution.data?.status === 'RESOLVED';
  useEffect(() => {
    if (oracleResolved && !resolved) onResolved();
  }, [oracleResolved, resolved, onResolved]);
  const { watcher } = useBookWatcher(client, tokenId1 && tokenId2 && !resolved ? [tokenId1, tokenId2] : []);
  const market = onLiveTick(read, watcher);
  const trades = useTrades(client, market.eventId, market.id);
  const orders = useOpenOrders(market.id);
  // A resolved market's price is what its shares redeem for.
  const live = tokenId1 ? livePrice(market, watcher?.bestBid(tokenId1), watcher?.bestAsk(tokenId1), trades) : livePrice(market, undefined, undefined, trades);
  const price = resolved?.payout1 ?? live;
  const prices = [price, ONE - price];
  const tokenId = outcome === 0 ? tokenId1 : tokenId2;
  const own = useMemo(() => (tokenId ? ownLevels(orders.data ?? [], tokenId) : new Map<string, bigint>()), [orders.data, tokenId]);
  const latestTrade = trades[0]?.id;
  // The phone's Buy bar: the ticket on Buy of that outcome, scrolled into view.
  const [buyRequest, setBuyRequest] = useState(0);
  const buy = (chosen: 0 | 1) => {
    setOutcome(chosen);
    setBuyRequest((count) => count + 1);
    document.getElementById('order-ticket')?.scrollIntoView({ block: 'start' });
  };
  return (
    <div className="market-layout">
      <div className="market-main">
        <MarketHeadline market={market} event={event} price={price} resolved={resolved} awaiting={awaiting} latestTrade={latestTrade} />
        {tokenId1 && tokenId2 && (
          <PriceChart
            client={client}
            lines={[{ tokenId: tokenId1, label: market.outcome1, color: '--yes' }, { tokenId: tokenId2, label: market.outcome2, color: '--no' }]}
            current={prices}
            tickSize={market.tickSize}
            since={market.firstPriceDataAt}
            refresh={latestTrade}
          />
        )}
        <div className="two">
          <section className="panel" aria-label="Order book">
            <header className="panel-head">
              <h2>Order book</h2>
              <div className="segmented small" role="group" aria-label="Book of outcome">
                {[market.outcome1, market.outcome2].map((label, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the index is the outcome (0 or 1), which is what the key names
                  <button key={label + index} type="button" aria-pressed={outcome === index} onClick={() => setOutcome(index as 0 | 1)}>{label}</button>
                ))}
              </div>
            </header>
            {resolved ? <p className="muted">Trading ended: resolved to {resolved.label}.</p>
              : tokenId ? <OrderBook depth={watcher?.depth(tokenId, BOOK_LEVELS)} current={prices[outcome]!} tickSize={market.tickSize} own={own} onPick={setPicked} />
              : <p className="muted">Not published yet.</p>}
          </section>
          <section className="panel" aria-label="Recent trades">
            <h2>Recent trades <small className="muted">last {TRADES_KEPT}</small></h2>
            <RecentTrades market={market} trades={trades} />
          </section>
        </div>
        {market.priceTargetConfig && <PriceTarget market={market} config={market.priceTargetConfig} />}
        <Holders slug={market.slug} />
        <Rules market={market} event={event} resolution={resolution} />
      </div>
      <aside className="market-side">
        {awaiting && <AwaitingResolution market={market} event={event} resolution={resolution.data} />}
        {resolved ? <ResolvedPanel market={market} resolved={resolved} />
          : <OrderTicket market={market} outcome={outcome} onOutcome={setOutcome} price={picked} book={tokenId ? watcher?.depth(tokenId, TICKET_LEVELS) : undefined} prices={prices} buyRequest={buyRequest} />}
        <Position market={market} />
        <OpenOrders orders={orders} ticks={new Map([[market.id, market.tickSize]])} marketId={market.id} />
      </aside>
      <BuyBar market={market} prices={prices} onBuy={buy} />
    </div>
  );
}

/** In the ticket's place once the market resolved: what each outcome's shares redeem for, and where. */
function ResolvedPanel({ market, resolved }: { market: Market; resolved: Resolved }) {
  const { wallet } = useSession();
  return (
    <section className="panel" aria-label="Resolved" data-testid="market-resolved">
      <h2>Resolved: {resolved.label}</h2>
      <p>
        A {market.outcome1} share redeems for {money(resolved.payout1)}, a {market.outcome2} share for {money(ONE - resolved.payout1)}.
        {wallet && <> Redeem yours from <Link to="/portfolio">your portfolio</Link>.</>}
      </p>
    </section>
  );
}

/** Levels the book shows a side; the ticket's market-order estimate walks deeper. */
const BOOK_LEVELS = 10;
const TICKET_LEVELS = 100;

/** The trader's shares in this market, and split: collateral into one of each outcome. */
function Position({ market }: { market: Market }) {
  const { client, wallet, revision } = useSession();
  const [amountText, setAmountText] = useState('');
  const [busy, run] = useAction();
  const balance = useLoad(() => (wallet ? client.account.balance() : Promise.resolve(undefined)), [client, wallet, revision]);
  if (!wallet) return null;
  const held = balance.data?.tokens.filter((token) => token.marketId === market.id && token.balance !== '0') ?? [];
  const split = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await client.markets.split(market.id, amountText);
      setAmountText('');
      return `Split ${usd(answer.amount)} into ${shares(answer.amount)} ${market.outcome1} and ${market.outcome2}`;
    });
  };
  return (
    <section className="panel" aria-label="Your position" data-testid="market-position">
      <h2>Your shares</h2>
      {held.length === 0 ? <p className="muted">None yet.</p> : (
        <ul className="plain">
          {held.map((token) => <li key={token.tokenId}><span>{token.outcome}</span> <span className="num">{shares(token.balance)}</span></li>)}
        </ul>
      )}
      {market.status === 'ACTIVE' && (
        <form className="inline" onSubmit={split}>
          <label>Split USDC into both outcomes <input name="split" inputMode="decimal" value={amountText} onChange={(e) => setAmountText(e.target.value.trim())} required /></label>
          <button type="submit" disabled={busy}>Split</button>
        </form>
      )}
    </section>
  );
}

function Holders({ slug }: { slug: string }) {
  const { client, revision } = useSession();
  const holders = useLoad(() => client.markets.holders(slug, { limit: 10 }), [client, slug, revision]);
  if (!holders.data) return null;
  const sides = [holders.data.outcome1, holders.data.outcome2];
  return (
    <section className="panel" aria-label="Holders">
      <h2>Top holders</h2>
      <div className="two">
        {sides.map((side) => (
          <div key={side.label}>
            <h3>{side.label}</h3>
            {side.holders.length === 0 ? <p className="muted">Nobody yet.</p> : (
              <ol className="plain">
                {side.holders.map((holder) => (
                  <li key={holder.userId}>
                    <span>{holder.name && !holder.anonymous ? <Link to={`/profile/${encodeURIComponent(holder.name)}`}>{holder.name}</Link> : holder.walletShort ?? 'Anonymous'}</span>
                    <span className="num">{shares(String(holder.shares))}</span>
                  </li>
                ))}
              </ol>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}
