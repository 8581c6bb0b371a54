import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ConfigError } from '../config.ts';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { ChainOperator } from './operator.ts';

/**
 * The keys that settle trades on the embedded chain: anvil's second and third development
 * accounts, one per exchange. Settlement gets keys of its own because its sender owns their
 * nonces (src/settlement/chain/sender/README.md), while the operator's key keeps minting, deploying
 * wallets and preparing markets through its own pipeline; one key each per exchange because each
 * sender is one nonce pipeline. Public keys, as the deployer's: a local chain only (dev-accounts.ts).
 * CHAIN=rpc configures its own (SETTLEMENT_KEY, NEG_RISK_SETTLEMENT_KEY).
 */
export const EMBEDDED_SETTLEMENT_KEYS = {
  exchange: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  negRisk: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
} as const satisfies Record<string, Hex>;

export interface SettlementKeys {
  readonly exchange: { readonly exchange: Address; readonly key: Hex };
  readonly negRisk: { readonly exchange: Address; readonly key: Hex };
}

/**
 * The settlement keys beside their exchanges, each made an operator of its exchange when it is not
 * one yet (once per deployment) by the operator's key, which must then be the exchange's admin
 * (the deployer is, on both chains); otherwise the boot stops, naming what to do.
 */
export async function settlementKeys(operator: ChainOperator, deployed: DeployedContracts, keys: { exchange: Hex; negRisk: Hex }): Promise<SettlementKeys> {
  const abi = loadArtifact('PmxExchange').abi;
  const settlement: SettlementKeys = {
    exchange: { exchange: deployed.exchange, key: keys.exchange },
    negRisk: { exchange: deployed.negRiskExchange, key: keys.negRisk },
  };
  await operator.exclusive(async (chain) => {
    for (const [name, { exchange, key }] of Object.entries(settlement)) {
      const settler = privateKeyToAccount(key).address;
      const call = { address: exchange, abi };
      if (await chain.read<boolean>({ ...call, functionName: 'isOperator', args: [settler] })) continue;
      if (!(await chain.read<boolean>({ ...call, functionName: 'isAdmin', args: [operator.address] }))) {
        const variable = name === 'exchange' ? 'SETTLEMENT_KEY' : 'NEG_RISK_SETTLEMENT_KEY';
        throw new ConfigError(`${variable}'s address ${settler} is not an operator of the exchange ${exchange}, and OPERATOR_KEY (${operator.address}) is not its admin, so the boot cannot make it one: have an admin call setOperator(${settler}, true) on it, or set OPERATOR_KEY to an admin's key`);
      }
      await chain.send({ ...call, functionName: 'setOperator', args: [settler, true] });
    }
  });
  return settlement;
}
