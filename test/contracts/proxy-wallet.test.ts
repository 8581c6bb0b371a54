import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, getAddress, type Hex, zeroAddress } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { deployContracts, loadArtifact, proxyWalletAddress } from '../../src/settlement/contracts/index.ts';
import { ABIS, type ExchangeChain, type Market, ONE, startExchangeChain } from '../helpers/exchange-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { walletParties } from '../helpers/wallet-parties.ts';

const WITHDRAW_TYPES = { Withdraw: [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }, { name: 'nonce', type: 'uint256' }] } as const;

/**
 * The proxy wallet of signatureType 1: its address is known before it exists, its owner's orders
 * settle through it, money leaves it only on its owner's word (execute, or a signed withdrawal),
 * or, while its owner leaves operator trading on, as a lost oracle bond the operator pays out,
 * and otherwise the operator may only split, merge and redeem its positions in place.
 */
describe('proxy wallets', { skip: storeIndependent('the chain') }, () => {
  let chain: ExchangeChain;
  let market: Market;
  let owner: HDAccount;
  let counterparty: HDAccount;
  let stranger: HDAccount;
  let wallet: Address;

  before(async () => {
    chain = await startExchangeChain();
    ({ market, owner, counterparty, stranger } = await walletParties(chain));
  });
  after(() => chain?.stop());

  const factory = () => chain.contracts.proxyWalletFactory;

  it('has one address before deployment: the factory, the exchange and the TypeScript helper agree, and it receives deposits', async () => {
    const { contracts } = chain;
    wallet = await chain.walletOf(owner.address);
    assert.equal(wallet, proxyWalletAddress(contracts.proxyWalletFactory, owner.address, contracts.proxyWalletInitCodeHash));
    assert.equal(contracts.proxyWalletInitCodeHash, await chain.read(factory(), ABIS.factory, 'walletInitCodeHash'));
    assert.equal(await chain.read(contracts.exchange, ABIS.exchange, 'walletOf', [owner.address]), wallet);
    assert.equal(await chain.read(factory(), ABIS.factory, 'isDeployed', [owner.address]), false);
    await chain.mint(wallet, 50n * ONE);
    assert.equal(await chain.deployWallet(owner.address), wallet);
    assert.notEqual(await chain.publicClient.getCode({ address: wallet }), undefined);
    assert.equal(await chain.read(wallet, ABIS.wallet, 'owner'), owner.address);
    assert.equal(await chain.deployWallet(owner.address), wallet, 'deploying again returns the same wallet');
    assert.equal(await chain.collateralOf(wallet), 50n * ONE, 'the deposit made before deployment is there');
  });

  it('settles orders its owner signed, as maker (type 1) and as taker (type 2)', async () => {
    const asMaker = await chain.signOrder({ signer: owner, signatureType: 1, tokenId: market.yes, side: 'BUY', priceMicros: 400_000n, size: 20n * ONE });
    assert.equal(asMaker.maker, wallet);
    const sellerOrder = await chain.signOrder({ signer: counterparty, tokenId: market.yes, side: 'SELL', priceMicros: 400_000n, size: 20n * ONE });
    await chain.match(sellerOrder, [asMaker], 20n * ONE, [8n * ONE]);
    assert.equal(await chain.tokensOf(wallet, market.yes), 20n * ONE);
    const asTaker = await chain.signOrder({ signer: owner, signatureType: 2, tokenId: market.yes, side: 'SELL', priceMicros: 500_000n, size: 10n * ONE });
    const buyerOrder = await chain.signOrder({ signer: counterparty, tokenId: market.yes, side: 'BUY', priceMicros: 500_000n, size: 10n * ONE });
    await chain.match(asTaker, [buyerOrder], 10n * ONE, [5n * ONE]);
    assert.equal(await chain.tokensOf(wallet, market.yes), 10n * ONE);
    assert.equal(await chain.collateralOf(wallet), 50n * ONE - 8n * ONE + 5n * ONE);
  });

  it('lets its owner, and only its owner, act as the wallet (execute)', async () => {
    const { exchange } = chain.contracts;
    await chain.executeAsWallet(owner, wallet, exchange, ABIS.exchange, 'incrementNonce', []);
    assert.equal(await chain.read(exchange, ABIS.exchange, 'nonces', [wallet]), 1n);
    assert.equal(await chain.revertOf(stranger, wallet, ABIS.wallet, 'execute', [chain.contracts.collateral, 0n, '0x']), 'NotOwner');
    const order = await chain.signOrder({ signer: owner, signatureType: 1, tokenId: market.yes, side: 'SELL', priceMicros: 500_000n, size: ONE, nonce: 1n });
    await chain.send(owner, exchange, ABIS.exchange, 'cancelOrder', [order]);
    const hash = await chain.read(exchange, ABIS.exchange, 'hashOrder', [order]);
    assert.deepEqual(await chain.read(exchange, ABIS.exchange, 'orderStatus', [hash]), [true, 0n], 'the signer cancels its wallet order');
  });

  it('cancels by nonce per maker: the wallet’s for its orders of type 1, the owner’s key’s for those of type 0, though both spend the wallet', async () => {
    const { exchange } = chain.contracts;
    const ownerOrder = (signatureType: 0 | 1, nonce: bigint) => chain.signOrder({ signer: owner, signatureType, nonce, tokenId: market.yes, side: 'BUY', priceMicros: 500_000n, size: 2n * ONE });
    const revertAgainstSeller = async (order: Awaited<ReturnType<typeof ownerOrder>>) =>
      chain.matchRevert(order, [await chain.signOrder({ signer: counterparty, tokenId: market.yes, side: 'SELL', priceMicros: 500_000n, size: 2n * ONE })], ONE, [2n * ONE]);
    const [eoaOrder, walletOrder] = [await ownerOrder(0, 0n), await ownerOrder(1, 1n)];
    assert.equal(await revertAgainstSeller(eoaOrder), undefined);
    await chain.executeAsWallet(owner, wallet, exchange, ABIS.exchange, 'incrementNonce', []);
    assert.equal(await revertAgainstSeller(walletOrder), 'InvalidNonce');
    assert.equal(await revertAgainstSeller(eoaOrder), undefined, 'the wallet’s nonce is not the type 0 order’s');
    assert.equal(await chain.revertOf(wallet, exchange, ABIS.exchange, 'cancelOrder', [eoaOrder]), 'NotOrderOwner', 'nor may the wallet cancel it');
    await chain.send(owner, exchange, ABIS.exchange, 'incrementNonce', []);
    assert.equal(await revertAgainstSeller(eoaOrder), 'InvalidNonce');
  });

  async function signWithdraw(signer: HDAccount, to: Address, amount: bigint, nonce: bigint): Promise<Hex> {
    const { name, version, chainId, verifyingContract } = chain.orderDomain(false);
    return signer.signTypedData({ domain: { name, version, chainId, verifyingContract }, types: WITHDRAW_TYPES, primaryType: 'Withdraw', message: { to, amount, nonce } });
  }

  it('withdraws on its owner’s signature of Withdraw under the exchange’s domain, each nonce once, whoever sends it', async () => {
    const to = stranger.address;
    const amount = 7n * ONE;
    const signature = await signWithdraw(owner, to, amount, 1n);
    const walletBefore = await chain.collateralOf(wallet);
    const toBefore = await chain.collateralOf(to);
    assert.equal(await chain.revertOf(chain.operator, wallet, ABIS.wallet, 'withdraw', [to, amount + 1n, 1n, signature]), 'InvalidWithdrawSignature', 'another amount');
    assert.equal(await chain.revertOf(chain.operator, wallet, ABIS.wallet, 'withdraw', [to, amount, 1n, await signWithdraw(stranger, to, amount, 1n)]), 'InvalidWithdrawSignature', 'another signer');
    await chain.send(chain.operator, wallet, ABIS.wallet, 'withdraw', [to, amount, 1n, signature]);
    assert.equal(await chain.collateralOf(wallet), walletBefore - amount);
    assert.equal(await chain.collateralOf(to), toBefore + amount);
    assert.equal(await chain.revertOf(chain.operator, wallet, ABIS.wallet, 'withdraw', [to, amount, 1n, signature]), 'WithdrawNonceUsed', 'a replay');
  });

  it('takes a withdrawal signature for its recipient, on its chain, under its exchange’s domain only', async () => {
    const to = stranger.address;
    const signature = await signWithdraw(owner, to, ONE, 2n);
    assert.equal(await chain.revertOf(chain.operator, wallet, ABIS.wallet, 'withdraw', [counterparty.address, ONE, 2n, signature]), 'InvalidWithdrawSignature', 'another recipient');
    assert.equal(await chain.revertOf(chain.operator, wallet, ABIS.wallet, 'withdraw', [to, ONE, 3n, signature]), 'InvalidWithdrawSignature', 'another nonce');
    const { name, version, chainId } = chain.orderDomain(false);
    const signUnder = (domain: { name: string; version: string; chainId: number; verifyingContract: Address }) =>
      owner.signTypedData({ domain, types: WITHDRAW_TYPES, primaryType: 'Withdraw', message: { to, amount: ONE, nonce: 2n } });
    const otherChain = await signUnder({ name, version, chainId: chainId + 1, verifyingContract: chain.contracts.exchange });
    assert.equal(await chain.revertOf(chain.operator, wallet, ABIS.wallet, 'withdraw', [to, ONE, 2n, otherChain]), 'InvalidWithdrawSignature', 'another chain');
    const negRisk = await signUnder({ name, version, chainId, verifyingContract: chain.contracts.negRiskExchange });
    assert.equal(await chain.revertOf(chain.operator, wallet, ABIS.wallet, 'withdraw', [to, ONE, 2n, negRisk]), 'InvalidWithdrawSignature', 'the neg-risk exchange’s domain');
    assert.equal(await chain.revertOf(chain.operator, wallet, ABIS.wallet, 'withdraw', [to, ONE, 2n, signature]), undefined);
  });

  it('binds a withdrawal signature to this wallet: no other factory’s wallet of the same owner answers to its exchange’s domain', async () => {
    // A second factory of the same code, whoever deploys it, naming this deployment's exchanges,
    // would make the owner a second wallet that takes every withdrawal signed for this one.
    const { contracts } = chain;
    const other = (await chain.publicClient.waitForTransactionReceipt({
      hash: await chain.anvil.walletClient(stranger).deployContract({ abi: ABIS.factory, bytecode: loadArtifact('ProxyWalletFactory').bytecode, args: [contracts.conditionalTokens, contracts.collateral, stranger.address], chain: chain.anvil.chain }),
    })).contractAddress as Address;
    assert.equal(await chain.revertOf(stranger, other, ABIS.factory, 'setExchanges', [contracts.exchange, contracts.negRiskExchange]), 'ExchangeNotOfFactory');
    assert.equal(await chain.revertOf(stranger, other, ABIS.factory, 'deployWallet', [owner.address]), 'ExchangesNotSet', 'so it deploys no wallet');
    for (const exchange of [contracts.exchange, contracts.negRiskExchange]) {
      assert.equal(getAddress(await chain.read<Address>(exchange, ABIS.exchange, 'proxyWalletFactory')), getAddress(factory()), 'the real one names its factory');
    }
  });

  it('lets the operator split, merge and redeem its positions in place, and no one else', async () => {
    const { conditionalTokens } = chain.contracts;
    const held = async () => ({ collateral: await chain.collateralOf(wallet), yes: await chain.tokensOf(wallet, market.yes), no: await chain.tokensOf(wallet, market.no) });
    const start = await held();
    await chain.send(chain.operator, wallet, ABIS.wallet, 'splitPosition', [market.conditionId, 10n * ONE]);
    assert.deepEqual(await held(), { collateral: start.collateral - 10n * ONE, yes: start.yes + 10n * ONE, no: start.no + 10n * ONE });
    await chain.send(chain.operator, wallet, ABIS.wallet, 'mergePositions', [market.conditionId, 4n * ONE]);
    assert.deepEqual(await held(), { collateral: start.collateral - 6n * ONE, yes: start.yes + 6n * ONE, no: start.no + 6n * ONE });
    assert.equal(await chain.revertOf(stranger, wallet, ABIS.wallet, 'splitPosition', [market.conditionId, ONE]), 'NotOwnerOrRelayer');
    assert.equal(await chain.revertOf(stranger, wallet, ABIS.wallet, 'redeemPositions', [market.conditionId]), 'NotOwnerOrRelayer');
    await chain.send(chain.admin, conditionalTokens, ABIS.ctf, 'reportPayouts', [market.questionId, [1n, 0n]]);
    const beforeRedeem = await held();
    await chain.send(chain.operator, wallet, ABIS.wallet, 'redeemPositions', [market.conditionId]);
    assert.deepEqual(await held(), { collateral: beforeRedeem.collateral + beforeRedeem.yes, yes: 0n, no: 0n }, 'YES won: each YES pays 1');
  });

  it('pays a lost oracle bond out on a relayer\'s word while operator trading is on, and not otherwise', async () => {
    const to = stranger.address;
    const walletBefore = await chain.collateralOf(wallet);
    const toBefore = await chain.collateralOf(to);
    await chain.send(chain.operator, wallet, ABIS.wallet, 'payBond', [to, 3n * ONE]);
    assert.equal(await chain.collateralOf(wallet), walletBefore - 3n * ONE);
    assert.equal(await chain.collateralOf(to), toBefore + 3n * ONE);
    assert.equal(await chain.revertOf(stranger, wallet, ABIS.wallet, 'payBond', [to, ONE]), 'NotRelayer');
    assert.equal(await chain.revertOf(owner, wallet, ABIS.wallet, 'payBond', [to, ONE]), 'NotRelayer', 'the owner has execute');
    await chain.send(owner, wallet, ABIS.wallet, 'setOperatorTrading', [false]);
    assert.equal(await chain.revertOf(chain.operator, wallet, ABIS.wallet, 'payBond', [to, ONE]), 'OperatorTradingOff');
    await chain.send(owner, wallet, ABIS.wallet, 'setOperatorTrading', [true]);
    assert.equal(await chain.collateralOf(wallet), walletBefore - 3n * ONE);
  });

  it('is initialised once, by its factory', async () => {
    assert.equal(await chain.revertOf(stranger, wallet, ABIS.wallet, 'initialize', [stranger.address]), 'NotFactory');
    const { testClient } = chain.anvil;
    await testClient.impersonateAccount({ address: factory() });
    await testClient.setBalance({ address: factory(), value: 10n ** 18n });
    assert.equal(await chain.revertOf(factory(), wallet, ABIS.wallet, 'initialize', [stranger.address]), 'AlreadyInitialized');
    await testClient.stopImpersonatingAccount({ address: factory() });
  });

  it('factory: the admin sets the exchanges once and the relayers; a wallet needs an owner and the exchanges', async () => {
    const { admin } = chain;
    assert.equal(await chain.revertOf(admin, factory(), ABIS.factory, 'setExchanges', [stranger.address, stranger.address]), 'ExchangesAlreadySet');
    assert.equal(await chain.revertOf(stranger, factory(), ABIS.factory, 'setExchanges', [stranger.address, stranger.address]), 'NotAdmin');
    assert.equal(await chain.revertOf(stranger, factory(), ABIS.factory, 'setRelayer', [stranger.address, true]), 'NotAdmin');
    assert.equal(await chain.revertOf(admin, factory(), ABIS.factory, 'deployWallet', [zeroAddress]), 'ZeroAddress');
    const bare = await deployContracts(chain.anvil.walletClient(admin), chain.publicClient, { exchangeName: 'bare', operator: chain.operator.address, conditionalTokens: chain.contracts.conditionalTokens, collateral: chain.contracts.collateral });
    assert.equal(bare.collateral, chain.contracts.collateral, 'an existing collateral is reused');
    // Anvil answers a send a moment before it mines it: wait for the receipt rather than read it.
    const fresh = (await chain.publicClient.waitForTransactionReceipt({
      hash: await chain.anvil.walletClient(admin).deployContract({ abi: ABIS.factory, bytecode: loadArtifact('ProxyWalletFactory').bytecode, args: [bare.conditionalTokens, bare.collateral, admin.address], chain: chain.anvil.chain }),
    })).contractAddress as Address;
    assert.equal(await chain.revertOf(admin, fresh, ABIS.factory, 'deployWallet', [owner.address]), 'ExchangesNotSet');
    assert.equal(await chain.revertOf(admin, fresh, ABIS.factory, 'setExchanges', [zeroAddress, stranger.address]), 'ZeroAddress');
  });

  it('collateral: 6 decimals, named for local chains, minted only by minters the admin names', async () => {
    const { collateral } = chain.contracts;
    assert.equal(await chain.read(collateral, ABIS.collateral, 'decimals'), 6);
    assert.equal(await chain.read(collateral, ABIS.collateral, 'name'), 'USD Coin (local)');
    assert.equal(await chain.read(collateral, ABIS.collateral, 'symbol'), 'USDC');
    assert.equal(await chain.revertOf(stranger, collateral, ABIS.collateral, 'mint', [stranger.address, ONE]), 'NotMinter');
    assert.equal(await chain.revertOf(stranger, collateral, ABIS.collateral, 'setMinter', [stranger.address, true]), 'NotAdmin');
    await chain.send(chain.admin, collateral, ABIS.collateral, 'setMinter', [stranger.address, true]);
    assert.equal(await chain.revertOf(stranger, collateral, ABIS.collateral, 'mint', [stranger.address, ONE]), undefined);
  });
});
