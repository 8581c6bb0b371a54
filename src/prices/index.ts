import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Metric } from 'prom-client';
import { badRequest, notFound } from '../contract/errors.ts';
import { toPriceTargetView } from '../catalogue/price-targets.ts';
import type { PriceTargetLookup } from '../catalogue/index.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { formatPrice, parsePrice, priceTargetOutcome } from '../core/prices.ts';
import type { Db } from '../store/database.ts';
import { finalizeTargetPrice, findDueUnproposed, findFollowedPairs, findUnknownTargets, type PriceTargetRow } from '../store/price-targets-repository.ts';
import { findPriceAtOrBefore, upsertReferencePrice } from '../store/reference-prices-repository.ts';
import type { PriceSource } from '../store/schema.ts';
import { createBinanceFeed } from './binance.ts';
import { FeedError, MAX_PRICE_AGE_MS, type PullFeed } from './feed.ts';
import { createPythFeed } from './pyth.ts';
import { settledPriceAt, targetsWithDerivation } from './reference.ts';

export { createBinanceFeed, binanceSymbol } from './binance.ts';
export { createPythFeed, PYTH_FEED_IDS } from './pyth.ts';
export { FeedError, type PullFeed } from './feed.ts';

/** GET /prices/reference (EXTENSIONS.md section 13). */
export interface ReferencePriceView { pair: string; price: string; at: string; source: PriceSource }

/** Bounds of one tick: markets looked at per step (the rest wait for the next tick). */
const TICK_BATCH = 100;

export interface Prices {
  /** The operator's price (POST /admin/prices); `atMs` must not be in the future. */
  record(pair: string, price: string, atMs: number): Promise<ReferencePriceView>;
  /** The last price at or before `atMs`; 404 when none is known. */
  reference(pair: string, atMs: number): Promise<ReferencePriceView>;
  /** For the catalogue's reads: targets, CLOSE_PRICE ones derived once their price is known. */
  readonly targets: PriceTargetLookup;
  /** Poll the feed, derive due targets, propose due outcomes. Never throws for a feed failure. */
  tick(): Promise<void>;
  /** prom-client metrics for the app's registry. */
  readonly metrics: Metric[];
}

export interface PricesDeps {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The pull feed (PRICE_FEED pyth or binance); none with manual. */
  feed: PullFeed | undefined;
  /** An operator proposal through the oracle (the same path as POST /admin/markets/{id}/oracle/propose). */
  propose(marketId: string, outcome: 'YES' | 'NO'): Promise<unknown>;
}

/** The pull feed PRICE_FEED names, at PRICE_FEED_URL (the config check guarantees the URL). */
export function createFeed(config: Pick<Config, 'priceFeed' | 'priceFeedUrl'>, clock: Clock): PullFeed | undefined {
  const now = () => clock.nowMs();
  if (config.priceFeed === 'pyth') return createPythFeed(config.priceFeedUrl!, now);
  if (config.priceFeed === 'binance') return createBinanceFeed(config.priceFeedUrl!, now);
  return undefined;
}

export function createPrices(deps: PricesDeps): Prices {
  const { db, clock, logger, feed } = deps;
  const feedErrors = new Counter({ name: 'pmx_price_feed_errors_total', help: 'Price feed calls that gave no price, by source and reason', labelNames: ['source', 'reason'] as const, registers: [] });
  const feedPrices = new Counter({ name: 'pmx_price_feed_prices_total', help: 'Prices recorded, by source', labelNames: ['source'] as const, registers: [] });
  const lastPriceAt = new Gauge({ name: 'pmx_price_feed_last_price_timestamp_seconds', help: 'Time of the newest recorded price of each pair', labelNames: ['pair'] as const, registers: [] });
  const awaitingPrice = new Gauge({ name: 'pmx_price_markets_awaiting_price', help: 'Price-target markets past resolveAt left unproposed because the price (or the target) is unknown', registers: [] });
  const missedProposals = new Counter({ name: 'pmx_price_proposals_missing_price_total', help: 'Proposal attempts that found no price or no target (retried on later ticks)', registers: [] });
  /** Markets already logged as waiting, so the log says it once per market, not every tick. */
  const loggedWaiting = new Set<string>();

  const view = (pair: string, row: { price: bigint; at: Date; source: PriceSource }): ReferencePriceView =>
    ({ pair, price: formatPrice(row.price), at: row.at.toISOString(), source: row.source });

  async function store(pair: string, price: bigint, atMs: number, source: PriceSource): Promise<void> {
    await upsertReferencePrice(db, { pair, at: new Date(atMs), price, source, recordedAt: new Date(clock.nowMs()) });
    feedPrices.inc({ source });
    lastPriceAt.set({ pair }, atMs / 1000);
  }

  /** One feed call: its price stored, or its failure logged and counted; never thrown. */
  async function pull(pullFeed: PullFeed, pair: string, call: () => Promise<{ price: bigint; atMs: number }>): Promise<void> {
    try {
      const observation = await call();
      await store(pair, observation.price, observation.atMs, pullFeed.source);
    } catch (error) {
      if (!(error instanceof FeedError)) throw error;
      feedErrors.inc({ source: pullFeed.source, reason: error.reason });
      logger.warn({ pair, reason: error.reason }, `price feed: ${error.message}`);
    }
  }

  /** The newest price of every followed pair, and the exact prices of due times the polls missed. */
  async function poll(pullFeed: PullFeed, nowMs: number): Promise<void> {
    for (const pair of await findFollowedPairs(db)) await pull(pullFeed, pair, () => pullFeed.latest(pair));
    const now = new Date(nowMs);
    const needed = [
      ...(await findUnknownTargets(db, now, TICK_BATCH)).map((t) => ({ pair: t.pair, at: t.target_at })),
      ...(await findDueUnproposed(db, now, TICK_BATCH)).map((t) => ({ pair: t.pair, at: t.resolve_at })),
    ];
    const asked = new Set<string>();
    for (const { pair, at } of needed) {
      const key = `${pair}@${at.getTime()}`;
      if (asked.has(key)) continue;
      asked.add(key);
      const before = await findPriceAtOrBefore(db, pair, at);
      if (before && at.getTime() - before.at.getTime() <= MAX_PRICE_AGE_MS) continue;
      await pull(pullFeed, pair, () => pullFeed.at(pair, at.getTime()));
    }
  }

  /** Proposes the outcome of every due market whose price and target are known. */
  async function proposeDue(nowMs: number): Promise<void> {
    const due = await findDueUnproposed(db, new Date(nowMs), TICK_BATCH);
    const targets = await targetsWithDerivation(db, due.map((d) => d.market_id), nowMs);
    let waiting = 0;
    for (const row of due) {
      const target = targets.get(row.market_id)?.target_price ?? null;
      const price = await settledPriceAt(db, row.pair, row.resolve_at);
      if (target === null || price === undefined) {
        waiting += 1;
        missedProposals.inc();
        if (!loggedWaiting.has(row.market_id)) {
          loggedWaiting.add(row.market_id);
          logger.warn({ marketId: row.market_id, pair: row.pair, resolveAt: row.resolve_at.toISOString(), missing: target === null ? 'target' : 'price' }, 'price-target market left unproposed: no price known yet; retried on later ticks');
        }
        continue;
      }
      // The operator changed the target since it was read: the next tick proposes from the new one.
      if (!(await finalizeTargetPrice(db, row.market_id, target, new Date(nowMs)))) continue;
      await proposeOne(row, priceTargetOutcome(price, target));
    }
    awaitingPrice.set(waiting);
  }

  async function proposeOne(row: PriceTargetRow, outcome: 'YES' | 'NO'): Promise<void> {
    try {
      await deps.propose(row.market_id, outcome);
      loggedWaiting.delete(row.market_id);
      logger.info({ marketId: row.market_id, outcome }, 'price-target market proposed from the reference price');
    } catch (error) {
      // Another node, or the operator, proposed first: the oracle refused this one (409).
      logger.warn({ err: error, marketId: row.market_id }, 'price-target proposal refused');
    }
  }

  async function tick(): Promise<void> {
    const nowMs = clock.nowMs();
    if (feed) await poll(feed, nowMs);
    await targetsWithDerivation(db, (await findUnknownTargets(db, new Date(nowMs), TICK_BATCH)).map((t) => t.market_id), nowMs);
    await proposeDue(nowMs);
  }

  return {
    async record(pair, price, atMs) {
      const units = parsePrice(price);
      if (units === undefined) throw badRequest('price must be a positive decimal with at most 8 decimals');
      if (atMs > clock.nowMs()) throw badRequest('at must not be in the future');
      await store(pair, units, atMs, 'manual');
      return view(pair, { price: units, at: new Date(atMs), source: 'manual' });
    },

    async reference(pair, atMs) {
      const row = await findPriceAtOrBefore(db, pair, new Date(atMs));
      if (!row) throw notFound(`a price of ${pair} at or before ${new Date(atMs).toISOString()}`);
      return view(pair, row);
    },

    targets: async (ids) => new Map([...(await targetsWithDerivation(db, ids, clock.nowMs()))].map(([id, row]) => [id, toPriceTargetView(row)])),

    tick,

    metrics: [feedErrors, feedPrices, lastPriceAt, awaitingPrice, missedProposals],
  };
}
