import type { Logger } from 'pino';
import { anvilBinaryPath } from './chain/anvil-binary.ts';
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
  await setSetting(db, CHAIN_SETTING, kind);
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
