import { useCallback, useState, type FormEvent } from 'react';
import type { Event, Market } from '../../../client/index.ts';
import { outcomePrices } from '../components/EventCard.tsx';
import { OpenOrders } from '../components/OpenOrders.tsx';
import { OrderBook } from '../components/OrderBook.tsx';
import { OrderTicket } from '../components/OrderTicket.tsx';
import { PriceChart } from '../components/PriceChart.tsx';
import { RecentTrades } from '../components/RecentTrades.tsx';
import { PriceTarget } from '../components/PriceTarget.tsx';
import { Rules } from '../components/Rules.tsx';
import { centsOf, errorText, shares, usd } from '../format.ts';
import { useLoad } from '../load.ts';
import { Link, useTitle } from '../router.tsx';
import { useAction } from '../action.ts';
import { useSession } from '../session.ts';

export default function MarketPage({ slug }: { slug: string }) {
  const { client } = useSession();
  const loaded = useLoad(async () => {
    const market = await client.markets.get(slug);
    const [event, volume] = await Promise.all([client.events.get(market.eventId), client.markets.volume(market.id)]);
    return { market: { ...market, tradeVolumeUsd: volume.tradeVolumeUsd, tradeVolumeUsd24h: volume.tradeVolumeUsd24h }, event };
  }, [client, slug]);
  useTitle(loaded.data?.market.name ?? '');
  if (loaded.error) return <p className="error" role="alert">{errorText(loaded.error)}</p>;
  if (!loaded.data) return <p className="muted" role="status">Loading…</p>;
  return <MarketView market={loaded.data.market} event={loaded.data.event} />;
}

function MarketView({ market, event }: { market: Market; event: Event }) {
  const { client } = useSession();
  const [outcome, setOutcome] = useState<0 | 1>(0);
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const [trades, setTrades] = useState(0);
  const countTrade = useCallback(() => setTrades((count) => count + 1), []);
  const prices = outcomePrices(market);
  const tokenId = outcome === 0 ? market.tokenId1 : market.tokenId2;
  return (
    <div className="market-layout">
      <div className="market-main">
        <header className="market-head">
          {event.markets.length > 1 && <Link to={`/event/${encodeURIComponent(event.slug)}`} className="muted">{event.name}</Link>}
          <h1>{market.name}</h1>
          <p className="muted num">
            {market.outcome1} {centsOf(prices[0])} · {market.outcome2} {centsOf(prices[1])} · {usd(market.tradeVolumeUsd)} volume
            {market.isPaused && <span className="badge warn">paused</span>}
            {market.status === 'RESOLVED' && <span className="badge">resolved</span>}
          </p>
        </header>
        <PriceChart client={client} market={market} trades={trades} />
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
            {tokenId ? <OrderBook key={tokenId} client={client} tokenId={tokenId} onPick={setPicked} /> : <p className="muted">Not published yet.</p>}
          </section>
          <section className="panel" aria-label="Recent trades">
            <h2>Recent trades</h2>
            <RecentTrades client={client} market={market} onTrade={countTrade} />
          </section>
        </div>
        {market.priceTargetConfig && <PriceTarget market={market} config={market.priceTargetConfig} />}
        <Holders slug={market.slug} />
        <Rules market={market} event={event} />
      </div>
      <aside className="market-side">
        <OrderTicket market={market} outcome={outcome} onOutcome={setOutcome} price={picked} />
        <Position market={market} />
        <OpenOrders marketId={market.id} />
      </aside>
    </div>
  );
}

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
