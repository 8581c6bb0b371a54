import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { createManualClock } from '../../src/clock.ts';
import { COLLATERAL, createEmbeddedSettlement } from '../../src/settlement/index.ts';
import { openStore } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { useDurableStore } from '../helpers/database.ts';
import { runBuiltAudit } from '../helpers/build.ts';
import { inTransaction } from '../../src/settlement/embedded/retry.ts';

/** `npm run cli -- audit` against a real store: PGlite on disk, or a scratch PostgreSQL database. */
describe('audit command', () => {
  const durable = useDurableStore('pmx-audit-');

  const withStore = async (work: (db: Awaited<ReturnType<typeof openStore>>['db']) => Promise<void>) => {
    const store = await openStore({ databaseUrl: durable.env.DATABASE_URL, dataDir: durable.env.DATA_DIR ?? 'memory://' });
    try {
      await migrateToLatest(store.db);
      await work(store.db);
    } finally {
      await store.close();
    }
  };
  const audit = () => runBuiltAudit({ ...durable.env, LOG_LEVEL: 'silent' });

  it('exits 0 when every invariant holds, and 1 naming the broken one', async () => {
    await withStore(async (db) => {
      const ledger = createEmbeddedSettlement({ clock: createManualClock() });
      await inTransaction(db, async (tx) => {
        await ledger.credit(tx, { account: '0x00000000000000000000000000000000000000aa', amount: 10_000_000n, reason: 'DEPOSIT', ref: 'cli' });
        await ledger.split(tx, { account: '0x00000000000000000000000000000000000000aa', market: { conditionId: '0xcli', tokenId1: '91', tokenId2: '92' }, amount: 4_000_000n, ref: 'cli' });
      });
      await inTransaction(db, (tx) => ledger.sealBlock(tx));
    });
    const good = audit();
    assert.equal(good.status, 0, good.stderr + good.stdout);
    assert.match(good.stdout, /every invariant holds/);

    await withStore(async (db) => {
      await sql`UPDATE ledger_balances SET locked = 1 WHERE asset = ${COLLATERAL} AND account LIKE '0x%'`.execute(db);
    });
    const bad = audit();
    assert.equal(bad.status, 1, bad.stdout);
    assert.match(bad.stderr, /BROKEN locks-match-commitments/);
  });
});
