import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Store } from '../../src/store/database.ts';
import { appendRecords, readRecordsAfter } from '../../src/store/engine-journal-repository.ts';
import { openTestStore } from '../helpers/database.ts';

/**
 * Migration 0030: the journal's records and the snapshots' parts take lz4 where the server has it
 * (PostgreSQL built with lz4), and keep the default (pglz) where it has not (PGlite); either way a
 * record large enough to be compressed and stored out of line reads back as written.
 */
describe('the journal compressed with lz4 where the store has it', () => {
  let store: Store;
  before(async () => {
    store = await openTestStore();
  });
  after(async () => {
    await store?.close();
  });

  it('sets lz4 on the record and snapshot columns exactly when the server has lz4', async () => {
    const { rows: [setting] } = await sql<{ lz4: boolean }>`SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`.execute(store.db);
    const { rows } = await sql<{ column: string; compression: string }>`
      SELECT attrelid::regclass::text || '.' || attname AS column, attcompression::text AS compression FROM pg_attribute
      WHERE (attrelid, attname) IN (('engine_journal'::regclass, 'record'), ('engine_snapshot_parts'::regclass, 'data')) ORDER BY 1`.execute(store.db);
    const expected = setting!.lz4 ? 'l' : '';
    assert.deepEqual(rows, [{ column: 'engine_journal.record', compression: expected }, { column: 'engine_snapshot_parts.data', compression: expected }]);
    if (store.kind === 'postgres') assert.equal(setting!.lz4, true, "the suite's PostgreSQL is built with lz4, as Debian's is");
  });

  it('reads a record back as written', async () => {
    // Half random, half repeated: compressible, and still beyond the 2 KB that TOAST moves out of line.
    const text = JSON.stringify({ v: 2, commands: Array.from({ length: 15 }, () => ({ kind: 'place', signature: `0x${randomBytes(65).toString('hex')}`, tokenId: '7'.repeat(78) })) });
    await appendRecords(store.db, [{ seq: 1n, atMs: Date.now(), hash: `0x${'ab'.repeat(32)}`, text }]);
    const [record] = await readRecordsAfter(store.db, 0n, 1);
    assert.equal(record?.text, text);
    const { rows: [stored] } = await sql<{ compression: string | null }>`SELECT pg_column_compression(record) AS compression FROM engine_journal WHERE seq = 1`.execute(store.db);
    assert.equal(stored?.compression, store.kind === 'postgres' ? 'lz4' : 'pglz');
  });
});
