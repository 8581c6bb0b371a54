import { parsePrice } from '../core/prices.ts';
import { fetchJson, FeedError, joinUrl, MAX_PRICE_AGE_MS, type PullFeed } from './feed.ts';

const MINUTE_MS = 60_000;
/** Binance's code for an unknown symbol (HTTP 400 `{"code": -1121, "msg": "Invalid symbol."}`). */
const INVALID_SYMBOL = -1121;

/** BTC/USD → BTCUSDT: Binance quotes dollars in USDT; other quotes are used as written. */
export const binanceSymbol = (pair: string): string => {
  const [base, quote] = pair.split('/') as [string, string];
  return `${base}${quote === 'USD' ? 'USDT' : quote}`;
};

/**
 * Binance's public klines at `baseUrl` (e.g. https://api.binance.com):
 * `GET /api/v3/klines?symbol=BTCUSDT&interval=1m&limit=1[&startTime=ms]`, each kline an array
 * `[openTime, open, high, low, close, volume, closeTime, …]` with prices as decimal strings.
 * Latest: the current minute's close, at the answer's time (now, or the close time of an ended
 * kline). At T: the open of the minute that starts at or before T, at that minute's start.
 */
export function createBinanceFeed(baseUrl: string, nowMs: () => number): PullFeed {
  const klines = async (pair: string, query: string): Promise<unknown[]> => {
    const body = await fetchJson(joinUrl(baseUrl, `/api/v3/klines?symbol=${binanceSymbol(pair)}&interval=1m&limit=1${query}`), (status, answer) => {
      const code = (answer as { code?: unknown } | undefined)?.code;
      const message = (answer as { msg?: unknown } | undefined)?.msg;
      return new FeedError(code === INVALID_SYMBOL ? 'unsupported-pair' : 'unavailable', `Binance: HTTP ${status} ${typeof message === 'string' ? message : ''}`.trim());
    });
    if (!Array.isArray(body)) throw new FeedError('bad-answer', 'Binance: klines are not an array');
    const [kline] = body;
    if (kline === undefined) throw new FeedError('stale', `Binance: no kline of ${pair}`);
    if (!Array.isArray(kline) || typeof kline[0] !== 'number' || typeof kline[6] !== 'number') throw new FeedError('bad-answer', 'Binance: malformed kline');
    return kline;
  };
  const price = (value: unknown): bigint => {
    const units = typeof value === 'string' ? parsePrice(value) : undefined;
    if (units === undefined) throw new FeedError('bad-answer', `Binance: unusable price ${String(value)}`);
    return units;
  };
  return {
    source: 'binance',
    async latest(pair) {
      const kline = await klines(pair, '');
      const now = nowMs();
      const openTime = kline[0] as number;
      if (now - openTime > MAX_PRICE_AGE_MS + MINUTE_MS) throw new FeedError('stale', `Binance: ${pair} last kline opened at ${new Date(openTime).toISOString()}`);
      return { price: price(kline[4]), atMs: Math.min(now, (kline[6] as number) + 1) };
    },
    async at(pair, atMs) {
      const minute = Math.floor(atMs / MINUTE_MS) * MINUTE_MS;
      const kline = await klines(pair, `&startTime=${minute}`);
      if (kline[0] !== minute) throw new FeedError('stale', `Binance: no ${pair} kline for the minute of ${new Date(atMs).toISOString()}`);
      return { price: price(kline[1]), atMs: minute };
    },
  };
}
