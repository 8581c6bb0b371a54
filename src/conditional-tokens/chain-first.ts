import type { FastifyBaseLogger } from 'fastify';
import type { Hex } from 'viem';
import type { WalletOfOwner, WalletPositions } from '../chain/index.ts';
import type { MatchingEngine } from '../engine/engine.ts';
import type { PositionHolder } from './operations.ts';

/** What the chain-first operations (wallet-split.ts, wallet-merge.ts, wallet-redeem.ts) work with. */
export interface ChainFirstDeps {
  readonly engine: Pick<MatchingEngine, 'split' | 'merge' | 'redeem' | 'reads'>;
  readonly positions: WalletPositions;
  readonly logger: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

export const walletOf = (holder: PositionHolder): WalletOfOwner => ({ owner: holder.address, wallet: holder.proxyWallet });

export const conditionOf = (conditionId: string) => conditionId as Hex;

/**
 * Runs the engine's command after the chain did its part; `undo` reverses that part when the
 * engine refuses or throws (its available balance changed meanwhile, a full queue), so the chain
 * keeps what the ledger keeps. An undo that fails too leaves the value in the wallet in another
 * form than the ledger says: logged as an error for the operator.
 */
export async function engineAfterChain<T extends { ok: boolean }>(deps: ChainFirstDeps, what: string, command: () => Promise<T>, undo: () => Promise<unknown>): Promise<T> {
  let outcome: T;
  try {
    outcome = await command();
  } catch (error) {
    await undoOnChain(deps, what, undo);
    throw error;
  }
  if (!outcome.ok) await undoOnChain(deps, what, undo);
  return outcome;
}

/** Reverses on chain what a chain-first operation did there; a failure is logged, not thrown (the caller answers why it undid). */
export async function undoOnChain(deps: ChainFirstDeps, what: string, undo: () => Promise<unknown>): Promise<void> {
  try {
    await undo();
  } catch (error) {
    deps.logger.error({ err: error }, `undoing a ${what} on chain failed: the wallet holds its value in another form than the ledger says`);
  }
}
