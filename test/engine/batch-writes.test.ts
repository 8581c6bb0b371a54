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

  // PostgreSQL's text cannot hold NUL; everything else may come through the API.
  const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\u0000'));
  const int8 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
  const uint256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String);
  // Timestamps as the store keeps them: to the microsecond, so milliseconds round-trip.
  const time = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true });
  const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v).replace(/\\u0000/g, '')) as unknown);

  const order = fc.record({
    account: text, market_id: fc.uuid(), token_id: text, outcome_index: fc.integer({ min: -32768, max: 32767 }), side: fc.constantFrom(0, 1),
    order_type: fc.constantFrom('GTC', 'FOK', 'FAK'), post_only: fc.boolean(), status: fc.constantFrom('PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED', 'REJECTED'),
    price_micros: int8, size_base_units: int8, matched_base_units: int8, salt: text, maker: text, signer: text, taker: text, maker_amount: uint256,
    taker_amount: uint256, expiration: int8, nonce: uint256, fee_rate_bps: fc.integer(), passive_fee_rate_bps: fc.integer(), signature_type: fc.integer({ min: 0, max: 2 }),
    signature: text, idempotency_key: fc.option(fc.uuid(), { nil: null }), metadata: fc.option(json, { nil: null }), book_seq: int8,
    delayed_until: fc.option(time, { nil: null }), created_at: time, updated_at: time,
  });
  // Keys are made for each run, not drawn: a shrunk run inserts its rows again.
  const fresh = (orders: Omit<OrderRow, 'id' | 'user_id' | 'hash'>[]): OrderRow[] => orders.map((o) => ({ ...o, id: randomUUID(), user_id: userId, hash: `0x${randomUUID()}`, idempotency_key: o.idempotency_key && randomUUID() }));

  const trade = fc.record({
    market_id: fc.uuid(), kind: fc.constantFrom('TRANSFER', 'MINT', 'MERGE'), status: fc.constantFrom('MATCHED', 'MINED', 'CONFIRMED', 'FAILED'), token_id: text,
    side: fc.constantFrom(0, 1), price_micros: int8, size_base_units: int8, notional_base_units: int8, maker_token_id: text, maker_side: fc.constantFrom(0, 1),
    maker_price_micros: int8, taker_order_id: fc.uuid(), maker_order_id: fc.uuid(), taker_user_id: fc.uuid(), maker_user_id: fc.uuid(), taker_wallet: text,
    maker_wallet: text, taker_fee_base_units: int8, maker_fee_base_units: int8, tx_hash: fc.option(text, { nil: null }), matched_at: time,
    mined_at: fc.option(time, { nil: null }), confirmed_at: fc.option(time, { nil: null }),
  });

  let tradeSeq = 0n;

  it('orders and trades read back exactly as written', async () => {
    await fc.assert(fc.asyncProperty(fc.array(order, { minLength: 1, maxLength: 8 }), fc.array(trade, { minLength: 1, maxLength: 8 }), async (drawnOrders, drawnTrades) => {
      const orders = fresh(drawnOrders);
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
      const orders = fresh(drawn);
      await insertOrders(store.db, orders);
      const [changed, ...unchanged] = orders as [OrderRow, ...OrderRow[]];
      const now = new Date();
      await writeEngineBatch(store.db, { lockChanges: [], newOrders: [], changedOrders: [{ id: changed.id, matchedBaseUnits: matched, status: 'CANCELLED' }], changedAt: now, trades: [] });
      const stored = await store.db.selectFrom('orders').selectAll().where('id', 'in', orders.map((o) => o.id)).execute();
      assert.deepEqual(sortById(stored), sortById([{ ...changed, matched_base_units: matched, status: 'CANCELLED', delayed_until: null, updated_at: now }, ...unchanged]));
      const unknown = `0x${randomUUID()}`;
      assert.deepEqual(await findUsedHashes(store.db, [unknown, changed.hash]), new Set([changed.hash]));
    }), { numRuns: 20 });
  });

  it('a batch is one statement: every part is written, or none when one part fails', async () => {
    const [[placed], [changed]] = fc.sample(fc.array(order, { minLength: 1, maxLength: 1 }), 2).map(fresh) as [[OrderRow], [OrderRow]];
    const [drawnTrade] = fc.sample(trade, 1) as [Omit<TradeRow, 'id' | 'seq'>];
    const matched: TradeRow = { ...drawnTrade, id: randomUUID(), seq: ++tradeSeq };
    const account = `0x${randomUUID()}`;
    await insertOrders(store.db, [changed]);
    await sql`INSERT INTO ledger_balances (account, asset, balance, locked) VALUES (${account}, 'USDC', 100, 10)`.execute(store.db);
    const changedAt = new Date();
    const writes = {
      newOrders: [placed], changedOrders: [{ id: changed.id, matchedBaseUnits: 7n, status: 'EXECUTED' as const }], changedAt, trades: [matched],
    };
    const lockedNow = async () => BigInt((await store.db.selectFrom('ledger_balances').select('locked').where('account', '=', account).executeTakeFirstOrThrow()).locked);
    // As the engine writes it: inside its batch's transaction, which a failed write rolls back.
    const inBatch = (lockChanges: LockChange[]) => store.db.transaction().execute((tx) => writeEngineBatch(tx, { ...writes, lockChanges }));

    // A change of a balance row that does not exist is a bookkeeping mistake: nothing is written.
    await assert.rejects(inBatch([{ account, asset: 'USDC', locked: 5n }, { account, asset: 'missing', locked: 1n }]), /lock update touched 1 of 2 rows/);
    assert.equal(await lockedNow(), 10n);
    assert.equal((await store.db.selectFrom('orders').select('id').where('id', '=', placed.id).execute()).length, 0);
    // Nor when the CHECK refuses a change (locked above the balance).
    await assert.rejects(inBatch([{ account, asset: 'USDC', locked: 91n }]));
    assert.equal(await lockedNow(), 10n);

    await inBatch([{ account, asset: 'USDC', locked: -4n }]);
    assert.equal(await lockedNow(), 6n);
    const stored = await store.db.selectFrom('orders').selectAll().where('id', 'in', [placed.id, changed.id]).execute();
    assert.deepEqual(sortById(stored), sortById([placed, { ...changed, matched_base_units: 7n, status: 'EXECUTED', delayed_until: null, updated_at: changedAt }]));
    assert.deepEqual(await store.db.selectFrom('trades').selectAll().where('id', '=', matched.id).execute(), [matched]);
  });
});

function sortById<T extends { id: string }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
}
