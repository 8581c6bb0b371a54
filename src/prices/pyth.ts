import { priceFromMantissa } from '../core/prices.ts';
import { fetchJson, FeedError, joinUrl, MAX_PRICE_AGE_MS, type Observation, type PullFeed } from './feed.ts';

/**
 * Pyth price feed ids (https://docs.pyth.network/price-feeds/price-feeds) of the pairs the
 * exchange knows; another pair is refused as 'unsupported-pair'.
 */
export const PYTH_FEED_IDS: Readonly<Record<string, string>> = {
  'BTC/USD': 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43',
  'ETH/USD': 'ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace',
  'SOL/USD': 'ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d',
};

/**
 * Pyth's Hermes HTTP API at `baseUrl` (e.g. https://hermes.pyth.network):
 * `GET /v2/updates/price/latest?ids[]=<id>&parsed=true` and `GET /v2/updates/price/<unix seconds>`
 * (the first update at or after that second). Both answer `{binary, parsed: [{id, price: {price,
 * conf, expo, publish_time}, ema_price, metadata}]}`; the price is `price × 10^expo`.
 */
export function createPythFeed(baseUrl: string, nowMs: () => number): PullFeed {
  const idOf = (pair: string): string => {
    const id = PYTH_FEED_IDS[pair];
    if (!id) throw new FeedError('unsupported-pair', `Pyth: no feed id known for ${pair}`);
    return id;
  };
  const request = async (pair: string, path: string): Promise<Observation> => {
    const id = idOf(pair);
    const body = await fetchJson(joinUrl(baseUrl, `${path}?ids[]=${id}&parsed=true`), (status, answer) =>
      new FeedError(status === 404 ? 'unsupported-pair' : 'unavailable', `Pyth: HTTP ${status} ${typeof answer === 'string' ? answer : ''}`.trim()));
    return parseUpdate(body, id);
  };
  return {
    source: 'pyth',
    async latest(pair) {
      const observation = await request(pair, '/v2/updates/price/latest');
      if (nowMs() - observation.atMs > MAX_PRICE_AGE_MS) throw new FeedError('stale', `Pyth: ${pair} last published at ${new Date(observation.atMs).toISOString()}`);
      return observation;
    },
    async at(pair, atMs) {
      const observation = await request(pair, `/v2/updates/price/${Math.floor(atMs / 1000)}`);
      if (observation.atMs - atMs > MAX_PRICE_AGE_MS) throw new FeedError('stale', `Pyth: no ${pair} update near ${new Date(atMs).toISOString()}`);
      return observation;
    },
  };
}

function parseUpdate(body: unknown, id: string): Observation {
  const parsed = (body as { parsed?: unknown } | undefined)?.parsed;
  if (!Array.isArray(parsed)) throw new FeedError('bad-answer', 'Pyth: the answer has no parsed updates');
  const update = parsed.find((u) => typeof u === 'object' && u !== null && String((u as { id?: unknown }).id).replace(/^0x/, '') === id) as
    { price?: { price?: unknown; expo?: unknown; publish_time?: unknown } } | undefined;
  const price = update?.price;
  if (!price || typeof price.price !== 'string' || !/^-?\d{1,30}$/.test(price.price) || typeof price.expo !== 'number' || typeof price.publish_time !== 'number') {
    throw new FeedError('bad-answer', 'Pyth: the update lacks price, expo or publish_time');
  }
  const units = priceFromMantissa(BigInt(price.price), price.expo);
  if (units === undefined) throw new FeedError('bad-answer', `Pyth: unusable price ${price.price}e${price.expo}`);
  return { price: units, atMs: price.publish_time * 1000 };
}
