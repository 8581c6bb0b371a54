import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { auditOrders, type OrderAuditReport } from '../../src/engine/order-audit.ts';
import type { Db } from '../../src/store/database.ts';
import { useTwoTraders } from '../helpers/two-traders.ts';
import { placeOrder } from '../helpers/trader.ts';

class RolledBack extends Error {}

/** The audit of the store with `tampering` applied, inside a transaction that is rolled back after. */
async function auditTampered(db: Db, tampering: string): Promise<OrderAuditReport> {
  let report: OrderAuditReport | undefined;
  await db.transaction().execute(async (tx) => {
    await sql.raw(tampering).execute(tx);
    report = await auditOrders(tx);
    throw new RolledBack();
  }).catch((error: unknown) => {
    if (!(error instanceof RolledBack)) throw error;
  });
  return report!;
}

const details = (report: OrderAuditReport, invariant: string) => report.violations.filter((v) => v.invariant === invariant).map((v) => v.detail);

describe('audit: orders against their trades, trades against their orders and the ledger', () => {
  const world = useTwoTraders({ fund: '100' });
  const ids = { filled: '', partial: '', resting: [] as string[], trade: '' };

  before(async () => {
    const { alice, bob, server, event } = world;
    const market = event.markets[0]!;
    const filled = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '10' });
    await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '10' });
    const partial = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '20' });
    await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.6', size: '5' });
    // Enough unmatched orders that one rule broken on all of them overflows the report's details.
    for (let i = 0; i < 21; i++) {
      const placed = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.01', size: '5' });
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
      ids.resting.push(placed.body.id);
    }
    await server.ctx.trading.engine.settle();
    await server.ctx.trading.engine.tablesHoldAll();
    ids.filled = filled.body.id;
    ids.partial = partial.body.id;
    const trade = await server.ctx.store.db.selectFrom('trades').select('id').where('maker_order_id', '=', ids.filled).executeTakeFirstOrThrow();
    ids.trade = trade.id;
  });

  it('finds nothing wrong with what the engine wrote', async () => {
    const report = await auditOrders(world.server.ctx.store.db);
    assert.deepEqual(report.violations, []);
    assert.equal(report.counts.orders, 25);
    assert.equal(report.counts.trades, 2);
  });

  it('orders-match-fills: a matched size its trades do not explain, or a status that does not fit it', async () => {
    const db = world.server.ctx.store.db;
    const inflated = await auditTampered(db, `UPDATE orders SET matched_base_units = matched_base_units + 1 WHERE id = '${ids.partial}'`);
    assert.deepEqual(details(inflated, 'orders-match-fills'), [`${ids.partial}: matched 5000001, its trades fill 5000000`]);
    const executed = await auditTampered(db, `UPDATE orders SET status = 'EXECUTED' WHERE id = '${ids.partial}'`);
    assert.deepEqual(details(executed, 'orders-match-fills'), [`${ids.partial}: EXECUTED with 5000000 of 20000000 matched`]);
    const open = await auditTampered(db, `UPDATE orders SET status = 'PENDING' WHERE id = '${ids.filled}'`);
    assert.deepEqual(details(open, 'orders-match-fills'), [`${ids.filled}: PENDING with 10000000 of 10000000 matched`]);
    const overfilled = await auditTampered(db, `UPDATE trades SET size_base_units = 30000000 WHERE id = '${ids.trade}'`);
    assert.equal(details(overfilled, 'orders-match-fills').length, 2, 'both parties of the trade');
  });

  it('trades-match-orders: a party that is not its order\'s, or a price worse than its limit', async () => {
    const db = world.server.ctx.store.db;
    const wallet = await auditTampered(db, `UPDATE trades SET maker_wallet = '0x0000000000000000000000000000000000000001' WHERE id = '${ids.trade}'`);
    assert.deepEqual(details(wallet, 'trades-match-orders'), [`${ids.trade}: maker fields differ from order ${ids.filled}`]);
    const price = await auditTampered(db, `UPDATE trades SET maker_price_micros = 510000 WHERE id = '${ids.trade}'`);
    assert.deepEqual(details(price, 'trades-match-orders'), [`${ids.trade}: maker price 510000 worse than its limit 500000`]);
    const orphan = await auditTampered(db, `DELETE FROM orders WHERE id = '${ids.filled}'`);
    assert.deepEqual(details(orphan, 'trades-match-orders'), [`${ids.trade}: maker order ${ids.filled} is missing`]);
  });

  it('trades-settled-once: a trade settled twice, not at all, or with another txHash, and a settlement without its trade', async () => {
    const db = world.server.ctx.store.db;
    const unsettled = await auditTampered(db, `UPDATE trades SET status = 'MATCHED', tx_hash = NULL WHERE id = '${ids.trade}'`);
    assert.match(details(unsettled, 'trades-settled-once').join(), new RegExp(`^${ids.trade}: MATCHED but settled in 0x[0-9a-f]{64}$`));
    const otherHash = await auditTampered(db, `UPDATE trades SET tx_hash = '0xfeed' WHERE id = '${ids.trade}'`);
    assert.match(details(otherHash, 'trades-settled-once').join(), /: CONFIRMED with txHash 0xfeed, ledger 1 transaction\(s\) from 0x/);
    const twice = await auditTampered(db, `INSERT INTO ledger_transactions (seq, tx_hash, kind, ref, created_at)
      SELECT seq + 1000000, tx_hash || 'ff', kind, ref, created_at FROM ledger_transactions WHERE ref = '${ids.trade}'`);
    assert.match(details(twice, 'trades-settled-once').join(), /: CONFIRMED with txHash 0x[0-9a-f]+, ledger 2 transaction\(s\)/);
    const gone = await auditTampered(db, `DELETE FROM trades WHERE id = '${ids.trade}'`);
    assert.match(details(gone, 'trades-settled-once').join(), new RegExp(`^${ids.trade}: ledger transaction 0x[0-9a-f]{64} settles no trade$`));
    assert.equal(details(gone, 'orders-match-fills').length, 2, 'and both its orders now claim fills no trade records');
  });

  it('names at most 20 rows of one invariant and counts the rest', async () => {
    const report = await auditTampered(world.server.ctx.store.db, `UPDATE orders SET status = 'LIVE' WHERE id IN (${ids.resting.map((id) => `'${id}'`).join(',')})`);
    const broken = details(report, 'orders-match-fills');
    assert.equal(broken.length, 21);
    assert.ok(broken.slice(0, 20).every((d) => d.endsWith(': unknown status LIVE')), broken.join('\n'));
    assert.equal(broken[20], 'and 1 more');
  });
});
