import type { Abi, Account, Address, Chain, Hex, PublicClient, Transport, WalletClient } from 'viem';
import { type ContractName, loadArtifact } from './artifacts.ts';
import { proxyWalletInitCodeHash } from './proxy-wallet-init-code.ts';

export interface DeployOptions {
  /** The EIP-712 domain name of both exchanges (config EXCHANGE_NAME; the server's default is "PMX Exchange"). */
  readonly exchangeName: string;
  /**
   * Made the exchanges' operator (allowed to send matchOrders; the server's settlement keys are
   * made operators too, at boot: src/chain/settlement-keys.ts), the factory's relayer (the wallets'
   * split, merge, redeem and bond payments) and the local collateral's minter.
   */
  readonly operator: Address;
  /** Where trading fees go; the operator by default. */
  readonly feeReceiver?: Address;
  /** The highest feeRateBps an order may sign; 10,000 (the server's own bound) by default. */
  readonly maxFeeRateBps?: bigint;
  /** An existing collateral token (USDC on a public chain); without it a LocalCollateral is deployed, minted by the operator. */
  readonly collateral?: Address;
  /** An existing ConditionalTokens; without it one is deployed from its published bytecode. */
  readonly conditionalTokens?: Address;
}

export interface DeployedContracts {
  readonly chainId: number;
  readonly conditionalTokens: Address;
  readonly collateral: Address;
  readonly exchange: Address;
  readonly negRiskExchange: Address;
  readonly proxyWalletFactory: Address;
  /** The code every proxy wallet runs (each wallet is a minimal proxy of it), deployed by the factory. */
  readonly proxyWalletImplementation: Address;
  /** With proxyWalletFactory, fixes every owner's wallet address (proxyWalletAddress). */
  readonly proxyWalletInitCodeHash: Hex;
}

type Wallet = WalletClient<Transport, Chain | undefined, Account>;

/**
 * Deploys the exchange's contracts and wires them together; the wallet client's account becomes
 * the admin of all of them. Order: ConditionalTokens and collateral (unless given), the wallet
 * factory, the exchange and the neg-risk exchange (same contract, two addresses: two order
 * domains), then the factory learns the exchanges and the operator becomes its relayer. Passing
 * the addresses of a previous run's ConditionalTokens and collateral redeploys only the rest.
 * Each transaction is awaited, so the result is usable as soon as this resolves.
 */
export async function deployContracts(walletClient: Wallet, publicClient: PublicClient, options: DeployOptions): Promise<DeployedContracts> {
  const admin = walletClient.account.address;
  const send = transactionSender(walletClient, publicClient);
  const conditionalTokens = options.conditionalTokens ?? (await send.deploy('ConditionalTokens', []));
  const collateral = options.collateral ?? (await send.deploy('LocalCollateral', [admin, options.operator]));
  const proxyWalletFactory = await send.deploy('ProxyWalletFactory', [conditionalTokens, collateral, admin]);
  const exchangeConfig = {
    name: options.exchangeName,
    collateral,
    conditionalTokens,
    proxyWalletFactory,
    admin,
    operator: options.operator,
    feeReceiver: options.feeReceiver ?? options.operator,
    maxFeeRateBps: options.maxFeeRateBps ?? 10_000n,
  };
  const exchange = await send.deploy('PmxExchange', [exchangeConfig]);
  const negRiskExchange = await send.deploy('PmxExchange', [exchangeConfig]);
  const factoryAbi = loadArtifact('ProxyWalletFactory').abi;
  await send.call(proxyWalletFactory, factoryAbi, 'setExchanges', [exchange, negRiskExchange]);
  await send.call(proxyWalletFactory, factoryAbi, 'setRelayer', [options.operator, true]);
  const proxyWalletImplementation = (await publicClient.readContract({ address: proxyWalletFactory, abi: factoryAbi, functionName: 'implementation' })) as Address;
  return {
    chainId: await publicClient.getChainId(),
    conditionalTokens,
    collateral,
    exchange,
    negRiskExchange,
    proxyWalletFactory,
    proxyWalletImplementation,
    proxyWalletInitCodeHash: proxyWalletInitCodeHash(proxyWalletImplementation),
  };
}

/** Sends one transaction at a time and waits for it, failing on a revert. */
function transactionSender(walletClient: Wallet, publicClient: PublicClient) {
  const { account } = walletClient;
  const chain = walletClient.chain ?? null;
  async function mined(hash: Hex, what: string) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${what} reverted (transaction ${hash})`);
    return receipt;
  }
  return {
    async deploy(name: ContractName, args: readonly unknown[]): Promise<Address> {
      const { abi, bytecode } = loadArtifact(name);
      const hash = await walletClient.deployContract({ abi, bytecode, args, account, chain });
      const receipt = await mined(hash, `deploying ${name}`);
      if (!receipt.contractAddress) throw new Error(`deploying ${name} created no contract (transaction ${hash})`);
      return receipt.contractAddress;
    },
    async call(address: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<void> {
      const hash = await walletClient.writeContract({ address, abi, functionName, args, account, chain });
      await mined(hash, functionName);
    },
  };
}
