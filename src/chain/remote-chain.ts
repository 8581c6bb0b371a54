import type { Address, Hex } from 'viem';
import { ConfigError, type Config } from '../config.ts';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import { checkExchangeCalls } from './exchange-abi.ts';
import { callJsonRpc } from './json-rpc.ts';
import { ChainOperator } from './operator.ts';

/** CHAIN=rpc as the boot finds it: the configured contracts, with the wallet factory the exchange names, and the operator's key on them. */
export interface RemoteChain {
  readonly deployed: DeployedContracts;
  readonly operator: ChainOperator;
}

/**
 * Reaches CHAIN=rpc: CHAIN_RPC_URL must serve CHAIN_ID, and the configured exchanges must be the
 * exchange's contracts. The proxy-wallet factory is read from the exchange (`proxyWalletFactory()`,
 * the one its signatures check wallets against) and its `walletInitCodeHash()`, so a user's wallet
 * here is the one the exchange accepts; PROXY_WALLET_FACTORY_ADDRESS, when set, must be that one.
 */
export async function connectRemoteChain(config: Config): Promise<RemoteChain> {
  const url = config.chainRpcUrl!;
  await checkRemoteChainId(url, config.chainId);
  const operator = new ChainOperator(() => url, config.chainId, config.operatorKey!, { maxFeePerGas: config.maxFeePerGasWei });
  const factoryOf = (exchange: Address, variable: string) => readOrRefuse<Address>(operator, { address: exchange, abi: loadArtifact('PmxExchange').abi, functionName: 'proxyWalletFactory', args: [] }, `${variable} ${exchange} is not an exchange contract on this chain (it does not answer proxyWalletFactory()); deploy one with pmx deploy`);
  const proxyWalletFactory = await factoryOf(config.exchangeAddress, 'EXCHANGE_ADDRESS');
  const negRiskFactory = await factoryOf(config.negRiskExchangeAddress, 'NEG_RISK_EXCHANGE_ADDRESS');
  await checkExchangeCalls(url, [{ name: 'EXCHANGE_ADDRESS', address: config.exchangeAddress }, { name: 'NEG_RISK_EXCHANGE_ADDRESS', address: config.negRiskExchangeAddress }], 'Deploy this build\'s contracts (pmx deploy) and configure their addresses; funds held under the earlier deployment stay there (contracts/README.md "Upgrading").');
  if (negRiskFactory.toLowerCase() !== proxyWalletFactory.toLowerCase()) throw new ConfigError(`EXCHANGE_ADDRESS and NEG_RISK_EXCHANGE_ADDRESS name different proxy-wallet factories (${proxyWalletFactory}, ${negRiskFactory}): they are not one deployment`);
  if (config.proxyWalletFactoryAddress && config.proxyWalletFactoryAddress.toLowerCase() !== proxyWalletFactory.toLowerCase()) {
    throw new ConfigError(`PROXY_WALLET_FACTORY_ADDRESS is ${config.proxyWalletFactoryAddress} but the exchange at EXCHANGE_ADDRESS checks wallets of ${proxyWalletFactory}`);
  }
  const factory = { address: proxyWalletFactory, abi: loadArtifact('ProxyWalletFactory').abi, args: [] };
  const refusal = `the proxy-wallet factory ${proxyWalletFactory} the exchange names is not one (pmx deploy deploys it)`;
  const deployed: DeployedContracts = {
    chainId: config.chainId,
    conditionalTokens: config.conditionalTokensAddress,
    collateral: config.collateralAddress,
    exchange: config.exchangeAddress,
    negRiskExchange: config.negRiskExchangeAddress,
    proxyWalletFactory,
    proxyWalletImplementation: await readOrRefuse<Address>(operator, { ...factory, functionName: 'implementation' }, refusal),
    proxyWalletInitCodeHash: await readOrRefuse<Hex>(operator, { ...factory, functionName: 'walletInitCodeHash' }, refusal),
  };
  return { deployed, operator };
}

/** CHAIN=rpc: the endpoint must serve CHAIN_ID, or every signature and transaction would be for another chain. The URL is not logged: it may carry a provider's key. */
export async function checkRemoteChainId(url: string, chainId: number): Promise<void> {
  let answered: string;
  try {
    answered = await callJsonRpc<string>(url, 'eth_chainId', [], 10_000);
  } catch (error) {
    throw new ConfigError(`CHAIN_RPC_URL did not answer eth_chainId (${(error as Error).message})`);
  }
  if (Number(answered) !== chainId) throw new ConfigError(`CHAIN_RPC_URL serves chain id ${Number(answered)}, not CHAIN_ID=${chainId}`);
}

/** A view of a configured contract; a revert or an empty answer (no code there) is the operator's to fix. */
async function readOrRefuse<T>(operator: ChainOperator, call: Parameters<ChainOperator['read']>[0], refusal: string): Promise<T> {
  try {
    return await operator.read<T>(call);
  } catch (error) {
    throw new ConfigError(`CHAIN=rpc: ${refusal} (${(error as Error).message.split('\n')[0]})`);
  }
}
