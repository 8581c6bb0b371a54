import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { createPublicClient, getAddress, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { proxyWalletAddress } from '../settlement/contracts/index.ts';
import type { Config } from '../config.ts';
import type { ChainFiles } from './chain-files.ts';
import { chainFilesIn } from './chain-files.ts';
import { TEMPLATE_DEPLOYER_KEY, type DeployedContracts } from './deployment.ts';
import { EmbeddedChain } from './embedded-chain.ts';
import { checkExchangeCalls } from './exchange-abi.ts';
import { httpFollowing } from './following-transport.ts';
import { callJsonRpc } from './json-rpc.ts';
import { ChainOperator } from './operator.ts';
import { exchangeChain } from './chain-definition.ts';
import { connectRemoteChain } from './remote-chain.ts';
import { EMBEDDED_SETTLEMENT_KEYS, settlementKeys, type SettlementKeys } from './settlement-keys.ts';

export { EmbeddedChain } from './embedded-chain.ts';
export { FateUnknownError, type ChainOperator } from './operator.ts';
export { fundWalletOnce, minedCredit, operatorPayers, type OperatorPayers } from './wallet-funding.ts';
export type { PaymentIntents } from './once-payments.ts';
export { giveOwnerGas } from './owner-gas.ts';
export { treasuryShortfallOf, type TreasuryShortfall } from './treasury-shortfall.ts';
export { PaymentConflictError } from './once-payments.ts';
export { walletPositions, type WalletPositions, type WalletOfOwner } from './wallet-positions.ts';
export { payoutReports, type PayoutReports } from './payout-reports.ts';
export { recordedWithdrawal, relayWithdrawal, settleWithdrawal, WITHDRAWAL_PAYMENT_PREFIX, type SignedWithdrawal, type WithdrawalOnChain, type WithdrawalRelay, type WithdrawalUndo } from './wallet-withdrawal.ts';
export { chainMarkets, type ChainMarkets, type MarketOnChain, type MarketToPrepare } from './market-preparation.ts';
export { chainTemplateFiles } from './chain-template.ts';
export { deployExchangeContracts } from './deployment.ts';
export { checkRemoteChainId } from './remote-chain.ts';
export { readChainHealth, type ChainHealth } from './chain-health.ts';
export type { ChainDeployment, DeployedContracts } from './deployment.ts';

/** The chain the server settles on (EXTENSIONS.md section 14), as the rest of the server sees it. */
export interface RunningChain {
  readonly kind: Config['chain'];
  readonly chainId: number;
  /** The exchange's contracts on the chain: deployed by the server (CHAIN=embedded) or configured (CHAIN=rpc); undefined for CHAIN=none. */
  readonly deployed: DeployedContracts | undefined;
  /** The local anvil of CHAIN=embedded: its URL and `ready` for /rpc, its pid for the boot log. */
  readonly embedded: EmbeddedChain | undefined;
  /** The operator's transactions on the contracts (CHAIN=embedded: the deployer's key, deployment.ts; CHAIN=rpc: OPERATOR_KEY); undefined for CHAIN=none. */
  readonly operator: ChainOperator | undefined;
  close(): Promise<void>;
}

/**
 * Starts or reaches the configured chain: CHAIN=embedded starts anvil (from the build's template
 * `template` for a new data directory), CHAIN=rpc checks that CHAIN_RPC_URL serves CHAIN_ID and
 * holds the configured contracts (remote-chain.ts), and CHAIN=none has nothing to start.
 */
export async function startChain(config: Config, options: { template: ChainFiles; logger: Logger }): Promise<RunningChain> {
  const { chainId } = config;
  if (config.chain === 'embedded') {
    const embedded = await EmbeddedChain.start({ chainId, exchangeName: config.exchangeName, dataDir: config.dataDir, template: options.template, logger: options.logger });
    const { exchange, negRiskExchange } = embedded.deployment.contracts;
    const fix = `The embedded chain of DATA_DIR ${config.dataDir} was made by an earlier build, its funds on its contracts: start this build with a new DATA_DIR.`;
    await checkExchangeCalls(embedded.url, [{ name: 'the exchange', address: exchange }, { name: 'the neg-risk exchange', address: negRiskExchange }], fix).catch(async (error: unknown) => {
      await embedded.close();
      throw error;
    });
    const operator = new ChainOperator(() => embedded.url, chainId, TEMPLATE_DEPLOYER_KEY, { flushPending: () => mineBlock(embedded.url) });
    return { kind: 'embedded', chainId, deployed: embedded.deployment.contracts, embedded, operator, close: () => embedded.close() };
  }
  if (config.chain === 'rpc') {
    const { deployed, operator } = await connectRemoteChain(config);
    return { kind: 'rpc', chainId, deployed, embedded: undefined, operator, close: async () => {} };
  }
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
 * not (so deposits can arrive before the wallet exists); undefined where there are no contracts.
 */
export function deployedProxyWallets(deployed: DeployedContracts | undefined): ((owner: Address) => Address) | undefined {
  if (deployed === undefined) return undefined;
  return (owner) => proxyWalletAddress(deployed.proxyWalletFactory, owner, deployed.proxyWalletInitCodeHash);
}

/** The boot log's line: the chain, its id and the contract addresses, saying which were deployed here. */
export function describeChain(chain: RunningChain, config: Config): string {
  const where = chain.embedded
    ? `embedded (anvil pid ${chain.embedded.pid} at ${chain.embedded.url}, state in ${config.dataDir.startsWith('memory://') ? 'memory' : dirname(chainFilesIn(config.dataDir).stateFile)})`
    : chain.kind === 'rpc' ? `rpc (CHAIN_RPC_URL, operator ${chain.operator!.address})` : 'none (simulated settlement)';
  const contracts = [
    `exchange ${config.exchangeAddress}`,
    `negRiskExchange ${config.negRiskExchangeAddress}`,
    `collateral ${config.collateralAddress}`,
    `conditionalTokens ${config.conditionalTokensAddress}`,
    ...(chain.deployed ? [`proxyWalletFactory ${chain.deployed.proxyWalletFactory}`] : []),
  ];
  return `chain: ${where}, chain id ${chain.chainId}; contracts${chain.embedded ? ' (deployed here)' : ''}: ${contracts.join(', ')}`;
}

/** Where the chain answers JSON-RPC now (a restarted embedded anvil may answer on another port); undefined for CHAIN=none. */
export function chainRpcUrl(chain: RunningChain, config: Config): string | undefined {
  if (!chain.operator) return undefined;
  return chain.embedded?.url ?? config.chainRpcUrl;
}

/**
 * The accounts that pay the exchange's gas: the operator's (markets, wallets, payouts) and each
 * exchange's settlement key (the trades); none for CHAIN=none.
 */
export function gasPayers(chain: RunningChain, config: Config): { account: string; address: Address }[] {
  const keys = settlementKeysOf(chain, config);
  if (!chain.operator || !keys) return [];
  return [
    { account: 'operator', address: chain.operator.address },
    { account: 'settlement', address: privateKeyToAccount(keys.exchange).address },
    { account: 'neg-risk settlement', address: privateKeyToAccount(keys.negRisk).address },
  ];
}

/** The keys that settle trades: the embedded chain's own, or CHAIN=rpc's SETTLEMENT_KEY and NEG_RISK_SETTLEMENT_KEY. */
function settlementKeysOf(chain: RunningChain, config: Config): { exchange: Hex; negRisk: Hex } | undefined {
  return chain.embedded ? EMBEDDED_SETTLEMENT_KEYS : config.settlementKeys;
}

/** What the engine settles trades with on a chain: a client of it, the confirmations to wait for, and a key per exchange. */
export interface ChainSettlementSetup {
  /** One client for the senders and the indexer; its transport follows the chain's URL (an embedded anvil restarted on another port). */
  client: PublicClient;
  confirmations: number;
  /** SETTLEMENT_GATHER_MS: a transaction that is not full leaves at most once every this many milliseconds. */
  gatherMs: number;
  /** MAX_FEE_PER_GAS_GWEI: the senders sign no transaction at a higher `maxFeePerGas` (wei). */
  maxFeePerGas?: bigint;
  keys: SettlementKeys;
  /** A local chain that mines only when sent a transaction (the embedded anvil); absent where blocks come on their own. */
  mineEmptyBlock?(): Promise<void>;
  /** How the senders simulate a batch: `call` on the embedded anvil; absent (the estimate) on a shared chain. */
  simulation?: 'call';
}

/**
 * Settlement on the chain: the embedded chain's keys or CHAIN=rpc's (SETTLEMENT_KEY,
 * NEG_RISK_SETTLEMENT_KEY), made operators of their exchanges first; undefined for CHAIN=none.
 */
export async function chainSettlementSetup(chain: RunningChain, config: Config): Promise<ChainSettlementSetup | undefined> {
  const { embedded, operator, deployed } = chain;
  if (!operator || !deployed) return undefined;
  const keys = await settlementKeys(operator, deployed, settlementKeysOf(chain, config)!);
  // A batching transport: each look of a sender at the chain (receipts, nonce, head) is one request;
  // to the URL of each request's moment, as a restarted embedded anvil may answer on another port.
  const client = createPublicClient({ chain: exchangeChain(chain.chainId), transport: httpFollowing(() => chainRpcUrl(chain, config)!), pollingInterval: 50 }) as PublicClient;
  const common = { client, confirmations: config.confirmations, gatherMs: config.settlementGatherMs, keys, ...(config.maxFeePerGasWei ? { maxFeePerGas: config.maxFeePerGasWei } : {}) };
  if (!embedded) return common;
  // Anvil mines a block per transaction (automine) and none without one: the last trades' confirmations come from empty blocks.
  const mineEmptyBlock = () => mineBlock(embedded.url);
  // Anvil mines each transaction alone as it comes, so a batch's gas limit may be the sender's cap: one eth_call per batch
  // instead of estimateGas's binary search (about 25 executions of the batch, four fifths of anvil's work: bench/settlement.ts).
  // Not on CHAIN=rpc: on a shared chain a block's space, and the fee reserved up front, follow the gas limit.
  return { ...common, mineEmptyBlock, simulation: 'call' };
}

/** Mines a block on the embedded anvil (with whatever transactions wait in its pool). */
function mineBlock(url: string): Promise<void> {
  return callJsonRpc<unknown>(url, 'evm_mine').then(() => {});
}
