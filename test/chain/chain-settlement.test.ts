import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, createWalletClient, decodeEventLog, encodeFunctionData, getAddress, http, type Address, type Hex } from 'viem';
import { auditExchange } from '../../src/cli/audit-exchange.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { createPublishedEvent, type PublishedEvent } from '../helpers/catalogue.ts';
import { get } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { expectAuditClean, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';

const ONE = 1_000_000n;
const exchangeAbi = loadArtifact('PmxExchange').abi;

// Trades settle on the embedded chain (issue 39, EXTENSIONS.md section 14): every acknowledged
// trade's transaction hash is a mined transaction whose logs carry that fill.
describe('settlement on the embedded chain (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
  let server: TestServer;
  let chain: ReturnType<typeof createPublicClient>;
  let event: PublishedEvent;
  let alice: Trader;
  let bob: Trader;
  const market = () => event.markets[0]!;

  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded' });
    chain = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) });
    event = await createPublishedEvent(server, { markets: 1 });
    [alice, bob] = [await newTrader(server, { fund: '100' }), await newTrader(server, { fund: '100' })];
  });
  after(async () => {
    await server?.close();
  });

  /** Alice's trades, newest first. */
  const alicesTrades = async () => (await get(server.api(`/trades?user=${alice.proxyWallet}`))).body.data as any[];

  async function tokensOnChain(wallet: string, tokenId: string): Promise<bigint> {
    return (await chain.readContract({ address: server.ctx.chain.deployed!.conditionalTokens, abi: loadArtifact('ConditionalTokens').abi, functionName: 'balanceOf', args: [getAddress(wallet), BigInt(tokenId)] })) as bigint;
  }

  async function collateralOnChain(wallet: string): Promise<bigint> {
    return (await chain.readContract({ address: server.ctx.chain.deployed!.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'balanceOf', args: [getAddress(wallet)] })) as bigint;
  }

  /** The order hashes of the OrderFilled logs of a mined transaction. */
  async function filledOrderHashes(txHash: Hex): Promise<string[]> {
    const receipt = await chain.getTransactionReceipt({ hash: txHash });
    assert.equal(receipt.status, 'success');
    return receipt.logs
      .filter((log) => getAddress(log.address) === getAddress(server.ctx.chain.deployed!.exchange as Address))
      .map((log) => decodeEventLog({ abi: exchangeAbi, data: log.data, topics: log.topics }))
      .filter((decoded) => decoded.eventName === 'OrderFilled')
      .map((decoded) => String((decoded.args as unknown as { orderHash: Hex }).orderHash).toLowerCase());
  }

  it('a MINT of two signed orders is mined in a matchOrders transaction, confirmed, and moves the tokens on chain', async () => {
    const maker = await placeOrder(server, alice, { tokenId: market().tokenId1, side: 'BUY', price: '0.4', size: '10' });
    assert.equal(maker.status, 200, JSON.stringify(maker.body));
    const taker = await placeOrder(server, bob, { tokenId: market().tokenId2, side: 'BUY', price: '0.6', size: '10' });
    assert.equal(taker.body.status, 'EXECUTED', JSON.stringify(taker.body));
    await server.ctx.trading.engine.settle();

    const [trade] = await alicesTrades();
    assert.equal(trade.status, 'CONFIRMED');
    assert.match(trade.txHash, /^0x[0-9a-f]{64}$/);
    const filled = await filledOrderHashes(trade.txHash);
    assert.ok(filled.includes(maker.body.hash.toLowerCase()) && filled.includes(taker.body.hash.toLowerCase()), `fills ${filled}`);
    assert.equal(await tokensOnChain(alice.proxyWallet, market().tokenId1), 10n * ONE);
    assert.equal(await tokensOnChain(bob.proxyWallet, market().tokenId2), 10n * ONE);
    // 4 and 6 USDC went into the complete sets (no fees on the test market).
    assert.equal(await collateralOnChain(alice.proxyWallet), 96n * ONE);
    assert.equal(await collateralOnChain(bob.proxyWallet), 94n * ONE);
    await expectAuditClean(server);
  });

  it('a COMPLEMENTARY trade of the tokens bought on chain settles too', async () => {
    const maker = await placeOrder(server, alice, { tokenId: market().tokenId1, side: 'SELL', price: '0.5', size: '4' });
    assert.equal(maker.status, 200, JSON.stringify(maker.body));
    const taker = await placeOrder(server, bob, { tokenId: market().tokenId1, side: 'BUY', price: '0.5', size: '4' });
    assert.equal(taker.body.status, 'EXECUTED', JSON.stringify(taker.body));
    await server.ctx.trading.engine.settle();
    const trade = (await alicesTrades()).find((t) => t.status === 'CONFIRMED' && t.size === '4');
    assert.ok(trade, 'the trade is confirmed');
    assert.ok((await filledOrderHashes(trade.txHash)).includes(maker.body.hash.toLowerCase()));
    assert.equal(await tokensOnChain(alice.proxyWallet, market().tokenId1), 6n * ONE);
    assert.equal(await tokensOnChain(bob.proxyWallet, market().tokenId1), 4n * ONE);
    await expectAuditClean(server);
  });

  it('unsigned orders (an API key, no signature) settle on the operator\'s word, and a sweep of several makers is one match', async () => {
    const makers = [];
    for (const price of ['0.3', '0.35']) {
      const maker = await placeOrder(server, alice, { tokenId: market().tokenId1, side: 'BUY', price, size: '5', signed: false });
      assert.equal(maker.status, 200, JSON.stringify(maker.body));
      assert.equal(maker.body.signature, '');
      makers.push(maker.body);
    }
    const taker = await placeOrder(server, bob, { tokenId: market().tokenId2, side: 'BUY', price: '0.7', size: '10', signed: false });
    assert.equal(taker.body.status, 'EXECUTED', JSON.stringify(taker.body));
    await server.ctx.trading.engine.settle();
    const trades = (await alicesTrades()).filter((t) => t.size === '5');
    assert.deepEqual(trades.map((t) => t.status), ['CONFIRMED', 'CONFIRMED']);
    assert.equal(trades[0].txHash, trades[1].txHash, 'one matchOrders for the taker and both makers');
    const filled = await filledOrderHashes(trades[0].txHash);
    for (const order of [...makers, taker.body]) assert.ok(filled.includes(order.hash.toLowerCase()), `${order.hash} filled`);
    assert.equal(await tokensOnChain(alice.proxyWallet, market().tokenId1), 16n * ONE);
    await expectAuditClean(server);
  });

  it('orders signed as the EOA (signatureType 0, order builders\' default) settle from the signer\'s proxy wallet, as the ledger reserves them', async () => {
    const walletTokens = await tokensOnChain(alice.proxyWallet, market().tokenId1);
    const walletCollateral = await collateralOnChain(bob.proxyWallet);
    const maker = await placeOrder(server, alice, { tokenId: market().tokenId1, side: 'SELL', price: '0.45', size: '2', signatureType: 0 });
    assert.equal(maker.status, 200, JSON.stringify(maker.body));
    assert.equal(maker.body.maker.toLowerCase(), alice.address.toLowerCase(), 'the order names the EOA as maker');
    const taker = await placeOrder(server, bob, { tokenId: market().tokenId1, side: 'BUY', price: '0.45', size: '2', signatureType: 0 });
    assert.equal(taker.body.status, 'EXECUTED', JSON.stringify(taker.body));
    await server.ctx.trading.engine.settle();
    const trade = (await alicesTrades()).find((t) => t.size === '2');
    assert.equal(trade?.status, 'CONFIRMED', JSON.stringify(trade));
    const filled = await filledOrderHashes(trade.txHash);
    for (const order of [maker.body, taker.body]) assert.ok(filled.includes(order.hash.toLowerCase()), `${order.hash} filled`);
    assert.equal(await tokensOnChain(alice.proxyWallet, market().tokenId1), walletTokens - 2n * ONE);
    assert.equal(await collateralOnChain(bob.proxyWallet), walletCollateral - 900_000n);
    for (const eoa of [alice.address, bob.address]) assert.equal(await collateralOnChain(eoa), 0n, 'nothing moved from or to the EOA');
    await expectAuditClean(server);
  });

  it('the audit holds every settled trade to its transaction: one that names a hash not on chain, or another match\'s transaction, is named', async () => {
    // The COMPLEMENTARY trade is alone in its transaction; the MINT's fills two other orders.
    const trades = await alicesTrades();
    const [moved, mint] = [trades.find((t) => t.size === '4')!, trades.find((t) => t.size === '10')!];
    const db = server.ctx.store.db;
    const nameTransaction = (txHash: string) => db.updateTable('trades').set({ tx_hash: txHash }).where('id', '=', moved.id).execute();
    const chainTrades = async () => {
      const { embedded, deployed } = server.ctx.chain;
      const report = await auditExchange(db, { onChain: true, chain: { url: embedded!.url, contracts: deployed! } });
      return report.violations.filter((v) => v.invariant === 'chain-trades').map((v) => v.detail).sort();
    };
    await server.ctx.trading.engine.tablesHoldAll();
    try {
      const unknown = `0x${'ab'.repeat(32)}`;
      await nameTransaction(unknown);
      assert.deepEqual(await chainTrades(), [`transaction ${unknown}: not on chain, named by trade ${moved.id}`]);
      // In the MINT's transaction the moved trade's two orders filled nothing.
      await nameTransaction(mint.txHash);
      const breaches = await chainTrades();
      assert.equal(breaches.length, 2, JSON.stringify(breaches));
      for (const breach of breaches) assert.match(breach, new RegExp(`^transaction ${mint.txHash}: order 0x[0-9a-f]{64} filled 0 tokens on chain, 4000000 by its trades \\(trade ${moved.id}\\)$`));
    } finally {
      await nameTransaction(moved.txHash);
    }
    assert.deepEqual(await chainTrades(), []);
  });
});

describe('20 confirmations on the embedded chain: a reorg, a wallet emptied (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
  let server: TestServer;
  before(async () => {
    // Confirmations far enough away that the test rolls the chain back while the trade is MINED, and that the indexer hears late of a transfer.
    server = await startTestServer({ CHAIN: 'embedded', CONFIRMATIONS: '20' });
  });
  after(async () => {
    await server?.close();
  });

  it('takes a MINED trade back to MATCHED, and the same transaction mines it again, once', async () => {
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const [alice, bob] = [await newTrader(server, { fund: '10' }), await newTrader(server, { fund: '10' })];
    const statuses: string[] = [];
    // The rollback must come within the trade's 20 confirmations (empty blocks every 500 ms): it
    // follows the MINED announcement itself, not a poll of the trades that a loaded machine delays.
    let minedNow!: (trade: { txHash: Hex }) => void;
    const minedAnnounced = new Promise<{ txHash: Hex }>((resolve) => { minedNow = resolve; });
    const unsubscribe = server.ctx.events.subscribe('trade-update', ({ trade }) => {
      const { status } = trade as { status: string; txHash: Hex };
      if (status === 'MINED' && !statuses.includes('MINED')) minedNow(trade as { txHash: Hex });
      statuses.push(status);
    });
    const chain = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) });
    assert.equal((await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '4' })).status, 200);
    assert.equal((await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '4' })).body.status, 'EXECUTED');
    const mined = await minedAnnounced;
    const receipt = await chain.getTransactionReceipt({ hash: mined.txHash });
    const head = await chain.getBlockNumber();
    // Drop every block from the trade's on: its transaction leaves the chain.
    await chain.request({ method: 'anvil_rollback' as never, params: [Number(head - receipt.blockNumber + 1n)] as never });
    await server.ctx.trading.engine.settle();
    unsubscribe();
    assert.deepEqual(statuses.filter((s, i) => s !== statuses[i - 1]), ['MATCHED', 'MINED', 'MATCHED', 'MINED', 'CONFIRMED']);
    const [trade] = (await get(server.api(`/trades?user=${alice.proxyWallet}`))).body.data;
    assert.equal(trade.txHash, mined.txHash, 'the same signed transaction, mined again');
    assert.equal((await chain.getTransactionReceipt({ hash: trade.txHash })).status, 'success');
    const tokens = await chain.readContract({ address: server.ctx.chain.deployed!.conditionalTokens, abi: loadArtifact('ConditionalTokens').abi, functionName: 'balanceOf', args: [getAddress(alice.proxyWallet), BigInt(market.tokenId1)] });
    assert.equal(tokens, 4n * ONE, 'filled once');
    await expectAuditClean(server);
  });

  // With 20 confirmations the indexer (chain-indexer.test.ts) hears of the transfer out seconds
  // after the match has failed on chain: what happens before it does.
  it('a wallet emptied on chain fails its match: the trade is FAILED, both reservations return, and its open order is cancelled UNFUNDED', async () => {
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const [carol, bob] = [await newTrader(server, { fund: '20' }), await newTrader(server, { fund: '20' })];
    const chain = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) });
    const updates: { type: string; reason?: string; order: any }[] = [];
    const unsubscribe = server.ctx.events.subscribe('order-update', (update) => updates.push(update));
    // Carol's owner moves everything out of her wallet, behind the exchange's back.
    const url = server.ctx.chain.embedded!.url;
    await chain.request({ method: 'anvil_setBalance' as never, params: [carol.address, '0xDE0B6B3A7640000'] as never });
    const owner = createWalletClient({ account: carol.session.account, transport: http(url) });
    const deployed = server.ctx.chain.deployed!;
    const transfer = encodeFunctionData({ abi: loadArtifact('LocalCollateral').abi, functionName: 'transfer', args: [carol.address, 20n * ONE] });
    const moved = await owner.writeContract({ chain: null, address: getAddress(carol.proxyWallet), abi: loadArtifact('ProxyWallet').abi, functionName: 'execute', args: [deployed.collateral, 0n, transfer] });
    assert.equal((await chain.waitForTransactionReceipt({ hash: moved })).status, 'success');

    const resting = await placeOrder(server, carol, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '20' });
    assert.equal(resting.status, 200, JSON.stringify(resting.body));
    const taker = await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '10' });
    assert.equal(taker.body.status, 'EXECUTED', JSON.stringify(taker.body));
    await server.ctx.trading.engine.settle();
    unsubscribe();

    const trade = (await get(server.api(`/trades?user=${carol.proxyWallet}`))).body.data[0];
    assert.equal(trade.status, 'FAILED');
    const cancelled = updates.find((u) => u.type === 'CANCELLATION' && u.order.id === resting.body.id);
    assert.equal(cancelled?.reason, 'UNFUNDED');
    assert.equal((await carol.call('GET', `/orders/${resting.body.id}`)).body.status, 'CANCELLED');
    // Nothing of Carol's 20 (ledger) is locked any more; Bob's 5 came back to him.
    assert.equal((await carol.call('GET', '/account/balance')).body.collateral.locked, '0');
    assert.equal((await bob.call('GET', '/account/balance')).body.collateral.locked, '0');
    // The audit waits for the indexer, which then debits what left.
    await expectAuditClean(server);
    const onChain = await chain.readContract({ address: deployed.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'balanceOf', args: [getAddress(carol.proxyWallet)] });
    const seen = `chain ${onChain}, head ${await chain.getBlockNumber()}, transfer in ${(await chain.getTransactionReceipt({ hash: moved })).blockNumber}`;
    assert.equal((await carol.call('GET', '/account/balance')).body.collateral.balance, '0', seen);
  });
});
