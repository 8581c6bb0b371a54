import type { Event, Market } from '../../../client/index.ts';
import { centsOf, percent, usd } from '../format.ts';
import { useLoad } from '../load.ts';
import { ONE } from '../price.ts';
import type { Resolved } from '../resolved.ts';
import { Link } from '../router.tsx';
import { useSession } from '../session.ts';

/**
 * The market's headline: its name, the "% chance" of outcome 1 in large type (once resolved, the
 * outcome it resolved to), both outcome prices (then what their shares redeem for) and the traded volume. `price` is the page's one current price (price.ts), live; the
 * volume is asked again whenever `latestTrade` (the newest trade's id) changes. A market past its
 * end date and not resolved (`awaiting`) says so beside its chance.
 */
export function MarketHeadline({ market, event, price, resolved, awaiting, latestTrade }: {
  market: Market; event: Event; price: bigint; resolved: Resolved | undefined; awaiting: boolean; latestTrade: string | undefined;
}) {
  const { client } = useSession();
  const volume = useLoad(() => client.markets.volume(market.id), [client, market.id, latestTrade]);
  return (
    <header className="market-head">
      {event.markets.length > 1 && <Link to={`/event/${encodeURIComponent(event.slug)}`} className="muted">{event.name}</Link>}
      <h1>{market.name}</h1>
      <p className="headline">
        {resolved ? <strong data-testid="resolved-to">Resolved: {resolved.label}</strong> : <><strong className="num" data-testid="chance">{percent(price)}</strong> chance</>}
        {awaiting && <span className="badge warn" data-testid="awaiting-badge">ended · awaiting resolution</span>}
        {market.isPaused && <span className="badge warn">paused</span>}
      </p>
      <p className="muted num" data-testid="market-stats">
        {market.outcome1} {centsOf(price, market.tickSize)} · {market.outcome2} {centsOf(ONE - price, market.tickSize)} · {usd(volume.data?.tradeVolumeUsd ?? market.tradeVolumeUsd)} Vol.
      </p>
    </header>
  );
}
