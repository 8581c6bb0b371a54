import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CreateOrderRequest } from '../../src/orders/order-entry.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { callerOf, expectAuditClean, newTrader, orderBody, type Trader } from '../helpers/trader.ts';

/**
 * Balance moves are engine commands (src/engine/state/balance-commands.ts): they share journal
 * records with orders, in the order they arrived, and each sees what the commands before it did.
 */
describe('engine: balance commands beside orders', () => {
  let server: TestServer;
  let market: PublishedMarket;
  /** Commands per durable record, to show which commands shared one. */
  const records: number[] = [];
  before(async () => {
    server = await startTestServer();
    market = (await createPublishedEvent(server)).markets[0]!;
    server.ctx.events.subscribe('engine-batch', ({ commands }) => records.push(commands));
  });
  after(async () => {
    await server.close();
  });

  const account = (trader: Trader) => trader.proxyWallet.toLowerCase();
  const collateral = (trader: Trader) => server.ctx.trading.engine.reads.balances(account(trader)).collateral;

  it('a refused command changes nothing, and the commands of its record go on', async () => {
    const [alice, bob] = await Promise.all([newTrader(server), newTrader(server)]);
    const { engine } = server.ctx.trading;
    records.length = 0;
    // Submitted in one turn: one record holds both.
    const refused = engine.split({ account: account(alice), marketId: market.id, amount: 7_000_000n });
    const passing = engine.credit({ account: account(bob), amount: 3_000_000n, reason: 'DEPOSIT', ref: 'test' });
    assert.deepEqual(await refused, { ok: false, code: 'INSUFFICIENT_BALANCE', message: `insufficient collateral balance: 0 available, 7 needed` });
    const passed = await passing;
    assert.ok(passed.ok);
    assert.equal(passed.balance, 3_000_000n);
    assert.ok(records.some((commands) => commands >= 2), `both in one record: ${records}`);
    assert.equal(collateral(alice).balance, 0n);
    assert.equal(collateral(bob).balance, 3_000_000n);
    await expectAuditClean(server);
  });

  it('a command sees the reservations of the orders before it in its record, and the orders after it see what it moved', async () => {
    const trader = await newTrader(server, { fund: '10' });
    const { engine, orderEntry } = server.ctx.trading;
    const buy = async (price: string) => (await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price, size: '10', signed: false })) as unknown as CreateOrderRequest;
    const [first, second] = [await buy('0.4'), await buy('0.41')];
    records.length = 0;
    // One record, in this order: the first order reserves 4 of 10; the split takes 5 of the 6 left
    // (6.000001 would be refused); the second order needs 4.1 and finds 1.
    const placedFirst = orderEntry.submit(callerOf(trader), first);
    const tooMuch = engine.split({ account: account(trader), marketId: market.id, amount: 6_000_001n });
    const split = engine.split({ account: account(trader), marketId: market.id, amount: 5_000_000n });
    const placedSecond = orderEntry.submit(callerOf(trader), second);
    const outcomes = await Promise.all([placedFirst, tooMuch, split, placedSecond]);
    assert.ok(records.some((commands) => commands >= 4), `all four in one record: ${records}`);
    assert.equal(outcomes[0].ok, true);
    assert.equal(outcomes[1].ok ? 'split' : outcomes[1].code, 'INSUFFICIENT_BALANCE');
    assert.equal(outcomes[2].ok, true);
    assert.equal(outcomes[3].ok ? 'accepted' : outcomes[3].error.code, 'INSUFFICIENT_BALANCE');
    assert.deepEqual(collateral(trader), { balance: 5_000_000n, locked: 4_000_000n, available: 1_000_000n });
    await expectAuditClean(server);
  });

  it('orders in later records see what a command moved', async () => {
    const trader = await newTrader(server, { fund: '5' });
    const buy = async (price: string) => trader.call('POST', '/orders', await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price, size: '10', signed: false }));
    assert.equal((await buy('0.4')).status, 200, 'reserves 4 of 5');
    await server.ctx.trading.engine.credit({ account: account(trader), amount: 10_000_000n, reason: 'DEPOSIT', ref: 'test' });
    const second = await buy('0.8');
    assert.equal(second.status, 200, `needs 8 of the 11 available: ${JSON.stringify(second.body)}`);
    assert.equal((await server.ctx.trading.engine.split({ account: account(trader), marketId: market.id, amount: 3_000_000n })).ok, true);
    const third = await buy('0.1');
    assert.deepEqual([third.status, third.body.code], [400, 'INSUFFICIENT_BALANCE'], 'needs 1 of the 0 left after the split');
    assert.deepEqual(collateral(trader), { balance: 12_000_000n, locked: 12_000_000n, available: 0n });
    await expectAuditClean(server);
  });

  it('a split can never take what an open order reserves', async () => {
    const trader = await newTrader(server, { fund: '10' });
    const placed = await trader.call('POST', '/orders', await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '10' }));
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const refused = await trader.call('POST', `/markets/${market.id}/split`, { amount: '5.000001' });
    assert.deepEqual([refused.status, refused.body.code], [400, 'INSUFFICIENT_BALANCE']);
    const split = await trader.call('POST', `/markets/${market.id}/split`, { amount: '5' });
    assert.equal(split.status, 200, JSON.stringify(split.body));
    assert.deepEqual(collateral(trader), { balance: 5_000_000n, locked: 5_000_000n, available: 0n });
    await expectAuditClean(server);
  });

  it('a merge of named amounts (what a chain merged first) merges exactly those, or refuses whole and moves nothing', async () => {
    const trader = await newTrader(server, { fund: '10' });
    const { engine } = server.ctx.trading;
    const other = (await createPublishedEvent(server)).markets[0]!;
    for (const marketId of [market.id, other.id]) assert.equal((await engine.split({ account: account(trader), marketId, amount: 3_000_000n })).ok, true);
    const tokens = () => engine.reads.balances(account(trader)).tokens.map((t) => t.available);
    const refused = await engine.merge({ account: account(trader), marketIds: [market.id, other.id], amounts: [1_000_000n, 3_000_001n] });
    assert.deepEqual(refused.ok ? 'merged' : refused.code, 'INSUFFICIENT_BALANCE');
    assert.deepEqual(tokens(), [3_000_000n, 3_000_000n, 3_000_000n, 3_000_000n]);
    const merged = await engine.merge({ account: account(trader), marketIds: [market.id, other.id], amounts: [1_000_000n, 2_000_000n] });
    assert.ok(merged.ok);
    assert.deepEqual(merged.merged, [{ marketId: market.id, amount: 1_000_000n }, { marketId: other.id, amount: 2_000_000n }]);
    assert.deepEqual(collateral(trader).balance, 7_000_000n);
    // The audit replays the journal, whose merge records hold the amounts.
    await expectAuditClean(server);
  });
});
