import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { serverWithMarket } from '../helpers/market-server.ts';
import { expectAuditClean, newTrader, placeOrder } from '../helpers/trader.ts';

/**
 * Settlement rounds and order entry side by side (src/engine/README.md "Settlement beside the
 * queue"): on PostgreSQL a round runs in its own transaction, and orders are answered meanwhile;
 * on both stores what a round pays out is spendable by the next order.
 */
describe('settlement rounds and order entry', () => {
  const world = serverWithMarket();

  const available = async (wallet: string) => (await world.server.ctx.settlement.balances(world.server.ctx.store.db, wallet.toLowerCase())).collateral.available;

  it("spends a trade's proceeds in the next order after the round that settled it", async () => {
    const { server, market } = world;
    const [seller, minter, buyer] = [await newTrader(server, { fund: '10' }), await newTrader(server, { fund: '5' }), await newTrader(server, { fund: '5' })];
    // The seller's first order has the engine read (and hold) its collateral row.
    assert.equal((await placeOrder(server, seller, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '10' })).status, 200);
    assert.equal((await placeOrder(server, minter, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '10' })).status, 200);
    await server.ctx.trading.engine.settle();
    assert.equal((await placeOrder(server, seller, { tokenId: market.tokenId1, side: 'SELL', price: '0.5', size: '10' })).status, 200);
    assert.equal((await placeOrder(server, buyer, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '10' })).status, 200);
    await server.ctx.trading.engine.settle();
    assert.equal(await available(seller.proxyWallet), 10_000_000n, 'what the first trade left, and the proceeds of the second');
    const spendAll = await placeOrder(server, seller, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '20' });
    assert.equal(spendAll.status, 200, JSON.stringify(spendAll.body));
    await expectAuditClean(server);
  });

  it('answers an order while a settlement round waits on the store', { skip: process.env.DATABASE_URL ? false : 'PGlite runs rounds in the queue (one connection)' }, async () => {
    const { server, market } = world;
    const db = server.ctx.store.db;
    const [maker, taker, other] = [await newTrader(server, { fund: '10' }), await newTrader(server, { fund: '10' }), await newTrader(server, { fund: '10' })];
    const tradeStatuses = async () => (await db.selectFrom('trades').select('status').where('taker_user_id', '=', taker.userId).execute()).map((t) => t.status);
    // Another session holds the chain head, so any round waits to seal its block.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let headLocked!: () => void;
    const locked = new Promise<void>((resolve) => (headLocked = resolve));
    const holder = db.transaction().execute(async (tx) => {
      await sql`SELECT 1 FROM ledger_chain_head WHERE id = 1 FOR UPDATE`.execute(tx);
      headLocked();
      await released;
    });
    const roundWaits = async () => (await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%ledger_chain_head%' AND pid <> pg_backend_pid()`.execute(db)).rows[0]!.n === 1;
    try {
      await locked;
      assert.equal((await placeOrder(server, maker, { tokenId: market.tokenId1, side: 'BUY', price: '0.3', size: '10' })).status, 200);
      assert.equal((await placeOrder(server, taker, { tokenId: market.tokenId2, side: 'BUY', price: '0.7', size: '10' })).status, 200);
      const round = server.ctx.trading.engine.settle();
      for (let i = 0; !(await roundWaits()); i++) {
        assert.ok(i < 100, 'a round reaches the chain head');
        await sleep(50);
      }
      const placed = await Promise.race([placeOrder(server, other, { tokenId: market.tokenId1, side: 'BUY', price: '0.1', size: '10' }), sleep(5_000).then(() => 'still waiting' as const)]);
      if (placed === 'still waiting') assert.fail('the order is answered while the round waits');
      assert.equal(placed.status, 200);
      assert.ok(await roundWaits(), 'the round still waits for the chain head');
      assert.deepEqual(await tradeStatuses(), ['MATCHED']);
      release();
      await round;
    } finally {
      release();
      await holder;
    }
    await server.ctx.trading.engine.settle();
    assert.deepEqual(await tradeStatuses(), ['CONFIRMED']);
    await expectAuditClean(server);
  });
});
