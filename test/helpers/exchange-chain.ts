/**
 * The exchange's contracts on a fresh anvil, with one binary market registered on each exchange,
 * and the few moves contract tests make: funding users, signing orders as the server's clients
 * do, matching as the operator, reading balances and named reverts.
 */
import { type Address, BaseError, ContractFunctionRevertedError, encodeFunctionData, type Hex, keccak256, toHex } from 'viem';
import type { LocalAccount } from 'viem/accounts';
import { ORDER_TYPES, type OrderMessage, ZERO_ADDRESS } from '../../src/client/orders/eip712.ts';
import { type DeployedContracts, deployContracts, loadArtifact } from '../../src/settlement/contracts/index.ts';
import { startAnvil } from './anvil.ts';

export const EXCHANGE_NAME = 'PMX Exchange';
export const ONE = 1_000_000n;
const MAX_UINT256 = 2n ** 256n - 1n;

const abi = {
  exchange: loadArtifact('PmxExchange').abi,
  collateral: loadArtifact('LocalCollateral').abi,
  ctf: loadArtifact('ConditionalTokens').abi,
  factory: loadArtifact('ProxyWalletFactory').abi,
  wallet: loadArtifact('ProxyWallet').abi,
};
export const ABIS = abi;

export interface Market {
  readonly conditionId: Hex;
  readonly questionId: Hex;
  readonly yes: bigint;
  readonly no: bigint;
}

export interface SignedOrder extends OrderMessage {
  readonly signature: Hex;
}

/** One element of matchOrdersBatch: matchOrders' six arguments, by name. */
export interface MatchArgs {
  readonly takerOrder: SignedOrder;
  readonly makerOrders: readonly SignedOrder[];
  readonly takerFillAmount: bigint;
  readonly makerFillAmounts: readonly bigint[];
  readonly makerFeeRatesBps: readonly bigint[];
  readonly part: bigint;
}

/** The rate each maker pays where a test names none: the rate it signed, the most the exchange lets the operator name. */
export const signedRates = (makers: readonly SignedOrder[]): bigint[] => makers.map((maker) => maker.feeRateBps);

/** A match of `takerOrder` against `makerOrders` (its part 0 unless `fills.part` says otherwise), each filled whole unless `fills` says otherwise, each maker paying its signed rate. */
export function matchOf(takerOrder: SignedOrder, makerOrders: readonly SignedOrder[], fills: { taker?: bigint; makers?: readonly bigint[]; part?: bigint } = {}): MatchArgs {
  return {
    takerOrder,
    makerOrders,
    takerFillAmount: fills.taker ?? takerOrder.makerAmount,
    makerFillAmounts: fills.makers ?? makerOrders.map((maker) => maker.makerAmount),
    makerFeeRatesBps: signedRates(makerOrders),
    part: fills.part ?? 0n,
  };
}

export interface OrderParams {
  readonly signer: LocalAccount;
  readonly tokenId: bigint;
  readonly side: 'BUY' | 'SELL';
  readonly priceMicros: bigint;
  readonly size: bigint;
  readonly feeRateBps?: bigint;
  readonly signatureType?: 0 | 1 | 2;
  readonly maker?: Address;
  readonly taker?: Address;
  readonly nonce?: bigint;
  readonly expiration?: bigint;
  readonly salt?: bigint;
  readonly negRisk?: boolean;
}

export type ExchangeChain = Awaited<ReturnType<typeof startExchangeChain>>;

/** `exchangeName`: the EIP-712 domain name (a standard client's fixed name, for instance). */
export async function startExchangeChain({ exchangeName = EXCHANGE_NAME } = {}) {
  const anvil = await startAnvil();
  const admin = anvil.account(0);
  const operator = anvil.account(1);
  const feeReceiver = anvil.account(2).address;
  const adminWallet = anvil.walletClient(admin);
  const operatorWallet = anvil.walletClient(operator);
  const { publicClient } = anvil;
  const contracts = await deployContracts(adminWallet, publicClient, { exchangeName, operator: operator.address, feeReceiver, maxFeeRateBps: 1_000n });
  let salt = 1n;

  async function send(account: LocalAccount, to: Address, contractAbi: typeof abi.exchange, functionName: string, args: readonly unknown[]): Promise<Hex> {
    const hash = await anvil.walletClient(account).writeContract({ address: to, abi: contractAbi, functionName, args, chain: anvil.chain });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${functionName} reverted`);
    return hash;
  }

  async function read<T>(address: Address, contractAbi: typeof abi.exchange, functionName: string, args: readonly unknown[] = []): Promise<T> {
    return (await publicClient.readContract({ address, abi: contractAbi, functionName, args })) as T;
  }

  /** Prepares a binary condition with the admin as oracle and registers its two tokens. */
  async function createMarket(negRisk = false): Promise<Market> {
    const questionId = keccak256(toHex(`question ${salt++}`));
    await send(admin, contracts.conditionalTokens, abi.ctf, 'prepareCondition', [admin.address, questionId, 2n]);
    const conditionId = await read<Hex>(contracts.conditionalTokens, abi.ctf, 'getConditionId', [admin.address, questionId, 2n]);
    const [yes, no] = await Promise.all([1n, 2n].map((indexSet) => positionId(conditionId, indexSet)));
    await send(admin, negRisk ? contracts.negRiskExchange : contracts.exchange, abi.exchange, 'registerToken', [yes, no, conditionId]);
    return { conditionId, questionId, yes: yes as bigint, no: no as bigint };
  }

  async function positionId(conditionId: Hex, indexSet: bigint): Promise<bigint> {
    const collection = await read<Hex>(contracts.conditionalTokens, abi.ctf, 'getCollectionId', [ZERO_BYTES32, conditionId, indexSet]);
    return read<bigint>(contracts.conditionalTokens, abi.ctf, 'getPositionId', [contracts.collateral, collection]);
  }

  /** Collateral minted by the operator (the faucet) to any address. */
  async function mint(to: Address, amount: bigint): Promise<void> {
    await send(operator, contracts.collateral, abi.collateral, 'mint', [to, amount]);
  }

  /** An EOA trader: approves both exchanges for collateral and tokens, as a client does once. */
  async function approveExchanges(account: LocalAccount): Promise<void> {
    for (const exchange of [contracts.exchange, contracts.negRiskExchange]) {
      await send(account, contracts.collateral, abi.collateral, 'approve', [exchange, MAX_UINT256]);
      await send(account, contracts.conditionalTokens, abi.ctf, 'setApprovalForAll', [exchange, true]);
    }
    await send(account, contracts.collateral, abi.collateral, 'approve', [contracts.conditionalTokens, MAX_UINT256]);
  }

  /** Gives an approved EOA `amount` of both tokens of a market (mint collateral, split it). */
  async function giveSets(account: LocalAccount, market: Market, amount: bigint): Promise<void> {
    await mint(account.address, amount);
    await send(account, contracts.conditionalTokens, abi.ctf, 'splitPosition', [contracts.collateral, ZERO_BYTES32, market.conditionId, [1n, 2n], amount]);
  }

  /**
   * A trader ready to trade a market: its proxy wallet deployed (approving both exchanges as it is
   * made) and holding `amount` of both tokens and `amount` of collateral. Orders of every type
   * settle from the signer's wallet, EOA ones (type 0) included.
   */
  async function fundTrader(account: LocalAccount, market: Market, amount: bigint): Promise<void> {
    const wallet = await deployWallet(account.address);
    await giveWalletSets(account, market, amount);
    await mint(wallet, amount);
  }

  /** Puts `amount` of both tokens of a market in the account's wallet (split by the account, then sent there). */
  async function giveWalletSets(account: LocalAccount, market: Market, amount: bigint): Promise<void> {
    await send(account, contracts.collateral, abi.collateral, 'approve', [contracts.conditionalTokens, MAX_UINT256]);
    await giveSets(account, market, amount);
    await send(account, contracts.conditionalTokens, abi.ctf, 'safeBatchTransferFrom', [account.address, await walletOf(account.address), [market.yes, market.no], [amount, amount], '0x']);
  }

  async function signOrder(params: OrderParams): Promise<SignedOrder> {
    const message = await orderMessage(params);
    const signature = await params.signer.signTypedData({ domain: orderDomain(params.negRisk ?? false), types: ORDER_TYPES, primaryType: 'Order', message });
    return { ...message, signature };
  }

  /** An order as an API key places it without signing (EXTENSIONS.md section 11): the signature is empty. */
  async function unsignedOrder(params: OrderParams): Promise<SignedOrder> {
    return { ...(await orderMessage(params)), signature: '0x' };
  }

  async function orderMessage(params: OrderParams): Promise<OrderMessage> {
    const cost = (params.priceMicros * params.size) / ONE;
    const buying = params.side === 'BUY';
    const signatureType = params.signatureType ?? 0;
    return {
      salt: params.salt ?? salt++,
      maker: params.maker ?? (signatureType === 0 ? params.signer.address : await walletOf(params.signer.address)),
      signer: params.signer.address,
      taker: params.taker ?? ZERO_ADDRESS,
      tokenId: params.tokenId,
      makerAmount: buying ? cost : params.size,
      takerAmount: buying ? params.size : cost,
      expiration: params.expiration ?? 0n,
      nonce: params.nonce ?? 0n,
      feeRateBps: params.feeRateBps ?? 0n,
      side: buying ? 0 : 1,
      signatureType,
    };
  }

  function orderDomain(negRisk: boolean) {
    return { name: exchangeName, version: '1', chainId: anvil.chain.id, verifyingContract: negRisk ? contracts.negRiskExchange : contracts.exchange };
  }

  /** matchOrders as the operator, mined, each maker paying `makerFeeRates` (its signed rate by default), as `part` of the taker's match; returns the receipt. */
  async function match(taker: SignedOrder, makers: SignedOrder[], takerFill: bigint, makerFills: bigint[], exchange = contracts.exchange, makerFeeRates = signedRates(makers), part = 0n) {
    const hash = await operatorWallet.writeContract({ address: exchange, abi: abi.exchange, functionName: 'matchOrders', args: [taker, makers, takerFill, makerFills, makerFeeRates, part], chain: anvil.chain, gas: 29_000_000n });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`matchOrders reverted: ${await matchRevert(taker, makers, takerFill, makerFills, exchange, operator, makerFeeRates, part)}`);
    return receipt;
  }

  /** matchOrdersBatch as the operator, mined; returns the receipt. */
  async function matchBatch(matches: readonly MatchArgs[]) {
    const hash = await operatorWallet.writeContract({ address: contracts.exchange, abi: abi.exchange, functionName: 'matchOrdersBatch', args: [matches], chain: anvil.chain, gas: 29_000_000n });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`matchOrdersBatch reverted: ${await batchRevert(matches)}`);
    return receipt;
  }

  function batchRevert(matches: readonly MatchArgs[], account: LocalAccount = operator) {
    return revertOf(account, contracts.exchange, abi.exchange, 'matchOrdersBatch', [matches]);
  }

  /** The custom error a call would revert with, by name (undefined when it would succeed). */
  async function revertOf(account: LocalAccount | Address, address: Address, contractAbi: typeof abi.exchange, functionName: string, args: readonly unknown[]): Promise<string | undefined> {
    return (await revertErrorOf(account, address, contractAbi, functionName, args))?.name;
  }

  /** The custom error a call would revert with, by name and with its arguments (undefined when it would succeed). */
  async function revertErrorOf(account: LocalAccount | Address, address: Address, contractAbi: typeof abi.exchange, functionName: string, args: readonly unknown[]) {
    try {
      await publicClient.simulateContract({ account, address, abi: contractAbi, functionName, args });
      return undefined;
    } catch (error) {
      const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
      // A require message (ConditionalTokens, compiled with solc 0.5) reads "Error: <message>".
      if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName) {
        return { name: reverted.data.errorName === 'Error' ? `Error: ${reverted.reason}` : reverted.data.errorName, args: reverted.data.args ?? [] };
      }
      throw error;
    }
  }

  function matchRevert(taker: SignedOrder, makers: SignedOrder[], takerFill: bigint, makerFills: bigint[], exchange = contracts.exchange, account = operator, makerFeeRates = signedRates(makers), part = 0n) {
    return revertOf(account, exchange, abi.exchange, 'matchOrders', [taker, makers, takerFill, makerFills, makerFeeRates, part]);
  }

  async function collateralOf(address: Address): Promise<bigint> {
    return read<bigint>(contracts.collateral, abi.collateral, 'balanceOf', [address]);
  }

  async function tokensOf(address: Address, tokenId: bigint): Promise<bigint> {
    return read<bigint>(contracts.conditionalTokens, abi.ctf, 'balanceOf', [address, tokenId]);
  }

  async function walletOf(owner: Address): Promise<Address> {
    return read<Address>(contracts.proxyWalletFactory, abi.factory, 'walletOf', [owner]);
  }

  /** Deploys the owner's proxy wallet (anyone may) and returns its address. */
  async function deployWallet(owner: Address): Promise<Address> {
    await send(operator, contracts.proxyWalletFactory, abi.factory, 'deployWallet', [owner]);
    return walletOf(owner);
  }

  /** A call made by a proxy wallet's owner through the wallet's `execute`. */
  async function executeAsWallet(owner: LocalAccount, wallet: Address, target: Address, targetAbi: typeof abi.exchange, functionName: string, args: readonly unknown[]) {
    const data = encodeFunctionData({ abi: targetAbi, functionName, args });
    return send(owner, wallet, abi.wallet, 'execute', [target, 0n, data]);
  }

  return {
    anvil,
    contracts: contracts as DeployedContracts,
    admin,
    operator,
    feeReceiver,
    publicClient,
    createMarket,
    mint,
    approveExchanges,
    giveSets,
    giveWalletSets,
    fundTrader,
    signOrder,
    unsignedOrder,
    orderDomain,
    match,
    matchRevert,
    matchBatch,
    batchRevert,
    revertOf,
    revertErrorOf,
    send,
    read,
    collateralOf,
    tokensOf,
    walletOf,
    deployWallet,
    executeAsWallet,
    stop: () => anvil.stop(),
  };
}

export const ZERO_BYTES32 = `0x${'0'.repeat(64)}` as Hex;
