import type { FastifyBaseLogger } from 'fastify';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startMarketMaker } from '../../examples/market-maker.ts';
import { runTakerBot } from '../../examples/taker-bot.ts';
import { createClient, parseUnits, type ExchangeClient } from '../client/index.ts';
import { openingPrice } from './demo.ts';
import { DemoRewards } from './demo-rewards.ts';

/**
 * The demo's liquidity (`npm run demo`) is the examples' own programs, as any bot author would run
 * them: one market maker per ACTIVE market (examples/market-maker.ts) and a taker bot
 * (examples/taker-bot.ts) that now and then takes a quote, so the makers lean, books move and
 * trades flow for a newcomer watching REST or Socket.IO. Both are SDK clients of the demo server,
 * signed in with wallets derived from fixed strings (demo only) and funded by the operator.
 */
const FUNDING = '1000000';
/** How often the demo looks for markets published since (the hourly series adds one each hour). */
const NEW_MARKET_SCAN_MS = 30_000;
/**
 * The taker bot's pause between two trades: a person's pace, not a load test. Each trade makes a
 * maker requote (a cancel and two signed orders), a settlement round and a few feed messages, so
 * this pause sets what the demo costs when nobody else trades: at 15 s, 5.6% of a core over its
 * first 2 minutes and 4.3% over 10 minutes on the 2-core machines, against 13.2% in the first minute
 * with a trade every 2 s (`npm run bench -- demo-idle`; at 2 s the demo reached 70% of a core after
 * 40 minutes).
 */
export const DEMO_TAKER_PAUSE_MS = 15_000;

export interface DemoMakers {
  stop(): Promise<void>;
}

export interface DemoMakerOptions {
  /** Pause between the taker bot's rounds. */
  pauseMs?: number;
  /** The server's time, which decides the reward pools' dates (a test's manual clock); the machine's otherwise. */
  nowMs?: () => number;
  /** Where the makers' and the taker's lines go (debug) and a stopped taker bot is reported (warn). */
  logger?: Pick<FastifyBaseLogger, 'warn' | 'debug'>;
}

export async function startDemoMakers(url: string, adminToken: string, options: DemoMakerOptions = {}): Promise<DemoMakers> {
  const admin = createClient({ baseUrl: url, credentials: { adminToken } });
  const [maker, takerClient] = await Promise.all([demoTrader(admin, url, 'pmx-demo-maker-1'), demoTrader(admin, url, 'pmx-demo-taker-1')]);
  const log = (line: string) => options.logger?.debug(line);
  const makers: { stop(): Promise<void> }[] = [];
  const served = new Set<string>();
  const rewards = new DemoRewards(admin);
  // One taker bot over every served market: a new market restarts it with the longer list, rather
  // than adding a bot (and its trades) per market published.
  let taker: { stop: AbortController; done: Promise<unknown> } | undefined;
  async function stopTaker(): Promise<void> {
    taker?.stop.abort();
    await taker?.done;
    taker = undefined;
  }

  /**
   * A maker and a taker bot on every ACTIVE market not served yet (series markets appear every
   * period), and the daily reward pools of the lasting ones (a new day's on the first scan of it).
   */
  async function serveNewMarkets(): Promise<void> {
    const fresh: { market: string; mid: string | undefined }[] = [];
    // Pools on the markets of events that last (a series' markets close within their period).
    const lasting: string[] = [];
    for await (const event of admin.events.all({ eventStatus: 'ACTIVE', limit: 100 })) {
      const active = event.markets.filter((m) => m.status === 'ACTIVE' && !m.isPaused);
      if (event.templateId === undefined) lasting.push(...active.map((m) => m.id));
      fresh.push(...active.filter((m) => !served.has(m.id)).map((m) => ({ market: m.id, mid: openingPrice(event, m) })));
    }
    await rewards.ensure(lasting, options.nowMs?.() ?? Date.now())
      .catch((error: unknown) => options.logger?.warn({ err: error }, 'demo: configuring reward pools failed'));
    if (fresh.length === 0) return;
    for (const { market } of fresh) served.add(market);
    const started = await Promise.all(fresh.map(({ market, mid }) => startMarketMaker(maker, { market, size: '25', log, ...(mid === undefined ? {} : { mid }) })));
    // A maker stops when its market resolves (its orders are cancelled and new ones refused).
    for (const m of started) m.done.catch((error: unknown) => options.logger?.debug({ err: error }, 'a demo market maker stopped'));
    makers.push(...started);
    await stopTaker();
    const stop = new AbortController();
    const done = runTakerBot(takerClient, { markets: [...served], size: '5', pauseMs: options.pauseMs ?? DEMO_TAKER_PAUSE_MS, signal: stop.signal, log })
      .catch((error: unknown) => options.logger?.debug({ err: error }, 'a demo taker bot stopped'));
    taker = { stop, done };
  }

  await serveNewMarkets();
  let scanning: Promise<void> | undefined;
  const scan = setInterval(() => {
    scanning ??= serveNewMarkets().catch((error: unknown) => options.logger?.warn({ err: error }, 'demo: serving new markets failed')).finally(() => { scanning = undefined; });
  }, NEW_MARKET_SCAN_MS);
  scan.unref();
  return {
    async stop() {
      clearInterval(scan);
      await scanning;
      await stopTaker();
      await Promise.allSettled(makers.map((m) => m.stop()));
    },
  };
}

/** A signed-in demo wallet with an API key and at least FUNDING/10 of collateral. */
async function demoTrader(admin: ExchangeClient, url: string, seed: string): Promise<ExchangeClient> {
  const account = privateKeyToAccount(keccak256(toHex(seed)));
  const client = createClient({ baseUrl: url, account });
  await client.auth.signIn();
  await client.auth.createApiKey();
  const available = parseUnits((await client.account.balance()).collateral.available) ?? 0n;
  if (available < parseUnits(FUNDING)! / 10n) await admin.admin.credit(account.address, FUNDING);
  // Quotes an earlier run left behind when it did not stop cleanly.
  await client.orders.cancelAll();
  return client;
}
