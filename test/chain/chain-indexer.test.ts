import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, createWalletClient, encodeFunctionData, getAddress, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { auditExchange } from '../../src/cli/audit-exchange.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { createPublishedEvent, type PublishedEvent } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { expectAuditClean, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';

const ONE = 1_000_000n;
const collateralAbi = loadArtifact('LocalCollateral').abi;
const ctfAbi = loadArtifact('ConditionalTokens').abi;
const walletAbi = loadArtifact('ProxyWallet').abi;

// Balances follow the chain (issue 39, EXTENSIONS.md section 14 "Balances"): the leader's indexer
// turns transfers into and out of users' wallets that the exchange did not send into the ledger.
describe('balances follow the chain (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
  let server: TestServer;
  let chain: ReturnType<typeof createPublicClient>;
  let event: PublishedEvent;
  let outsider: PrivateKeyAccount;
  const market = () => event.markets[0]!;
  const deployed = () => server.ctx.chain.deployed!;
  const url = () => server.ctx.chain.embedded!.url;

  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded' });
    chain = createPublicClient({ transport: http(url()) });
    event = await createPublishedEvent(server, { markets: 1 });
    // Someone who is no user of the exchange, holding collateral minted by the operator (the faucet's minter).
    outsider = privateKeyToAccount(generatePrivateKey());
    await gas(outsider.address);
    await server.ctx.chain.operator!.exclusive((steps) => steps.send({ address: deployed().collateral, abi: collateralAbi, functionName: 'mint', args: [outsider.address, 1_000n * ONE] }));
  });
  after(async () => {
    await server?.close();
  });

  async function gas(address: Address): Promise<void> {
    await chain.request({ method: 'anvil_setBalance' as never, params: [address, '0xDE0B6B3A7640000'] as never });
  }

  async function mined(hash: Hex): Promise<void> {
    assert.equal((await chain.waitForTransactionReceipt({ hash })).status, 'success');
  }

  /** The outsider sends collateral to an address. */
  async function deposit(to: Address, amount: bigint): Promise<void> {
    const client = createWalletClient({ account: outsider, transport: http(url()) });
    await mined(await client.writeContract({ chain: null, address: deployed().collateral, abi: collateralAbi, functionName: 'transfer', args: [to, amount] }));
  }

  /** The wallet's owner calls `target` as the wallet (`ProxyWallet.execute`), behind the exchange's back. */
  async function asWallet(trader: Trader, target: Address, data: Hex): Promise<void> {
    await gas(trader.address);
    const owner = createWalletClient({ account: trader.session.account, transport: http(url()) });
    await mined(await owner.writeContract({ chain: null, address: getAddress(trader.proxyWallet), abi: walletAbi, functionName: 'execute', args: [target, 0n, data] }));
  }

  const sendCollateral = (from: Trader, to: Address, amount: bigint) =>
    asWallet(from, deployed().collateral, encodeFunctionData({ abi: collateralAbi, functionName: 'transfer', args: [to, amount] }));

  const sendTokens = (from: Trader, to: Address, tokenId: string, amount: bigint) =>
    asWallet(from, deployed().conditionalTokens, encodeFunctionData({ abi: ctfAbi, functionName: 'safeTransferFrom', args: [getAddress(from.proxyWallet), to, BigInt(tokenId), amount, '0x'] }));

  /** GET /account/balance's collateral, in whole units. */
  async function balance(trader: Trader): Promise<{ balance: number; locked: number; available: number }> {
    const response = await trader.call('GET', '/account/balance');
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const row = response.body.collateral;
    return { balance: Number(row.balance), locked: Number(row.locked), available: Number(row.available) };
  }

  async function tokensOnChain(wallet: string, tokenId: string): Promise<bigint> {
    return (await chain.readContract({ address: deployed().conditionalTokens, abi: ctfAbi, functionName: 'balanceOf', args: [getAddress(wallet), BigInt(tokenId)] })) as bigint;
  }

  it('a deposit sent straight to a wallet on chain is credited, to a funded user and to one the ledger has never seen', async () => {
    const alice = await newTrader(server, { fund: '10' });
    const newcomer = await newTrader(server);
    await deposit(getAddress(alice.proxyWallet), 25n * ONE);
    await deposit(getAddress(newcomer.proxyWallet), 7n * ONE);
    await server.ctx.trading.engine.chainIndexed();
    assert.deepEqual(await balance(alice), { balance: 35, locked: 0, available: 35 });
    assert.deepEqual(await balance(newcomer), { balance: 7, locked: 0, available: 7 });
    await expectAuditClean(server);
  });

  it('a transfer out by the owner lowers the balance and cancels the uncovered open orders (UNFUNDED, newest first), keeping the covered ones', async () => {
    const dave = await newTrader(server, { fund: '30' });
    const orders = [];
    for (let i = 0; i < 3; i += 1) {
      const placed = await placeOrder(server, dave, { tokenId: market().tokenId1, side: 'BUY', price: '0.5', size: '20' });
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
      orders.push(placed.body);
    }
    const updates: { type: string; reason?: string; order: any }[] = [];
    const unsubscribe = server.ctx.events.subscribe('order-update', (update) => updates.push(update));
    // All 30 reserved, 15 sent away: the newest two orders go (10 each), the oldest stays covered.
    await sendCollateral(dave, outsider.address, 15n * ONE);
    await server.ctx.trading.engine.chainIndexed();
    unsubscribe();
    const cancelled = updates.filter((u) => u.type === 'CANCELLATION');
    assert.deepEqual(cancelled.map((u) => [u.order.id, u.reason]), [[orders[2].id, 'UNFUNDED'], [orders[1].id, 'UNFUNDED']]);
    assert.equal((await dave.call('GET', `/orders/${orders[0].id}`)).body.status, orders[0].status, 'the oldest order is still open');
    assert.deepEqual(await balance(dave), { balance: 15, locked: 10, available: 5 });
    await expectAuditClean(server);
  });

  it('outcome tokens sent out and in move the ledger: to another user, to an outsider, back from the outsider, and minted by an outsider\'s own split', async () => {
    const [erin, frank, grace] = [await newTrader(server, { fund: '10' }), await newTrader(server, { fund: '10' }), await newTrader(server, { fund: '1' })];
    // Above Dave's bid of 0.5, still resting from the test before.
    assert.equal((await placeOrder(server, erin, { tokenId: market().tokenId1, side: 'BUY', price: '0.6', size: '10' })).status, 200);
    assert.equal((await placeOrder(server, frank, { tokenId: market().tokenId2, side: 'BUY', price: '0.4', size: '10' })).body.status, 'EXECUTED');
    await server.ctx.trading.engine.settle();
    assert.equal(await tokensOnChain(erin.proxyWallet, market().tokenId1), 10n * ONE);
    // A resting SELL of 6 reserves 6 of Erin's 10: sending 3 to Grace leaves it covered, 2 more to the outsider does not.
    const sell = await placeOrder(server, erin, { tokenId: market().tokenId1, side: 'SELL', price: '0.9', size: '6' });
    assert.equal(sell.status, 200, JSON.stringify(sell.body));
    await sendTokens(erin, getAddress(grace.proxyWallet), market().tokenId1, 3n * ONE);
    await server.ctx.trading.engine.chainIndexed();
    assert.equal((await erin.call('GET', `/orders/${sell.body.id}`)).body.status, sell.body.status, 'still covered');
    await sendTokens(erin, outsider.address, market().tokenId1, 2n * ONE);
    await server.ctx.trading.engine.chainIndexed();
    assert.equal((await erin.call('GET', `/orders/${sell.body.id}`)).body.status, 'CANCELLED');
    // The outsider sends one token on to Grace.
    const client = createWalletClient({ account: outsider, transport: http(url()) });
    await mined(await client.writeContract({ chain: null, address: deployed().conditionalTokens, abi: ctfAbi, functionName: 'safeTransferFrom', args: [outsider.address, getAddress(grace.proxyWallet), BigInt(market().tokenId1), ONE, '0x'] }));
    await server.ctx.trading.engine.chainIndexed();
    const tokens = (trader: Trader) => server.ctx.trading.engine.reads.balances(trader.proxyWallet.toLowerCase()).tokens.find((t) => t.tokenId === market().tokenId1);
    assert.deepEqual(tokens(erin), { tokenId: market().tokenId1, balance: 5n * ONE, locked: 0n, available: 5n * ONE });
    assert.equal(tokens(grace)?.balance, 4n * ONE);
    await expectAuditClean(server);
    // The outsider splits collateral of its own on ConditionalTokens and sends Grace 3: the 1 it still had from Erin, and 2 the exchange never saw.
    await mined(await client.writeContract({ chain: null, address: deployed().collateral, abi: collateralAbi, functionName: 'approve', args: [deployed().conditionalTokens, 10n * ONE] }));
    const zero = `0x${'00'.repeat(32)}` as const;
    await mined(await client.writeContract({ chain: null, address: deployed().conditionalTokens, abi: ctfAbi, functionName: 'splitPosition', args: [deployed().collateral, zero, market().conditionId as Hex, [1n, 2n], 10n * ONE] }));
    await mined(await client.writeContract({ chain: null, address: deployed().conditionalTokens, abi: ctfAbi, functionName: 'safeTransferFrom', args: [outsider.address, getAddress(grace.proxyWallet), BigInt(market().tokenId1), 3n * ONE, '0x'] }));
    await server.ctx.trading.engine.chainIndexed();
    assert.equal(tokens(grace)?.balance, 7n * ONE);
    await expectAuditClean(server);
  });

  it('an audit that cannot reach the chain says so rather than pass', async () => {
    await server.ctx.trading.engine.tablesHoldAll();
    const report = await auditExchange(server.ctx.store.db, { onChain: true, chain: { url: 'http://127.0.0.1:1/', contracts: deployed() } });
    assert.equal(report.ok, false);
    assert.deepEqual(report.violations.map((v) => v.invariant), ['chain-unreachable']);
  });

  // Last: it leaves the chain and the ledger apart for good.
  it('the audit names a wallet whose chain balance differs from the ledger', async () => {
    const henry = await newTrader(server, { fund: '5' });
    // Minted by the operator, whose transactions the indexer leaves to the ledger: the ledger never hears of it.
    await server.ctx.chain.operator!.exclusive((steps) => steps.send({ address: deployed().collateral, abi: collateralAbi, functionName: 'mint', args: [getAddress(henry.proxyWallet), 2n * ONE] }));
    await server.ctx.trading.engine.chainIndexed();
    await server.ctx.trading.engine.tablesHoldAll();
    const report = await auditExchange(server.ctx.store.db, { onChain: true, chain: { url: url(), contracts: deployed() } });
    assert.equal(report.ok, false);
    const found = report.violations.filter((v) => v.invariant === 'chain-balances');
    assert.equal(found.length, 1, JSON.stringify(report.violations));
    assert.match(found[0]!.detail, new RegExp(henry.proxyWallet.toLowerCase()));
    assert.match(found[0]!.detail, /collateral/);
  });
});
