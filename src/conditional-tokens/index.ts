import type { FastifyBaseLogger } from 'fastify';
import { payoutReports, walletPositions, type OperatorPayers, type RunningChain } from '../chain/index.ts';
import type { MatchingEngine } from '../engine/engine.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Db } from '../store/database.ts';
import { engineOperations } from './engine-operations.ts';
import { OraclePayoutsOnChain } from './oracle-payouts-on-chain.ts';
import type { ConditionalTokenOperations } from './operations.ts';
import { ResolutionReporter } from './resolution-reporter.ts';
import { mergeChainFirst } from './wallet-merge.ts';
import { redeemChainFirst } from './wallet-redeem.ts';
import { splitChainFirst } from './wallet-split.ts';
import { WalletTurns } from './wallet-turns.ts';

export type { ConditionalTokenOperations, PositionHolder } from './operations.ts';

export interface ConditionalTokens {
  readonly operations: ConditionalTokenOperations;
  /**
   * Runs other work that reads a wallet's balances and then has the chain move them (a withdrawal)
   * in the wallet's turn with split, merge and redeem (wallet-turns.ts), so it reads what the
   * operations before it left. Without a chain, at once.
   */
  inWalletTurn<T>(wallet: string, work: () => Promise<T>): Promise<T>;
  /** Reports resolutions on chain; undefined without a chain of the exchange's contracts. Started and stopped with the engine's leadership. */
  readonly reporter: ResolutionReporter | undefined;
  /** Makes the oracle's payouts (rewards, lost bonds) on chain; undefined without a chain. Started and stopped with the engine's leadership. */
  readonly oraclePayouts: OraclePayoutsOnChain | undefined;
}

/**
 * Split, merge and redeem (README.md): on a chain with the exchange's contracts (CHAIN=embedded or rpc)
 * the chain first, through the operator relaying on the user's proxy wallet, then the engine's
 * journaled command; on CHAIN=none the engine's command alone, as before.
 */
export function createConditionalTokens(deps: {
  engine: MatchingEngine;
  chain: RunningChain;
  /** The operator's payers (chain/wallet-funding.ts), present with the chain's contracts. */
  payers: OperatorPayers | undefined;
  db: Db;
  events: DomainEvents;
  now: () => Date;
  logger: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;
}): ConditionalTokens {
  const { operator, deployed } = deps.chain;
  const { payers } = deps;
  if (!operator || !deployed || !payers) return { operations: engineOperations(deps.engine), inWalletTurn: (_wallet, work) => work(), reporter: undefined, oraclePayouts: undefined };
  const reporter = new ResolutionReporter({ db: deps.db, reads: deps.engine.reads, reports: payoutReports(operator, deployed), events: deps.events, logger: deps.logger });
  const oraclePayouts = new OraclePayoutsOnChain({ db: deps.db, payers, events: deps.events, now: deps.now, logger: deps.logger });
  const chainFirst = { engine: deps.engine, positions: walletPositions(operator, deployed), logger: deps.logger };
  const turns = new WalletTurns();
  return {
    reporter,
    oraclePayouts,
    inWalletTurn: (wallet, work) => turns.run(wallet, work),
    operations: {
      split: (holder, marketId, amount) => turns.run(holder.proxyWallet, () => splitChainFirst(chainFirst, holder, marketId, amount)),
      merge: (holder, marketIds) => turns.run(holder.proxyWallet, () => mergeChainFirst(chainFirst, holder, marketIds)),
      redeem: (holder, marketIds) => turns.run(holder.proxyWallet, () => redeemChainFirst({ ...chainFirst, reporter }, holder, marketIds)),
    },
  };
}
