import { createPublicClient, createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deployContracts, type DeployedContracts } from '../settlement/contracts/index.ts';
import { exchangeChain } from './chain-definition.ts';
import { checkExistingContracts, type ExistingContracts } from './existing-contracts.ts';

export type { DeployedContracts } from '../settlement/contracts/index.ts';

/** What a deployment leaves behind: who deployed, under which order domain name, and where each contract is. Recorded beside the chain's state. */
export interface ChainDeployment {
  readonly deployer: Address;
  /** The EIP-712 domain name the exchanges verify orders under (EXCHANGE_NAME): a chain deployed under another name cannot serve this one. */
  readonly exchangeName: string;
  readonly contracts: DeployedContracts;
}

/**
 * The deployer of the embedded chain's contracts: anvil's first default account (funded at genesis
 * by its well-known mnemonic). A fixed key from a fixed starting nonce puts every contract at the
 * same address in every build, so a template made on one machine names the same addresses as one
 * made on another. Anyone knows this key: it must hold no role that matters on a public chain,
 * and /rpc refuses transactions it signs.
 */
export const TEMPLATE_DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/**
 * Deploys every contract of the exchange (src/settlement/contracts: ConditionalTokens, the local
 * collateral, the wallet factory, both exchanges) with `deployerKey` on the chain at `rpcUrl`, the
 * exchanges verifying orders under `exchangeName`; an `existing` collateral or ConditionalTokens is
 * checked and used instead of a new one. The one list of deployments: the build's chain
 * template and a data directory started without a usable template both come from here. The
 * deployer is also the operator (it relays wallet calls, mints as the faucet, prepares markets;
 * trades are settled by keys of their own, settlement-keys.ts): an embedded chain is a local
 * development chain whose keys are public, reachable only on loopback, and /rpc refuses what they
 * sign. A public chain gets its own keys (CHAIN=rpc).
 */
export async function deployExchangeContracts(rpcUrl: string, chainId: number, exchangeName: string, deployerKey: Hex = TEMPLATE_DEPLOYER_KEY, existing: ExistingContracts = {}): Promise<ChainDeployment> {
  const chain = exchangeChain(chainId);
  const account = privateKeyToAccount(deployerKey);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  const reader = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 20 });
  await checkExistingContracts(reader, existing);
  const contracts = await deployContracts(wallet, reader, { exchangeName, operator: account.address, ...existing });
  return { deployer: account.address, exchangeName, contracts };
}
