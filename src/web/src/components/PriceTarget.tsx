import { useEffect, useState } from 'react';
import type { Market } from '../../../client/index.ts';
import { date, group } from '../format.ts';
import { useLoad } from '../load.ts';
import { useSession } from '../session.ts';

/** How often the live reference price is asked for again. */
const REFERENCE_REFRESH_MS = 5_000;

type PriceTargetConfig = NonNullable<Market['priceTargetConfig']>;

/**
 * A price-target market's terms (EXTENSIONS.md section 13): the target, the live reference price
 * of its pair, and the countdown to the moment the outcome is proposed from the feed.
 */
export function PriceTarget({ market, config }: { market: Market; config: PriceTargetConfig }) {
  const { client } = useSession();
  const now = useNow();
  const [refresh, setRefresh] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setRefresh((n) => n + 1), REFERENCE_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  // 404 while the feed has no price for the pair yet: shown as unknown, not as an error.
  const reference = useLoad(() => client.prices.reference(config.pair).catch(() => undefined), [client, config.pair, refresh]);
  const resolveMs = Date.parse(config.resolveAt);
  return (
    <section className="panel" aria-label="Price target" data-testid="price-target">
      <h2>Price target</h2>
      <p className="prose">
        {market.outcome1} if {config.pair} at {date(config.resolveAt)} is at or above the target, else {market.outcome2}.
      </p>
      <dl className="facts">
        <dt>Target</dt>
        <dd className="num" data-testid="target-price">{config.targetPrice !== null ? priceText(config.targetPrice) : `the price at ${date(config.targetAt)}, once known`}</dd>
        <dt>Reference price</dt>
        <dd className="num" data-testid="reference-price">{reference.data ? `${priceText(reference.data.price)} (${reference.data.source}, ${date(reference.data.at)})` : '—'}</dd>
        <dt>Resolves</dt>
        <dd className="num" data-testid="resolves-in">{resolveMs > now ? `in ${countdown(resolveMs - now)}` : `at ${date(config.resolveAt)}`}</dd>
      </dl>
    </section>
  );
}

/** The current time, ticking every second while mounted. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A reference price string ("97123.45") with grouped thousands, as given (no float). */
function priceText(price: string): string {
  const [whole = '', fraction] = price.split('.');
  return `${group(whole)}${fraction ? `.${fraction}` : ''}`;
}

/** "1h 02m 05s", "4m 09s", "12s". */
function countdown(ms: number): string {
  const total = Math.floor(ms / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}h ${pad(m)}m ${pad(s)}s` : m > 0 ? `${m}m ${pad(s)}s` : `${s}s`;
}
