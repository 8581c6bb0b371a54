import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { RestingQuote } from '../core/rewards/index.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Db } from '../store/database.ts';
import { findMarketStatus, findRewardConfig, isRewardsPaused, listOpenRewardConfigs, listRewardConfigsOfDate, setRewardsPaused, upsertRewardConfig } from '../store/rewards-repository.ts';
import { RewardClaims, type PayFromTreasury, type PayOnChain } from './claims.ts';
import { changesFrozenFields, dayStartMs, freezesAtMs, parseRewardConfig, type RewardConfigInput } from './config.ts';
import { DAY_MS, MINUTE_MS } from '../core/rewards/index.ts';
import { closeEndedDays } from './daily-close.ts';
import { marketRewardDetailView, type MarketRewardDetailView } from './market-reward.ts';
import { RewardReads } from './reads.ts';
import { AccrualBuffer, sampleRewards } from './sampler.ts';

export { RewardConfigError } from './config.ts';
export type { ClaimDecision } from './claims.ts';

/**
 * How long sampled minutes may wait in memory before they are written (AccrualBuffer): what a
 * user's "earned so far" may lag on the real clock. The manual clock writes at every tick.
 */
export const ACCRUAL_FLUSH_MS = 5 * 60_000;

/** A configuration change the rules refuse: the market is unknown, not ACTIVE, or the day is frozen. */
export class RewardConfigRefused extends Error {
  constructor(readonly reason: 'not-found' | 'not-tradable' | 'frozen', message: string) {
    super(message);
  }
}

export interface Rewards {
  readonly claims: RewardClaims;
  readonly reads: RewardReads;
  putConfig(marketId: string, input: RewardConfigInput): Promise<MarketRewardDetailView>;
  setPaused(paused: boolean): Promise<void>;
  /** Samples every minute up to now and closes ended days (the job, and POST /admin/clock). */
  tick(): Promise<{ samples: number; closedDays: number }>;
  /** The job's start on the engine's node (src/background-jobs.ts): ticks sample from now on, unfinished claims resume. */
  start(): Promise<void>;
  /** The job's stop: waits for the running tick, writes buffered minutes, lets claims finish. */
  stop(): Promise<void>;
}

export interface RewardsDeps {
  db: Db;
  clock: Clock;
  /** Claims pay from the treasury through the engine, like every balance change. */
  payFromTreasury: PayFromTreasury;
  /** With a chain, and the wallets too (claims.ts). */
  payOnChain?: PayOnChain | undefined;
  events: DomainEvents;
  logger: FastifyBaseLogger;
  minPayoutBaseUnits: bigint;
  quotesByMarket: () => ReadonlyMap<string, readonly RestingQuote[]>;
  /** The engine's fence (src/cluster/leadership.ts), checked where sampled minutes are written. */
  fence?: (tx: Db) => Promise<void>;
}

/** How long a claim's payment may stay unconfirmed before a tick sends it again. */
const CLAIM_RETRY_MS = 10_000;

export function createRewards(deps: RewardsDeps): Rewards {
  const { db, clock } = deps;
  const claims = new RewardClaims(deps);
  const reads = new RewardReads({ db, nowMs: () => clock.nowMs(), quotesByMarket: deps.quotesByMarket, minPayoutBaseUnits: deps.minPayoutBaseUnits });
  let started = false;
  // Ticks never overlap: the job and POST /admin/clock share this chain.
  let chain: Promise<unknown> = Promise.resolve();

  const buffer = new AccrualBuffer();

  // The real-clock job fires every few seconds; work only exists when a new minute has started.
  let lastMinute: number | undefined;

  async function tickOnce() {
    const nowMs = clock.nowMs();
    const minute = Math.floor(nowMs / MINUTE_MS);
    if (clock.kind === 'real' && minute === lastMinute) return { samples: 0, closedDays: 0 };
    lastMinute = minute;
    const configs = buffer.overlay(await listOpenRewardConfigs(db));
    const samples = sampleRewards({ configs, quotesByMarket: deps.quotesByMarket(), paused: await isRewardsPaused(db), nowMs });
    buffer.add(samples, nowMs);
    const dayEnded = configs.some((c) => dayStartMs(c.reward_date) + DAY_MS <= nowMs);
    if (clock.kind === 'manual' || dayEnded || buffer.ageMs(nowMs) >= ACCRUAL_FLUSH_MS) await buffer.flush(db, deps.fence);
    const closedDays = await closeEndedDays(db, configs, nowMs, deps.minPayoutBaseUnits);
    await claims.resumeUnfinished(nowMs - CLAIM_RETRY_MS);
    return { samples: samples.count, closedDays };
  }

  return {
    claims,
    reads,
    async putConfig(marketId, input) {
      const nowMs = clock.nowMs();
      const config = parseRewardConfig(input, nowMs);
      const market = await findMarketStatus(db, marketId);
      if (!market) throw new RewardConfigRefused('not-found', 'market not found');
      const existing = await findRewardConfig(db, marketId, config.date);
      if (existing && freezesAtMs(existing) <= nowMs && changesFrozenFields(existing, config)) {
        throw new RewardConfigRefused('frozen', `the reward configuration of ${config.date} is frozen since its window opened; only enabled may change`);
      }
      if (!existing && market.status !== 'ACTIVE') throw new RewardConfigRefused('not-tradable', 'rewards need a published, unresolved market');
      const now = new Date(nowMs);
      await upsertRewardConfig(db, {
        market_id: marketId, reward_date: config.date, reward_base_units: config.rewardBaseUnits,
        start_at: config.startMs === null ? null : new Date(config.startMs), end_at: config.endMs === null ? null : new Date(config.endMs),
        max_distance_micros: config.maxDistanceMicros, extreme_max_distance_micros: config.extremeMaxDistanceMicros,
        min_order_size_base_units: config.minOrderSizeBaseUnits, boost_windows: JSON.stringify(config.boosts), enabled: config.enabled,
        // A configuration made after its window opened pays from the next minute on, never for minutes before it existed.
        sampled_through_minute: BigInt(Math.ceil(nowMs / MINUTE_MS) - 1),
        created_at: now, updated_at: now,
      });
      const [saved] = await listRewardConfigsOfDate(db, config.date, marketId);
      return marketRewardDetailView(saved!, nowMs);
    },
    setPaused: (paused) => setRewardsPaused(db, paused),
    tick() {
      // Only the node that runs the engine samples: a standby's books may trail the engine's, and
      // its minutes would be marked handled for the engine's node to pay.
      if (!started) return Promise.resolve({ samples: 0, closedDays: 0 });
      const run = chain.then(tickOnce);
      chain = run.catch(() => undefined);
      return run;
    },
    async start() {
      started = true;
      await claims.resumeUnfinished();
    },
    async stop() {
      started = false;
      await chain;
      // Minutes whose marks are not written are sampled again by the next engine node, so a
      // flush refused by the fence (the engine moved on) or by the store loses nothing.
      await buffer.flush(db, deps.fence).catch((error: unknown) => {
        deps.logger.warn({ err: error }, 'buffered reward minutes not written; the engine node samples them again');
        buffer.discard();
      });
      await claims.idle();
    },
  };
}
