import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { io as connect, type Socket } from 'socket.io-client';
import { createPublicClient, createWalletClient, encodeFunctionData, getAddress, http, maxUint256, type Hex } from 'viem';
import type { OrderUpdateMessage } from '../../src/contract/realtime.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { createPublishedEvent, type PublishedEvent } from '../helpers/catalogue.ts';
import { get } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { expectAuditClean, newTrader, placeOrder, type OrderSpec, type Trader } from '../helpers/trader.ts';

const collateralAbi = loadArtifact('LocalCollateral').abi;
const ctfAbi = loadArtifact('ConditionalTokens').abi;
const walletAbi = loadArtifact('ProxyWallet').abi;

interface CancelledUpdate {
  type: string;
  reason?: string;
  order: { id: string; status: string };
}

// A wallet's owner revokes the exchange's approval behind its back (EXTENSIONS.md section 14: "An
// order uncovered by a transfer out or a revoked approval is cancelled"): the indexer reads it, the
// orders that need it are cancelled UNFUNDED, new ones are refused until the owner approves again.
describe('revoked approvals cancel the orders that need them (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
  let server: TestServer;
  let event: PublishedEvent;
  let wendy: Trader;
  let feed: Socket;
  const updates: CancelledUpdate[] = [];
  /** Her orders left open by the first test, for the second. */
  const left = { asks: [] as string[], bids: [] as string[] };
  const market = () => event.markets[0]!;
  const deployed = () => server.ctx.chain.deployed!;

  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded' });
    event = await createPublishedEvent(server, { markets: 1 });
    wendy = await newTrader(server, { fund: '50' });
    // Outcome tokens to sell: a complete set of 10, split on chain in her wallet.
    assert.equal((await wendy.call('POST', `/markets/${market().id}/split`, { amount: '10' })).status, 200);
    feed = await userFeed(wendy);
    feed.on('order-update', (update: OrderUpdateMessage) => updates.push(update as CancelledUpdate));
  });
  after(async () => {
    feed?.close();
    await server?.close();
  });

  /** Her /user socket, signed with her API key as a client signs it. */
  async function userFeed(trader: Trader): Promise<Socket> {
    const timestamp = (await get(server.api('/exchange'))).body.serverTime as number;
    const signature = createHmac('sha256', trader.creds.secret).update(`${timestamp}GET/user`).digest('hex');
    const socket = connect(`${server.url}/user`, { transports: ['websocket'], forceNew: true, auth: { apiKey: trader.creds.apiKey, passphrase: trader.creds.passphrase, timestamp, signature } });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  /**
   * The owner calls her wallet's `functionName`, as only its key can, through the exchange's /rpc
   * and with the gas her credit gave her on the local chain (chain/owner-gas.ts), and the indexer
   * reads the blocks.
   */
  async function asOwner(functionName: 'execute' | 'setOperatorTrading', args: readonly unknown[]): Promise<void> {
    const chain = createPublicClient({ transport: http(`${server.url}/rpc`) });
    const owner = createWalletClient({ account: wendy.session.account, transport: http(`${server.url}/rpc`) });
    const hash = await owner.writeContract({ chain: null, address: getAddress(wendy.proxyWallet), abi: walletAbi, functionName, args });
    assert.equal((await chain.waitForTransactionReceipt({ hash })).status, 'success');
    await server.ctx.trading.engine.chainIndexed();
  }

  /** The owner calls `target` as the wallet (`ProxyWallet.execute`). */
  const asWallet = (target: Hex, data: Hex) => asOwner('execute', [target, 0n, data]);

  const approveCollateral = (amount: bigint) =>
    asWallet(deployed().collateral, encodeFunctionData({ abi: collateralAbi, functionName: 'approve', args: [deployed().exchange, amount] }));
  const approveTokens = (approved: boolean) =>
    asWallet(deployed().conditionalTokens, encodeFunctionData({ abi: ctfAbi, functionName: 'setApprovalForAll', args: [deployed().exchange, approved] }));

  async function rest(spec: Omit<OrderSpec, 'tokenId'>): Promise<string> {
    const placed = await placeOrder(server, wendy, { tokenId: market().tokenId1, ...spec });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    assert.equal(placed.body.status, 'PENDING');
    return placed.body.id;
  }

  /** The socket's UNFUNDED cancellations of these orders, once all have come. */
  async function cancelledOverSocket(ids: string[]): Promise<void> {
    const until = Date.now() + 10_000;
    const seen = () => ids.filter((id) => updates.some((u) => u.type === 'CANCELLATION' && u.order.id === id && u.reason === 'UNFUNDED'));
    while (seen().length < ids.length) {
      if (Date.now() > until) assert.fail(`UNFUNDED cancellations over /user: ${seen().length} of ${ids.length}; got ${JSON.stringify(updates.map((u) => [u.type, u.order.id, u.reason]))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function openIds(): Promise<string[]> {
    const open = await wendy.call('GET', '/orders');
    assert.equal(open.status, 200, JSON.stringify(open.body));
    return open.body.map((order: { id: string }) => order.id).sort();
  }

  async function cancelledIds(): Promise<string[]> {
    const page = await wendy.call('GET', '/orders/paginated?status=CANCELLED');
    assert.equal(page.status, 200, JSON.stringify(page.body));
    return page.body.data.map((order: { id: string }) => order.id);
  }

  function assertRefused(refused: { status: number; body: any }, asset: RegExp): void {
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'INSUFFICIENT_BALANCE');
    assert.equal(refused.body.statusCode, 400);
    assert.match(refused.body.message, asset);
  }

  it('collateral approve(exchange, 0) cancels her BUY orders UNFUNDED and keeps her SELLs; a new BUY is refused until she approves again', async () => {
    const bids = [await rest({ side: 'BUY', price: '0.3', size: '10' }), await rest({ side: 'BUY', price: '0.2', size: '10' })];
    const ask = await rest({ side: 'SELL', price: '0.9', size: '5' });
    await approveCollateral(0n);
    await cancelledOverSocket(bids);
    assert.deepEqual(await openIds(), [ask]);
    for (const id of bids) assert.ok((await cancelledIds()).includes(id), `order ${id} listed CANCELLED`);
    for (const id of bids) assert.equal((await wendy.call('GET', `/orders/${id}`)).body.status, 'CANCELLED');
    const balance = (await wendy.call('GET', '/account/balance')).body.collateral;
    assert.equal(balance.locked, '0', 'the bids\' reservations are released');
    // Available is what she holds and has approved (EXTENSIONS.md section 14): nothing, while revoked.
    assert.deepEqual({ balance: balance.balance, available: balance.available }, { balance: '40', available: '0' });

    assertRefused(await placeOrder(server, wendy, { tokenId: market().tokenId1, side: 'BUY', price: '0.3', size: '1' }), /revoked the exchange's collateral approval/);
    // A SELL needs the outcome-token approval only, still given.
    left.asks = [ask, await rest({ side: 'SELL', price: '0.95', size: '1' })];

    await approveCollateral(maxUint256);
    assert.equal((await wendy.call('GET', '/account/balance')).body.collateral.available, '40', 'approved again, all of it');
    left.bids = [await rest({ side: 'BUY', price: '0.3', size: '1' })];
    await expectAuditClean(server);
  });

  it('setApprovalForAll(exchange, false) cancels her SELL orders UNFUNDED and keeps her BUYs; a new SELL is refused until she approves again', async () => {
    const { asks, bids } = left;
    assert.deepEqual(await openIds(), [...asks, ...bids].sort());
    await approveTokens(false);
    await cancelledOverSocket(asks);
    assert.deepEqual(await openIds(), bids);
    for (const id of asks) assert.ok((await cancelledIds()).includes(id), `order ${id} listed CANCELLED`);
    const tokens = (await wendy.call('GET', '/account/balance')).body.tokens.find((t: { tokenId: string }) => t.tokenId === market().tokenId1);
    assert.equal(tokens.locked, '0', 'the asks\' reservations are released');
    assert.deepEqual({ balance: tokens.balance, available: tokens.available }, { balance: '10', available: '0' });

    assertRefused(await placeOrder(server, wendy, { tokenId: market().tokenId1, side: 'SELL', price: '0.9', size: '1' }), /revoked the exchange's outcome-tokens approval/);
    await approveTokens(true);
    const approved = (await wendy.call('GET', '/account/balance')).body.tokens.find((t: { tokenId: string }) => t.tokenId === market().tokenId1);
    assert.equal(approved.available, '10');
    await rest({ side: 'SELL', price: '0.9', size: '1' });
    await expectAuditClean(server);
  });

  it('setOperatorTrading(false) cancels her unsigned orders UNFUNDED and keeps her signed ones; a new unsigned order is ORDER_SIGNATURE_REQUIRED until she turns it on again', async () => {
    for (const id of await openIds()) assert.equal((await wendy.call('POST', `/orders/${id}/cancel`)).status, 200);
    const unsigned = [await rest({ side: 'BUY', price: '0.3', size: '2', signed: false }), await rest({ side: 'SELL', price: '0.9', size: '2', signed: false })];
    const signed = [await rest({ side: 'BUY', price: '0.2', size: '2' }), await rest({ side: 'SELL', price: '0.95', size: '2' })];
    await asOwner('setOperatorTrading', [false]);
    await cancelledOverSocket(unsigned);
    assert.deepEqual(await openIds(), [...signed].sort());

    const refused = await placeOrder(server, wendy, { tokenId: market().tokenId1, side: 'BUY', price: '0.3', size: '1', signed: false });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'ORDER_SIGNATURE_REQUIRED');
    assert.match(refused.body.message, /turned operator trading off/);
    await rest({ side: 'BUY', price: '0.25', size: '1' });

    await asOwner('setOperatorTrading', [true]);
    await rest({ side: 'BUY', price: '0.3', size: '1', signed: false });
    await expectAuditClean(server);
  });
});
