import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { COLLATERAL, InsufficientBalanceError } from '../../src/settlement/types.ts';
import type { CreateOrderRequest } from '../../src/orders/order-entry.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { callerOf, expectAuditClean, newTrader, orderBody, type Trader } from '../helpers/trader.ts';

/**
 * MatchingEngine.moveBalances: every balance change outside the engine's own commands runs in its
 * batches, under a savepoint, between the reservations of the orders before and after it.
 */
describe('engine: moveBalances', () => {
  let server: TestServer;
  let market: PublishedMarket;
  /**
   * Commands per committed batch, to show which commands shared one. The engine's one-second
   * timer may put a tick in the same batch or one of its own, so a test looks for the batch that
   * holds at least its own commands.
   */
  const batches: number[] = [];
  before(async () => {
    server = await startTestServer();
    market = (await createPublishedEvent(server)).markets[0]!;
    server.ctx.events.subscribe('engine-batch', ({ commands }) => batches.push(commands));
  });
  after(async () => {
    await server.close();
  });

  const account = (trader: Trader) => trader.proxyWallet.toLowerCase();
  const collateral = async (trader: Trader) => (await server.ctx.settlement.balances(server.ctx.store.db, account(trader))).collateral;
  const tokens = () => ({ conditionId: market.conditionId, tokenId1: market.tokenId1, tokenId2: market.tokenId2 });

  it('work that throws is rolled back alone: its caller gets the error, the work batched with it commits', async () => {
    const [alice, bob] = await Promise.all([newTrader(server), newTrader(server)]);
    const { engine } = server.ctx.trading;
    const { settlement } = server.ctx;
    batches.length = 0;
    // Submitted in one turn: the queue hands both to one batch.
    const failing = engine.moveBalances(async (tx) => {
      await settlement.credit(tx, { account: account(alice), amount: 7_000_000n, reason: 'DEPOSIT', ref: 'test' });
      throw new Error('refused after crediting');
    });
    const passing = engine.moveBalances((tx) => settlement.credit(tx, { account: account(bob), amount: 3_000_000n, reason: 'DEPOSIT', ref: 'test' }));
    await assert.rejects(failing, /refused after crediting/);
    assert.equal((await passing).balance, 3_000_000n);
    assert.ok(batches.some((commands) => commands >= 2), `both in one batch: ${batches}`);
    assert.equal((await collateral(alice)).balance, 0n, "the failing work's credit is rolled back");
    assert.equal((await collateral(bob)).balance, 3_000_000n);
    await expectAuditClean(server);
  });

  it('work sees the reservations of the orders before it in its batch, and the orders after it see what it moved', async () => {
    const trader = await newTrader(server, { fund: '10' });
    const { engine, orderEntry } = server.ctx.trading;
    const { settlement } = server.ctx;
    const buy = async (price: string) => (await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price, size: '10', signed: false })) as unknown as CreateOrderRequest;
    const [first, second] = [await buy('0.4'), await buy('0.41')];
    batches.length = 0;
    // One batch, in this order: the first order reserves 4 of 10; the split takes 5 of the 6 left;
    // the second order needs 4.1 and finds 1.
    const placedFirst = orderEntry.submit(callerOf(trader), first);
    const split = engine.moveBalances(async (tx) => {
      const seen = await settlement.balances(tx, account(trader));
      await settlement.split(tx, { account: account(trader), market: tokens(), amount: 5_000_000n, ref: 'test' });
      return seen.collateral;
    });
    const placedSecond = orderEntry.submit(callerOf(trader), second);
    const outcomes = await Promise.all([placedFirst, split, placedSecond]);
    assert.ok(batches.some((commands) => commands >= 3), `all three in one batch: ${batches}`);
    assert.equal(outcomes[0].ok, true);
    assert.deepEqual(outcomes[1], { balance: 10_000_000n, locked: 4_000_000n, available: 6_000_000n });
    assert.equal(outcomes[2].ok ? 'accepted' : outcomes[2].error.code, 'INSUFFICIENT_BALANCE');
    assert.deepEqual(await collateral(trader), { balance: 5_000_000n, locked: 4_000_000n, available: 1_000_000n });
    await expectAuditClean(server);
  });

  it('orders in later batches see what the work moved, though the engine keeps the balances it reserves from', async () => {
    const trader = await newTrader(server, { fund: '5' });
    const buy = async (price: string) => trader.call('POST', '/orders', await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price, size: '10', signed: false }));
    assert.equal((await buy('0.4')).status, 200, 'reserves 4 of 5: the engine now holds the row');
    await server.ctx.trading.engine.moveBalances((tx) => server.ctx.settlement.credit(tx, { account: account(trader), amount: 10_000_000n, reason: 'DEPOSIT', ref: 'test' }));
    const second = await buy('0.8');
    assert.equal(second.status, 200, `needs 8 of the 11 available: ${JSON.stringify(second.body)}`);
    await server.ctx.trading.engine.moveBalances((tx) => server.ctx.settlement.split(tx, { account: account(trader), market: tokens(), amount: 3_000_000n, ref: 'test' }));
    const third = await buy('0.1');
    assert.deepEqual([third.status, third.body.code], [400, 'INSUFFICIENT_BALANCE'], 'needs 1 of the 0 left after the split');
    assert.deepEqual(await collateral(trader), { balance: 12_000_000n, locked: 12_000_000n, available: 0n });
    await expectAuditClean(server);
  });

  it('a split can never take what an open order reserves', async () => {
    const trader = await newTrader(server, { fund: '10' });
    const placed = await trader.call('POST', '/orders', await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '10' }));
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    await assert.rejects(
      server.ctx.trading.engine.moveBalances((tx) => server.ctx.settlement.split(tx, { account: account(trader), market: tokens(), amount: 5_000_001n, ref: 'test' })),
      (error: unknown) => error instanceof InsufficientBalanceError && error.asset === COLLATERAL && error.available === 5_000_000n,
    );
    const split = await trader.call('POST', `/markets/${market.id}/split`, { amount: '5' });
    assert.equal(split.status, 200, JSON.stringify(split.body));
    assert.deepEqual(await collateral(trader), { balance: 5_000_000n, locked: 5_000_000n, available: 0n });
    await expectAuditClean(server);
  });
});
