import type { Event, Market } from '../../../client/index.ts';
import { centsOf, money, percent, units, usd } from '../format.ts';
import { likeliestFirst, ONE } from '../price.ts';
import { Link, marketPath } from '../router.tsx';

/** A sum of USD decimal strings, exact. */
export function sumUsd(values: (string | undefined)[]): bigint {
  return values.reduce((total, value) => total + (units(value) ?? 0n), 0n);
}

export const eventPath = (event: Event) => (event.markets.length === 1 ? marketPath(event.markets[0]!.slug) : `/event/${encodeURIComponent(event.slug)}`);

/**
 * One event on the home page: a single market shows both outcome prices; a negRisk or
 * multi-market event shows one line per candidate or question, as one card. `priceOf` is outcome
 * 1's current price (price.ts), the one the market's and the event's pages show.
 */
export function EventCard({ event, priceOf }: { event: Event; priceOf: (market: Market) => bigint }) {
  const volume24h = sumUsd(event.markets.map((market) => market.tradeVolumeUsd24h));
  const ranked = likeliestFirst(event.markets, priceOf);
  const single = ranked.length === 1 ? ranked[0] : undefined;
  return (
    <article className="card" data-testid="event-card">
      <header>
        <div className="chips">
          {event.categories.map((category) => <span key={category.id} className="chip small">{category.name}</span>)}
          {event.negRisk && <span className="chip small" title="Exactly one market resolves YES">one winner</span>}
        </div>
        <h2><Link to={eventPath(event)}>{event.name}</Link></h2>
      </header>
      {single ? (
        <div className="outcomes">
          {[single.price, ONE - single.price].map((price, index) => {
            const { market } = single;
            const outcome = index === 0 ? market.outcome1 : market.outcome2;
            const token = index === 0 ? market.tokenId1 : market.tokenId2;
            // Named with its market: a list of cards read "Yes 40¢, No 60¢" over and over, saying not which.
            // The market page opens on that outcome (`?token=`), as the name says.
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the index is the outcome (0 or 1), which is what the key names
              <Link key={index} to={`${marketPath(market.slug)}${token ? `?token=${token}` : ''}`} className={`outcome ${index === 0 ? 'yes' : 'no'}`} aria-label={`Buy ${outcome} on ${market.name} at ${centsOf(price, market.tickSize)}`}>
                <span>{outcome}</span>
                <span className="num">{centsOf(price, market.tickSize)}</span>
              </Link>
            );
          })}
        </div>
      ) : (
        <ul className="candidates">
          {ranked.slice(0, 4).map(({ market, price }) => (
            <li key={market.id}>
              <Link to={marketPath(market.slug)}>{market.name}</Link>
              <span className="num">{percent(price)}</span>
            </li>
          ))}
          {event.markets.length > 4 && <li className="muted">+{event.markets.length - 4} more</li>}
        </ul>
      )}
      <footer className="muted num">
        <span>{money(volume24h)} 24h vol.</span>
        <span>{usd(event.liquidity)} liq.</span>
      </footer>
    </article>
  );
}
