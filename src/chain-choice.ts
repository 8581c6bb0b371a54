import { existsSync, readdirSync } from 'node:fs';
import type { Logger } from 'pino';
import { anvilBinaryPath } from './chain/anvil-binary.ts';
import { chainFilesIn, readRecord } from './chain/chain-files.ts';
import { startChain, type RunningChain } from './chain/index.ts';
import { ConfigError, type ChainKind, type Config } from './config.ts';
import type { Db } from './store/database.ts';
import { getSetting, setSetting } from './store/settings-repository.ts';

/** The settings key of the chain a store last ran on. */
const CHAIN_SETTING = 'chain';

/**
 * The chain this store runs on. CHAIN set (or contract addresses configured): that one. CHAIN
 * unset (`chainByDefault`), EXTENSIONS.md section 10's default, `embedded`, for a new store; a
 * store keeps the kind it last ran on, so that leaving CHAIN out never moves an exchange from one
 * chain to another:
 * - a store that holds users or markets and no record was made while `none` was the default: its
 *   balances and markets were never on a chain, and its users' wallets are not the factory's, so it
 *   stays on `none` (set CHAIN=embedded to start a chain over it anyway);
 * - a store that ran on `rpc` needs CHAIN=rpc and its variables again: a ConfigError says so;
 * - where anvil has no binary (a platform it is not built for, optional dependencies left out), a
 *   new store takes `none`, with a warning.
 */
export async function chainKindOf(config: Config, db: Db, logger?: Logger): Promise<ChainKind> {
  if (!config.chainByDefault) return config.chain;
  const recorded = await getSetting(db, CHAIN_SETTING);
  if (recorded === 'rpc') throw new ConfigError('this exchange settles on CHAIN=rpc (its store says so): set CHAIN=rpc with CHAIN_RPC_URL, OPERATOR_KEY, the settlement keys and the contract addresses');
  if (recorded === 'none' || recorded === 'embedded') return recorded;
  if (await holdsAnExchange(db)) {
    logger?.warn('CHAIN is not set and this store was made before `embedded` became the default: it stays on CHAIN=none (set CHAIN=embedded to settle on a chain from now on)');
    return 'none';
  }
  try {
    anvilBinaryPath();
    return 'embedded';
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger?.warn(`${error.message}; CHAIN is not set, so trades settle on the simulated layer (CHAIN=none)`);
    return 'none';
  }
}

/** The configuration with the chain this store runs on, which the store then remembers. */
export async function withChainOfStore(config: Config, db: Db, logger: Logger): Promise<Config> {
  const kind = await chainKindOf(config, db, logger);
  if ((await getSetting(db, CHAIN_SETTING)) !== kind) await setSetting(db, CHAIN_SETTING, kind);
  return kind === config.chain ? config : { ...config, chain: kind };
}

/** Users or markets: anything a chain would have had to hold from the start. */
async function holdsAnExchange(db: Db): Promise<boolean> {
  const [user, market] = await Promise.all([
    db.selectFrom('users').select('id').limit(1).executeTakeFirst(),
    db.selectFrom('markets').select('id').limit(1).executeTakeFirst(),
  ]);
  return user !== undefined || market !== undefined;
}

/** A chain to be had once the store has chosen it (`chainBesideStore`). */
export interface ChainInWaiting {
  /** The chain `decided` names, with the milliseconds it took to answer from its start. */
  take(decided: Config): Promise<{ chain: RunningChain; readyMs: number }>;
  /** Stops a chain started early that no one will take (the boot failed first). */
  discard(): Promise<void>;
}

/**
 * Starts the embedded chain beside the store's opening when the store will most likely choose it,
 * so anvil's start (about 0.4 s) hides behind PGlite's (not on PostgreSQL): CHAIN=embedded set, or
 * by default a new in-memory store or a data directory whose chain exists. Never into a data directory the store
 * has yet to make (absent or empty): the chain's folder would make it look taken, and PGlite would build its
 * database from nothing instead of from the build's template (3 s more, measured). The store's
 * choice stands: `take` closes a chain started for nothing and starts the one chosen.
 */
export function chainBesideStore(config: Config, options: Parameters<typeof startChain>[1]): ChainInWaiting {
  const timed = (chosen: Config) => {
    const startedAt = performance.now();
    return startChain(chosen, options).then((chain) => ({ chain, readyMs: Math.round(performance.now() - startedAt) }));
  };
  const early = likelyEmbedded(config) ? timed(config).then((started) => ({ started }), (error: unknown) => ({ error })) : undefined;
  const discard = async () => {
    const outcome = await early;
    if (outcome && 'started' in outcome) await outcome.started.chain.close();
  };
  return {
    async take(decided) {
      const outcome = await early;
      if (outcome && decided.chain === 'embedded') {
        if ('error' in outcome) throw outcome.error;
        return outcome.started;
      }
      await discard();
      return timed(decided);
    },
    discard,
  };
}

function likelyEmbedded(config: Config): boolean {
  // On PostgreSQL the database says what ran before, and whether another node runs beside this
  // one (whose chain files a second anvil over the same data directory would overwrite).
  if (config.chain !== 'embedded' || config.databaseUrl) return false;
  if (config.dataDir.startsWith('memory://')) return true;
  if (!existsSync(config.dataDir) || readdirSync(config.dataDir).length === 0) return false;
  return !config.chainByDefault || readRecord(chainFilesIn(config.dataDir)) !== undefined;
}
