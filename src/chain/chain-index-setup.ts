import { privateKeyToAccount } from 'viem/accounts';
import type { Address } from 'viem';
import type { ChainSettlementSetup, RunningChain } from './index.ts';

/** What the engine's chain indexer reads and leaves out (src/engine/chain-index/). */
export interface ChainIndexSetup {
  client: ChainSettlementSetup['client'];
  confirmations: number;
  collateral: Address;
  conditionalTokens: Address;
  exchange: Address;
  negRiskExchange: Address;
  ownSenders: Address[];
  mineEmptyBlock?(): Promise<void>;
}

/**
 * The indexer of the chain trades settle on, beside its settlement (same client, confirmations and,
 * on the embedded chain, empty blocks): the collateral and ConditionalTokens, the two exchanges
 * (the approvals users' wallets give them), and the exchange's own
 * keys (the operator's and the settlement keys), whose transactions (minting or treasury
 * transfers, relayed withdrawals and wallet calls, settlement) the ledger holds already.
 * Undefined where trades do not settle on a chain.
 */
export function chainIndexSetup(chain: RunningChain, settlement: ChainSettlementSetup | undefined): ChainIndexSetup | undefined {
  if (!settlement || !chain.deployed || !chain.operator) return undefined;
  const { client, confirmations, keys, mineEmptyBlock } = settlement;
  const ownSenders = [chain.operator.address, ...[keys.exchange.key, keys.negRisk.key].map((key) => privateKeyToAccount(key).address)];
  const { collateral, conditionalTokens, exchange, negRiskExchange } = chain.deployed;
  return { client, confirmations, collateral, conditionalTokens, exchange, negRiskExchange, ownSenders, ...(mineEmptyBlock ? { mineEmptyBlock } : {}) };
}
