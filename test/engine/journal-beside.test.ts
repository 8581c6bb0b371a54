import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { FileJournal } from '../../src/engine/journal.ts';
import { JournalDurability } from '../../src/engine/journal-durability.ts';
import type { Store } from '../../src/store/database.ts';
import type { EngineBatchWrites } from '../../src/store/engine-batch-writes.ts';
import { readProjectedSeq } from '../../src/store/engine-projection-repository.ts';
import type { OrderRow } from '../../src/store/orders-repository.ts';
import { openTestStore } from '../helpers/database.ts';
import { fresh, order } from '../helpers/row-arbitraries.ts';

/** Enough commands in one record that the next batch start sends it to the tables beside the queue. */
const MANY_COMMANDS = 600;
const at = new Date('2026-11-29T12:00:00Z');
/** A delay no test waits out. */
const UNTIMED = 3_600_000;

describe('engine journal: projections beside the queue', () => {
  let store: Store;
  let dir: string;
  const userId = randomUUID();

  before(async () => {
    store = await openTestStore();
    dir = await mkdtemp(join(tmpdir(), 'pmx-journal-beside-'));
    await sql`INSERT INTO users (id, address, proxy_wallet) VALUES (${userId}, '0xa', '0xb')`.execute(store.db);
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * A journal over the store whose queue is the test itself: a reader's request projects at once.
   * No record waits long enough for the timer to start a projection: the test starts each one.
   */
  async function openJournal(path: string, errors: unknown[] = []): Promise<JournalDurability> {
    const durability: JournalDurability = new JournalDurability(store.db, new FileJournal(path), () => durability.project(), (error) => errors.push(error), UNTIMED);
    await durability.recover();
    return durability;
  }
  /** A transaction that locks a balance row until `release`. */
  function holdBalanceRow(account: string): { acquired: Promise<void>; release(): Promise<void> } {
    let acquired!: () => void;
    let release!: () => void;
    const locked = new Promise<void>((resolve) => { acquired = resolve; });
    const released = new Promise<void>((resolve) => { release = resolve; });
    const done = store.db.transaction().execute(async (tx) => {
      await sql`SELECT 1 FROM ledger_balances WHERE account = ${account} FOR UPDATE`.execute(tx);
      acquired();
      await released;
    });
    return { acquired: locked, release: async () => { release(); await done; } };
  }
  const newOrders = (n: number) => fresh(fc.sample(order, n).map((o) => ({ ...o, status: 'PENDING' as const })), userId) as OrderRow[];
  const record = (writes: Partial<EngineBatchWrites>): EngineBatchWrites => ({ newOrders: [], changedOrders: [], lockChanges: [], trades: [], ...writes });
  const storedOrder = (id: string) => store.db.selectFrom('orders').select(['status', 'matched_base_units']).where('id', '=', id).executeTakeFirst();
  const lockedOf = async (account: string) => BigInt((await store.db.selectFrom('ledger_balances').select('locked').where('account', '=', account).executeTakeFirstOrThrow()).locked);

  it('batches append while it runs, reads see every record, each record reaches the tables once, and a restart skips what it projected', async () => {
    await sql`INSERT INTO ledger_balances (account, asset, balance, locked) VALUES ('0xb1', 'USDC', 100, 0)`.execute(store.db);
    const path = join(dir, 'beside.journal');
    const journal = await openJournal(path);
    const [first, second] = newOrders(2) as [OrderRow, OrderRow];
    // The projection waits for the balance row it changes (and on PGlite for its one connection)
    // until the test lets it go: what follows happens while it is on its way, whatever the store's speed.
    const held = holdBalanceRow('0xb1');
    await held.acquired;
    await journal.append(record({ newOrders: [first], lockChanges: [{ account: '0xb1', asset: 'USDC', locked: 10n }] }), MANY_COMMANDS);

    journal.batchStarts();
    // The batch that runs meanwhile fills the first order, places another and reserves more.
    await journal.append(record({ newOrders: [second], changedOrders: [{ id: first.id, matchedBaseUnits: 4n, status: 'EXECUTING', updatedAt: at }], lockChanges: [{ account: '0xb1', asset: 'USDC', locked: 5n }] }), 1);
    journal.batchEnded();
    assert.equal(journal.lagCommands, MANY_COMMANDS + 1);
    assert.ok(journal.hasHash(first.hash) && journal.hasHash(second.hash));
    assert.deepEqual(new Set(journal.orderHashes()), new Set([first.hash, second.hash]));
    assert.equal((await journal.orders(store.db).byId(first.id))?.matched_base_units, 4n, 'the later record\'s fill over the order on its way');
    assert.equal((await journal.orders(store.db).byId(second.id))?.id, second.id);

    await held.release();
    await journal.settled();
    assert.equal(await readProjectedSeq(store.db), 1n, 'the first record reached the tables beside the queue');
    assert.equal((await storedOrder(first.id))?.status, 'PENDING');
    assert.equal((await journal.orders(store.db).byId(first.id))?.status, 'EXECUTING', 'the fill read over the projected row');
    assert.equal(await lockedOf('0xb1') + journal.locked({ account: '0xb1', asset: 'USDC' }), 15n, 'the table\'s locked and the records\' change, each counted once');
    assert.equal(journal.lagCommands, 1);

    // Killed here: the file still holds the projected record, and a start skips it. Closing stands
    // for the kill: a killed engine's journal projects nothing more.
    await journal.close();
    const restarted = await openJournal(path);
    assert.equal(await readProjectedSeq(store.db), 2n);
    assert.equal(await lockedOf('0xb1'), 15n);
    assert.deepEqual(await storedOrder(first.id), { status: 'EXECUTING', matched_base_units: 4n });
    assert.ok(await storedOrder(second.id));
    await restarted.append(record({ changedOrders: [{ id: second.id, matchedBaseUnits: 0n, status: 'CANCELLED', updatedAt: at }], lockChanges: [{ account: '0xb1', asset: 'USDC', locked: -5n }] }), 1);
    await restarted.project();
    assert.equal(await readProjectedSeq(store.db), 3n, 'the sequence goes on from the last record projected');
    assert.equal(await lockedOf('0xb1'), 10n);
    assert.equal(restarted.lagCommands, 0);
    await restarted.close();
  });

  it('a projection beside the queue that fails is read through still, fails a balance read, and goes in with the next projection in the queue', async () => {
    const errors: unknown[] = [];
    const journal = await openJournal(join(dir, 'failing.journal'), errors);
    const [placed] = newOrders(1) as [OrderRow];
    // Its balance row does not exist yet: the statement refuses the lock change, and writes nothing.
    await journal.append(record({ newOrders: [placed], lockChanges: [{ account: '0xb2', asset: 'USDC', locked: 7n }] }), MANY_COMMANDS);
    journal.batchStarts();
    journal.batchEnded();
    await assert.rejects(journal.settled(), (error: Error) => /projection of the engine journal failed/.test(error.message) && error.cause === errors[0]);
    assert.equal(errors.length, 1);
    assert.ok(journal.full, 'the next batch projects in the queue first');
    assert.ok(journal.hasHash(placed.hash));
    assert.equal((await journal.orders(store.db).byId(placed.id))?.id, placed.id);
    assert.equal(await storedOrder(placed.id), undefined);

    await sql`INSERT INTO ledger_balances (account, asset, balance, locked) VALUES ('0xb2', 'USDC', 100, 0)`.execute(store.db);
    await journal.project();
    assert.ok(await storedOrder(placed.id));
    assert.equal(await lockedOf('0xb2'), 7n);
    assert.ok(!journal.full && journal.lagCommands === 0);
    await journal.settled();
    await journal.close();
  });
});
