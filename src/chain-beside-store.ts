import { dataDirEmpty } from './data-dir-lock.ts';
import { chainFilesIn, readRecord } from './chain/chain-files.ts';
import { startChain, type RunningChain } from './chain/index.ts';
import type { Config } from './config.ts';

/** A chain to be had once the store has chosen it (`chainBesideStore`). */
export interface ChainInWaiting {
  /** The chain `decided` names, with the milliseconds it took to answer from its start. */
  take(decided: Config): Promise<{ chain: RunningChain; readyMs: number }>;
  /** Stops a chain started early that no one will take (the boot failed first). */
  discard(): Promise<void>;
}

/**
 * Starts the embedded chain beside the store's opening when the store will most likely choose it
 * (src/chain-choice.ts), so anvil's start (about 0.4 s) overlaps PGlite's (not on PostgreSQL):
 * CHAIN=embedded set, or by default a new in-memory store or a data directory whose chain exists.
 * Never into a data directory the store has yet to make (absent or empty): the chain's folder
 * would make it look taken, and PGlite would build its database from nothing instead of from the
 * build's template (3 s more, measured). The store's choice stands: `take` closes a chain started
 * for nothing and starts the one chosen.
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
  if (dataDirEmpty(config.dataDir)) return false;
  return !config.chainByDefault || readRecord(chainFilesIn(config.dataDir)) !== undefined;
}
