import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Store } from '../../src/store/database.ts';
import { insertOrders, findUsedHashes, type OrderRow } from '../../src/store/orders-repository.ts';
import { insertTrades, type TradeRow } from '../../src/store/trades-repository.ts';
import { writeEngineBatch } from '../../src/store/engine-batch-writes.ts';
import type { LockChange } from '../../src/store/ledger-balances-repository.ts';
import { openTestStore } from '../helpers/database.ts';
import { fresh, int8, order, trade } from '../helpers/row-arbitraries.ts';

/**
 * The engine writes a batch's orders and trades as one array per column (store/column-arrays.ts):
 * every value must come back from the store exactly as written, whatever text it holds (commas,
 * quotes, braces and backslashes are what array literals escape), at the limits of its column.
 */
describe('engine batch writes: rows as column arrays, one statement per batch', () => {
  let store: Store;
  const userId = randomUUID();

  before(async () => {
    store = await openTestStore();
    await sql`INSERT INTO users (id, address, proxy_wallet) VALUES (${userId}, '0xa', '0xb')`.execute(store.db);
  });
  after(async () => store.close());

  let tradeSeq = 0n;

  it('orders and trades read back exactly as written', async () => {
    await fc.assert(fc.asyncProperty(fc.array(order, { minLength: 1, maxLength: 8 }), fc.array(trade, { minLength: 1, maxLength: 8 }), async (drawnOrders, drawnTrades) => {
      const orders = fresh(drawnOrders, userId);
      const trades: TradeRow[] = drawnTrades.map((t) => ({ ...t, id: randomUUID(), seq: ++tradeSeq }));
      await insertOrders(store.db, orders);
      await insertTrades(store.db, trades);
      const storedOrders = await store.db.selectFrom('orders').selectAll().where('id', 'in', orders.map((o) => o.id)).execute();
      const storedTrades = await store.db.selectFrom('trades').selectAll().where('id', 'in', trades.map((t) => t.id)).execute();
      assert.deepEqual(sortById(storedOrders), sortById(orders));
      assert.deepEqual(sortById(storedTrades), sortById(trades));
    }), { numRuns: 40 });
  });

  it('changed orders update the named orders only, and used hashes are found among others', async () => {
    await fc.assert(fc.asyncProperty(fc.array(order, { minLength: 2, maxLength: 8 }), int8, async (drawn, matched) => {
      const orders = fresh(drawn, userId);
      await insertOrders(store.db, orders);
      const [changed, ...unchanged] = orders as [OrderRow, ...OrderRow[]];
      const now = new Date();
      await writeEngineBatch(store.db, { lockChanges: [], newOrders: [], changedOrders: [{ id: changed.id, matchedBaseUnits: matched, status: 'CANCELLED', updatedAt: now }], trades: [] });
      const stored = await store.db.selectFrom('orders').selectAll().where('id', 'in', orders.map((o) => o.id)).execute();
      assert.deepEqual(sortById(stored), sortById([{ ...changed, matched_base_units: matched, status: 'CANCELLED', delayed_until: null, updated_at: now }, ...unchanged]));
      const unknown = `0x${randomUUID()}`;
      assert.deepEqual(await findUsedHashes(store.db, [unknown, changed.hash]), new Set([changed.hash]));
    }), { numRuns: 20 });
  });

  it('a batch is one statement: every part is written, or none when one part fails or the lease passed on', async () => {
    const [[placed], [changed]] = fc.sample(fc.array(order, { minLength: 1, maxLength: 1 }), 2).map((drawn) => fresh(drawn, userId)) as [[OrderRow], [OrderRow]];
    const [drawnTrade] = fc.sample(trade, 1) as [Omit<TradeRow, 'id' | 'seq'>];
    const matched: TradeRow = { ...drawnTrade, id: randomUUID(), seq: ++tradeSeq };
    const account = `0x${randomUUID()}`;
    await insertOrders(store.db, [changed]);
    await sql`INSERT INTO ledger_balances (account, asset, balance, locked) VALUES (${account}, 'USDC', 100, 10)`.execute(store.db);
    const changedAt = new Date();
    const writes = {
      newOrders: [placed], changedOrders: [{ id: changed.id, matchedBaseUnits: 7n, status: 'EXECUTED' as const, updatedAt: changedAt }], trades: [matched],
    };
    const lockedNow = async () => BigInt((await store.db.selectFrom('ledger_balances').select('locked').where('account', '=', account).executeTakeFirstOrThrow()).locked);
    const lease = () => store.db.selectFrom('engine_leadership').select(['token', 'renewed_at']).executeTakeFirstOrThrow();
    const nothingWritten = async () => {
      assert.equal(await lockedNow(), 10n);
      assert.equal((await store.db.selectFrom('orders').select('id').where('id', '=', placed.id).execute()).length, 0);
      assert.equal((await store.db.selectFrom('trades').select('id').where('id', '=', matched.id).execute()).length, 0);
    };
    // As the engine writes a batch of order commands: one statement, no transaction around it.
    const alone = (lockChanges: LockChange[], leaseToken?: bigint) => writeEngineBatch(store.db, { ...writes, lockChanges }, leaseToken === undefined ? {} : { leaseToken });
    const missingRow = [{ account, asset: 'USDC', locked: 5n }, { account, asset: 'missing', locked: 1n }];

    // A change of a balance row that does not exist is a bookkeeping mistake: nothing is written.
    await assert.rejects(alone(missingRow), /lock update touched 1 of 2 rows/);
    await nothingWritten();
    // Nor when the CHECK refuses a change (locked above the balance).
    await assert.rejects(alone([{ account, asset: 'USDC', locked: 91n }]));
    await nothingWritten();
    // Inside a transaction (a batch that moves balances in SQL) the failure fails the transaction.
    await assert.rejects(store.db.transaction().execute((tx) => writeEngineBatch(tx, { ...writes, lockChanges: missingRow })), /lock update touched 1 of 2 rows/);
    await nothingWritten();

    // A token the lease no longer holds (another node took the engine over): nothing is written.
    await sql`UPDATE engine_leadership SET renewed_at = now() - interval '1 minute'`.execute(store.db);
    const before = await lease();
    assert.equal(await alone([{ account, asset: 'USDC', locked: -4n }], before.token + 1n), false);
    await nothingWritten();

    // The token that holds it: the statement writes, and leaves the lease as it was (only the
    // leader's timer renews it; the statement only checks it).
    assert.equal(await alone([{ account, asset: 'USDC', locked: -4n }], before.token), true);
    assert.deepEqual(await lease(), before);
    assert.equal(await lockedNow(), 6n);
    const stored = await store.db.selectFrom('orders').selectAll().where('id', 'in', [placed.id, changed.id]).execute();
    assert.deepEqual(sortById(stored), sortById([placed, { ...changed, matched_base_units: 7n, status: 'EXECUTED', delayed_until: null, updated_at: changedAt }]));
    assert.deepEqual(await store.db.selectFrom('trades').selectAll().where('id', '=', matched.id).execute(), [matched]);
  });
});

function sortById<T extends { id: string }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
}
