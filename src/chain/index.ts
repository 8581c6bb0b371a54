import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { getAddress, type Address } from 'viem';
import { proxyWalletAddress } from '../settlement/contracts/index.ts';
import { ConfigError, type Config } from '../config.ts';
import type { ChainFiles } from './chain-files.ts';
import { chainFilesIn } from './chain-files.ts';
import { TEMPLATE_DEPLOYER_KEY, type DeployedContracts } from './deployment.ts';
import { EmbeddedChain } from './embedded-chain.ts';
import { callJsonRpc } from './json-rpc.ts';
import { ChainOperator } from './operator.ts';

export { EmbeddedChain } from './embedded-chain.ts';
export type { ChainOperator } from './operator.ts';
export { fundWallet } from './wallet-funding.ts';
export { chainMarkets, type ChainMarkets, type MarketOnChain, type MarketToPrepare } from './market-preparation.ts';
export { chainTemplateFiles } from './chain-template.ts';
export type { ChainDeployment, DeployedContracts } from './deployment.ts';

/** The chain the server settles on (EXTENSIONS.md section 14), as the rest of the server sees it. */
export interface RunningChain {
  readonly kind: Config['chain'];
  readonly chainId: number;
  /** The contracts the server deployed (CHAIN=embedded); undefined where the configuration names them. */
  readonly deployed: DeployedContracts | undefined;
  /** The local anvil of CHAIN=embedded: its URL for /rpc, its `ready` and events for settlement. */
  readonly embedded: EmbeddedChain | undefined;
  /** The operator's transactions on the deployed contracts (CHAIN=embedded: the deployer's key, deployment.ts); undefined elsewhere. */
  readonly operator: ChainOperator | undefined;
  close(): Promise<void>;
}

/**
 * Starts or reaches the configured chain: CHAIN=embedded starts anvil (from the build's template
 * `template` for a new data directory), CHAIN=rpc checks that CHAIN_RPC_URL serves CHAIN_ID, and
 * CHAIN=none has nothing to start.
 */
export async function startChain(config: Config, options: { template: ChainFiles; logger: Logger }): Promise<RunningChain> {
  const { chainId } = config;
  if (config.chain === 'embedded') {
    const embedded = await EmbeddedChain.start({ chainId, exchangeName: config.exchangeName, dataDir: config.dataDir, template: options.template, logger: options.logger });
    const operator = new ChainOperator(() => embedded.url, chainId, TEMPLATE_DEPLOYER_KEY);
    return { kind: 'embedded', chainId, deployed: embedded.deployment.contracts, embedded, operator, close: () => embedded.close() };
  }
  if (config.chain === 'rpc') await checkRemoteChainId(config.chainRpcUrl!, chainId);
  return { kind: config.chain, chainId, deployed: undefined, embedded: undefined, operator: undefined, close: async () => {} };
}

/** The configuration with the deployed contracts' addresses in place of the configured ones. */
export function withDeployedContracts(config: Config, deployed: DeployedContracts | undefined): Config {
  if (deployed === undefined) return config;
  return Object.freeze({
    ...config,
    exchangeAddress: getAddress(deployed.exchange),
    negRiskExchangeAddress: getAddress(deployed.negRiskExchange),
    collateralAddress: getAddress(deployed.collateral),
    conditionalTokensAddress: getAddress(deployed.conditionalTokens),
  });
}

/**
 * The proxy wallet of an owner as the deployed factory's `walletOf(owner)` gives it, deployed or
 * not (so deposits can arrive before the wallet exists); undefined where no contracts were deployed.
 */
export function deployedProxyWallets(deployed: DeployedContracts | undefined): ((owner: Address) => Address) | undefined {
  if (deployed === undefined) return undefined;
  return (owner) => proxyWalletAddress(deployed.proxyWalletFactory, owner, deployed.proxyWalletInitCodeHash);
}

/** The boot log's line: the chain, its id and the contract addresses, saying which were deployed here. */
export function describeChain(chain: RunningChain, config: Config): string {
  const where = chain.embedded
    ? `embedded (anvil pid ${chain.embedded.pid} at ${chain.embedded.url}, state in ${config.dataDir.startsWith('memory://') ? 'memory' : dirname(chainFilesIn(config.dataDir).stateFile)})`
    : chain.kind === 'rpc' ? 'rpc (CHAIN_RPC_URL)' : 'none (simulated settlement)';
  const contracts = [
    `exchange ${config.exchangeAddress}`,
    `negRiskExchange ${config.negRiskExchangeAddress}`,
    `collateral ${config.collateralAddress}`,
    `conditionalTokens ${config.conditionalTokensAddress}`,
    ...(chain.deployed ? [`proxyWalletFactory ${chain.deployed.proxyWalletFactory}`] : []),
  ];
  return `chain: ${where}, chain id ${chain.chainId}; contracts${chain.deployed ? ' (deployed here)' : ''}: ${contracts.join(', ')}`;
}

/** CHAIN=rpc: the endpoint must serve CHAIN_ID, or every signature and transaction would be for another chain. The URL is not logged: it may carry a provider's key. */
async function checkRemoteChainId(url: string, chainId: number): Promise<void> {
  let answered: string;
  try {
    answered = await callJsonRpc<string>(url, 'eth_chainId', [], 10_000);
  } catch (error) {
    throw new ConfigError(`CHAIN=rpc: CHAIN_RPC_URL did not answer eth_chainId (${(error as Error).message})`);
  }
  if (Number(answered) !== chainId) throw new ConfigError(`CHAIN=rpc: CHAIN_RPC_URL serves chain id ${Number(answered)}, not CHAIN_ID=${chainId}`);
}
