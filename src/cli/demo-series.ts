import type { FastifyBaseLogger } from 'fastify';
import { createClient, ExchangeError, type ExchangeClient, type Template } from '../client/index.ts';

/**
 * The demo's recurring series (`npm run demo`): "BTC/USD up or down" every hour on the manual
 * price feed, with a small random walk of BTC/USD posted by the demo itself, so markets open
 * (one per hour, the next one published ahead), trade, and resolve by the feed's price while
 * someone watches. A short dispute window (5 minutes) lets resolution follow soon after the hour.
 */
export const DEMO_SERIES_SLUG = 'demo-btc-usd-hourly';
const HOUR_MS = 3_600_000;
const START_PRICE_CENTS = 9_700_000n;
/** The walk moves at most this many cents per step, either way. */
const STEP_CENTS = 2_500;
const WALK_INTERVAL_MS = 5_000;

/** The demo template, made when missing; its first period is the current hour, so a market opens at once. */
export async function seedDemoSeries(admin: ExchangeClient, serverTime: number, ids: { crypto: string; bitcoin: string }): Promise<{ template: Template; seeded: boolean }> {
  const existing = (await admin.admin.templates.list()).find((t) => t.slug === DEMO_SERIES_SLUG);
  if (existing) return { template: existing, seeded: false };
  const firstStart = Math.floor(serverTime / HOUR_MS) * HOUR_MS;
  // The current market's target is the price at the hour's start: give the walk somewhere to begin.
  await admin.admin.postPrice({ pair: 'BTC/USD', price: formatCents(START_PRICE_CENTS), at: new Date(firstStart).toISOString() });
  const template = await admin.admin.templates.create({
    name: 'BTC/USD up or down, hourly',
    slug: DEMO_SERIES_SLUG,
    description: 'Up if the BTC/USD reference price at the end of the hour is at or above its price at the start of the hour, else Down.',
    pair: 'BTC/USD',
    period: '1h',
    firstStart: new Date(firstStart).toISOString(),
    lead: 1,
    displayTimezone: 'America/New_York',
    categories: [ids.crypto],
    tags: [ids.bitcoin],
    liveness: 300,
  });
  return { template, seeded: true };
}

export interface PriceWalk {
  stop(): Promise<void>;
}

/** Posts a new BTC/USD price every few seconds, a random step from the last known one. */
export async function startDemoPriceWalk(url: string, adminToken: string, options: { intervalMs?: number; logger?: Pick<FastifyBaseLogger, 'warn'> } = {}): Promise<PriceWalk> {
  const admin = createClient({ baseUrl: url, credentials: { adminToken } });
  let cents = await lastCents(admin);
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    cents += BigInt(Math.round((Math.random() * 2 - 1) * STEP_CENTS));
    if (cents < 100n) cents = 100n;
    running = admin.admin.postPrice({ pair: 'BTC/USD', price: formatCents(cents) })
      .catch((error: unknown) => options.logger?.warn({ err: error }, 'demo price walk: post failed'))
      .finally(() => { running = undefined; });
  }, options.intervalMs ?? WALK_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

async function lastCents(client: ExchangeClient): Promise<bigint> {
  try {
    const [whole, fraction = ''] = (await client.prices.reference('BTC/USD')).price.split('.');
    return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  } catch (error) {
    if (error instanceof ExchangeError && error.status === 404) return START_PRICE_CENTS;
    throw error;
  }
}

const formatCents = (cents: bigint): string => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
