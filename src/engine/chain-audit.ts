import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { RPC_BATCH_MAX } from '../contract/chain-rpc.ts';
import type { Db } from '../store/database.ts';
import { auditChainBalances } from './chain-balance-audit.ts';
import { auditChainTrades } from './chain-trade-audit.ts';
import type { EngineState } from './state/engine-state.ts';

/** Where the audit reads the chain: an endpoint and the contracts the ledger and the trades mirror. */
export interface ChainAuditTarget {
  url: string;
  contracts: { collateral: Address; conditionalTokens: Address; exchange: Address; negRiskExchange: Address };
}

export interface ChainAuditViolation {
  invariant: 'chain-balances' | 'chain-trades' | 'chain-unreachable';
  detail: string;
}

export type ChainClient = PublicClient;

/**
 * The exchange against its chain (`pmx audit` on a chain; docs/engine.md "The audit"): the
 * replayed ledger's wallets against their balances on chain (chain-balance-audit.ts), and every
 * settled trade against the transaction it names (chain-trade-audit.ts). A chain that does not
 * answer is a violation of its own, never a pass.
 */
export async function auditChain(state: EngineState, db: Db, target: ChainAuditTarget): Promise<{ violations: ChainAuditViolation[]; wallets: number; transactions: number }> {
  // Batches no larger than the server's /rpc takes, which the audit may read the chain through.
  const client: ChainClient = createPublicClient({ transport: http(target.url, { batch: { batchSize: RPC_BATCH_MAX }, retryCount: 0, timeout: 10_000 }) });
  try {
    await client.getBlockNumber();
  } catch (error) {
    return { violations: [{ invariant: 'chain-unreachable', detail: `the chain at ${target.url} did not answer (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): the ledger was not compared with it` }], wallets: 0, transactions: 0 };
  }
  const balances = await auditChainBalances(client, state, target);
  const trades = await auditChainTrades(client, db, target);
  return { violations: [...balances.violations, ...trades.violations], wallets: balances.wallets, transactions: trades.transactions };
}
