import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { FileJournal } from '../../src/engine/journal.ts';
import { projectJournal, projectRecords } from '../../src/engine/journal-projection.ts';
import { PendingProjection, tableOrders } from '../../src/engine/pending-projection.ts';
import type { Store } from '../../src/store/database.ts';
import { decodeEngineBatch, encodeEngineBatch } from '../../src/store/engine-batch-codec.ts';
import { writeEngineBatch, type EngineBatchWrites } from '../../src/store/engine-batch-writes.ts';
import { readProjectedSeq } from '../../src/store/engine-projection-repository.ts';
import { insertOrders, type OrderRow } from '../../src/store/orders-repository.ts';
import type { TradeRow } from '../../src/store/trades-repository.ts';
import { openTestStore } from '../helpers/database.ts';
import { fresh, int8, order, trade } from '../helpers/row-arbitraries.ts';

const sortById = <T extends { id: string }>(rows: T[]): T[] => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
const statuses = ['PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED'] as const;

describe('engine journal: records, their encoding, and their projection', () => {
  it('a record decodes to exactly the writes it encodes, whatever text they hold', () => {
    const userId = randomUUID();
    fc.assert(fc.property(fc.array(order, { maxLength: 5 }), fc.array(trade, { maxLength: 5 }), fc.array(int8, { maxLength: 4 }), (drawnOrders, drawnTrades, locks) => {
      const orders = fresh(drawnOrders, userId);
      const writes: EngineBatchWrites = {
        lockChanges: locks.map((locked, i) => ({ account: `0x${i}`, asset: i % 2 ? 'USDC' : '12345', locked })),
        newOrders: orders,
        changedOrders: orders.map((o, i) => ({ id: o.id, matchedBaseUnits: o.matched_base_units, status: statuses[i % statuses.length]!, updatedAt: o.updated_at })),
        trades: drawnTrades.map((t, i) => ({ ...t, id: randomUUID(), seq: BigInt(i) })),
      };
      const line = encodeEngineBatch(writes);
      assert.ok(!line.includes('\n'), 'a record is one line');
      assert.deepEqual(decodeEngineBatch(line), writes);
    }), { numRuns: 60 });
  });

  describe('the merged records write what the records write one by one', () => {
    let oneByOne: Store;
    let merged: Store;
    const userId = randomUUID();
    const accounts = ['0xa1', '0xa2', '0xa3'];

    before(async () => {
      [oneByOne, merged] = await Promise.all([openTestStore(), openTestStore()]);
      for (const store of [oneByOne, merged]) {
        await sql`INSERT INTO users (id, address, proxy_wallet) VALUES (${userId}, '0xa', '0xb')`.execute(store.db);
        for (const account of accounts) await sql`INSERT INTO ledger_balances (account, asset, balance, locked) VALUES (${account}, 'USDC', 1000000000, 0)`.execute(store.db);
      }
    });
    after(async () => Promise.all([oneByOne.close(), merged.close()]));

    // A record: new orders, fills of any order written so far (stored or in an earlier record,
    // the same one filled again included), reservations (never below zero at any point), trades.
    const record = fc.record({
      orders: fc.array(order, { maxLength: 3 }),
      fills: fc.array(fc.record({ pick: fc.nat(), matched: int8, status: fc.constantFrom(...statuses), at: fc.date({ min: new Date(0), max: new Date('2100-01-01'), noInvalidDate: true }) }), { maxLength: 4 }),
      locks: fc.array(fc.record({ account: fc.constantFrom(...accounts), locked: fc.bigInt({ min: 0n, max: 1000n }) }), { maxLength: 3 }),
      trades: fc.array(trade, { maxLength: 2 }),
    });

    it('orders inserted then filled, filled twice, balances reserved in several records, trades', async () => {
      let tradeSeq = 0n;
      await fc.assert(fc.asyncProperty(fc.array(order, { minLength: 1, maxLength: 3 }), fc.array(record, { minLength: 1, maxLength: 6 }), async (drawnStored, drawnRecords) => {
        const stored = fresh(drawnStored, userId);
        await insertOrders(oneByOne.db, stored);
        await insertOrders(merged.db, stored);
        const known: string[] = stored.map((o) => o.id);
        const pending = new PendingProjection();
        const written: { orders: string[]; trades: TradeRow[] } = { orders: [...known], trades: [] };
        for (const [i, drawn] of drawnRecords.entries()) {
          const newOrders = fresh(drawn.orders, userId);
          known.push(...newOrders.map((o) => o.id));
          const changedIds = new Set<string>();
          const writes: EngineBatchWrites = {
            // A batch changes an order once, and never one it inserts (that one it inserts as it left it).
            changedOrders: drawn.fills.flatMap((f) => {
              const id = known[f.pick % (known.length - newOrders.length)]!;
              if (changedIds.has(id)) return [];
              changedIds.add(id);
              return [{ id, matchedBaseUnits: f.matched, status: f.status, updatedAt: f.at }];
            }),
            newOrders,
            lockChanges: [...new Map(drawn.locks.map((l) => [l.account, { account: l.account, asset: 'USDC', locked: l.locked }])).values()].filter((l) => l.locked !== 0n),
            trades: drawn.trades.map((t) => ({ ...t, id: randomUUID(), seq: ++tradeSeq })),
          };
          written.orders.push(...newOrders.map((o) => o.id));
          written.trades.push(...writes.trades);
          await writeEngineBatch(oneByOne.db, writes);
          // The journal's copy, as a restart reads it back.
          pending.add(BigInt(i + 1), decodeEngineBatch(encodeEngineBatch(writes)), 1);
        }
        await writeEngineBatch(merged.db, pending.writes());

        const read = async (store: Store) => ({
          orders: sortById(await store.db.selectFrom('orders').selectAll().where('id', 'in', written.orders).execute()),
          trades: written.trades.length === 0 ? [] : sortById(await store.db.selectFrom('trades').selectAll().where('id', 'in', written.trades.map((t) => t.id)).execute()),
          balances: await store.db.selectFrom('ledger_balances').select(['account', 'locked']).where('account', 'in', accounts).orderBy('account').execute(),
        });
        assert.deepEqual(await read(merged), await read(oneByOne));
      }), { numRuns: 25 });
    });
  });

  it('reads through the records the tables lack: hashes, orders by id and idempotency key, locked', async () => {
    const store = await openTestStore();
    try {
      const userId = randomUUID();
      await sql`INSERT INTO users (id, address, proxy_wallet) VALUES (${userId}, '0xa', '0xb')`.execute(store.db);
      const [drawnStored, drawnNew] = fc.sample(order, 2);
      const [inTable] = fresh([{ ...drawnStored!, status: 'PENDING', idempotency_key: randomUUID() }], userId) as [OrderRow];
      const [inJournal] = fresh([{ ...drawnNew!, status: 'PENDING', idempotency_key: randomUUID() }], userId) as [OrderRow];
      await insertOrders(store.db, [inTable]);
      const pending = new PendingProjection();
      const at = new Date('2026-11-27T12:00:00Z');
      pending.add(1n, { newOrders: [inJournal], changedOrders: [{ id: inTable.id, matchedBaseUnits: 5n, status: 'EXECUTING', updatedAt: at }], lockChanges: [{ account: '0xa1', asset: 'USDC', locked: 7n }], trades: [] }, 1);
      pending.add(2n, { newOrders: [], changedOrders: [{ id: inJournal.id, matchedBaseUnits: 3n, status: 'CANCELLED', updatedAt: at }], lockChanges: [{ account: '0xa1', asset: 'USDC', locked: -2n }], trades: [] }, 1);

      const orders = pending.over(tableOrders(store.db));
      assert.deepEqual(await orders.byId(inTable.id), { ...inTable, matched_base_units: 5n, status: 'EXECUTING', delayed_until: null, updated_at: at });
      assert.deepEqual(await orders.byId(inJournal.id), { ...inJournal, matched_base_units: 3n, status: 'CANCELLED', delayed_until: null, updated_at: at });
      assert.equal((await orders.byIdempotencyKey(userId, inJournal.idempotency_key!))?.id, inJournal.id);
      assert.equal((await orders.byIdempotencyKey(userId, inTable.idempotency_key!))?.status, 'EXECUTING');
      assert.equal(await orders.byId(randomUUID()), undefined);
      assert.ok(pending.hasHash(inJournal.hash) && !pending.hasHash(inTable.hash));
      assert.equal(pending.unprojectedLocked({ account: '0xa1', asset: 'USDC' }), 5n);
      assert.equal(pending.unprojectedLocked({ account: '0xa2', asset: 'USDC' }), 0n);
      assert.equal(pending.lastSeq, 2n);
      pending.clear();
      assert.ok(pending.isEmpty && !pending.hasHash(inJournal.hash));
      assert.equal(pending.lastSeq, 2n, 'the sequence goes on after a projection');
    } finally {
      await store.close();
    }
  });

  it('refuses, whole, a projection of records whose first the tables hold already: a locked change is never applied twice', async () => {
    const store = await openTestStore();
    try {
      await sql`INSERT INTO ledger_balances (account, asset, balance, locked) VALUES ('0xa3', 'USDC', 100, 0)`.execute(store.db);
      const records = new PendingProjection();
      records.add(1n, { newOrders: [], changedOrders: [], lockChanges: [{ account: '0xa3', asset: 'USDC', locked: 7n }], trades: [] }, 1);
      records.add(2n, { newOrders: [], changedOrders: [], lockChanges: [{ account: '0xa3', asset: 'USDC', locked: 3n }], trades: [] }, 1);
      assert.deepEqual([records.firstSeq, records.lastSeq], [1n, 2n]);
      await projectRecords(store.db, records);
      await assert.rejects(projectRecords(store.db, records), /engine journal record 1 is in the tables already/);
      const later = new PendingProjection();
      later.add(2n, { newOrders: [], changedOrders: [], lockChanges: [{ account: '0xa3', asset: 'USDC', locked: 3n }], trades: [] }, 1);
      await assert.rejects(projectRecords(store.db, later), /record 2 is in the tables already/, 'a record inside the projected range as well');
      const locked = await store.db.selectFrom('ledger_balances').select('locked').where('account', '=', '0xa3').executeTakeFirstOrThrow();
      assert.equal(locked.locked, '10');
      assert.equal(await readProjectedSeq(store.db), 2n);
      later.clear();
      assert.equal(later.firstSeq, 0n);
    } finally {
      await store.close();
    }
  });

  describe('the journal file', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'pmx-journal-'));
    });
    after(async () => rm(dir, { recursive: true, force: true }));

    it('gives back its records in order across a reopen, drops a torn last line, and empties', async () => {
      const path = join(dir, 'engine.journal');
      const journal = new FileJournal(path);
      await journal.open();
      await journal.append({ seq: 1n, record: '{"a":"x y"}' });
      await journal.append({ seq: 2n, record: '{"b":"\\n"}' });
      await journal.close();
      // A process killed in the middle of an append leaves the record without its newline.
      await appendFile(path, '3 {"c":');

      await journal.open();
      assert.deepEqual(await journal.records(), [{ seq: 1n, record: '{"a":"x y"}' }, { seq: 2n, record: '{"b":"\\n"}' }]);
      await journal.clear();
      assert.deepEqual(await journal.records(), []);
      await journal.append({ seq: 3n, record: '{}' });
      assert.deepEqual(await journal.records(), [{ seq: 3n, record: '{}' }]);
      await journal.close();
    });

    it('a start projects the records beyond the tables\' sequence once, skips the rest, and empties the journal', async () => {
      const store = await openTestStore();
      try {
        const userId = randomUUID();
        await sql`INSERT INTO users (id, address, proxy_wallet) VALUES (${userId}, '0xa', '0xb')`.execute(store.db);
        await sql`INSERT INTO ledger_balances (account, asset, balance, locked) VALUES ('0xa1', 'USDC', 100, 0)`.execute(store.db);
        const [first, second, third] = fresh(fc.sample(order, 3), userId) as [OrderRow, OrderRow, OrderRow];
        const record = (row: OrderRow, locked: bigint) => encodeEngineBatch({ newOrders: [row], changedOrders: [], lockChanges: [{ account: '0xa1', asset: 'USDC', locked }], trades: [] });
        // Record 1 is in the tables already (its projection committed, the journal was not emptied yet).
        await insertOrders(store.db, [first]);
        await sql`UPDATE ledger_balances SET locked = 10 WHERE account = '0xa1'`.execute(store.db);
        await sql`UPDATE engine_projection SET seq = 1`.execute(store.db);
        const path = join(dir, 'recovery.journal');
        const journal = new FileJournal(path);
        await journal.open();
        await journal.append({ seq: 1n, record: record(first, 10n) });
        await journal.append({ seq: 2n, record: record(second, 20n) });
        await journal.append({ seq: 3n, record: record(third, 30n) });
        await journal.close();
        await appendFile(path, `4 ${record(third, 40n).slice(0, 25)}`);

        const pending = new PendingProjection();
        await projectJournal(store.db, journal, pending);
        await projectJournal(store.db, journal, pending);
        const ids = (await store.db.selectFrom('orders').select('id').where('user_id', '=', userId).execute()).map((o) => o.id).sort();
        assert.deepEqual(ids, [first.id, second.id, third.id].sort());
        assert.equal((await store.db.selectFrom('ledger_balances').select('locked').where('account', '=', '0xa1').executeTakeFirstOrThrow()).locked, '60');
        assert.equal(await readProjectedSeq(store.db), 3n);
        assert.equal(pending.lastSeq, 3n, 'the next record follows the last one projected');
        assert.deepEqual(await journal.records(), []);
        await journal.close();
      } finally {
        await store.close();
      }
    });

    it('refuses to append before it is opened', async () => {
      await assert.rejects(new FileJournal(join(dir, 'closed.journal')).append({ seq: 1n, record: '{}' }), /not open/);
    });
  });
});
