import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { COLLATERAL } from '../../src/settlement/index.ts';
import { openStore } from '../../src/store/database.ts';
import { useDurableStore } from '../helpers/database.ts';
import { runBuiltAudit } from '../helpers/build.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { startTestServer } from '../helpers/server.ts';
import { newTrader, placeOrder } from '../helpers/trader.ts';

/**
 * `pmx audit` against a real store (PGlite on disk, or a scratch PostgreSQL database) that a real
 * server wrote: it replays the journal against its chain and the tables, and checks the ledger.
 */
describe('audit command', () => {
  const durable = useDurableStore('pmx-audit-');

  const tamper = async (statement: ReturnType<typeof sql>) => {
    const store = await openStore({ databaseUrl: durable.env.DATABASE_URL, dataDir: durable.env.DATA_DIR ?? 'memory://' });
    try {
      await statement.execute(store.db);
    } finally {
      await store.close();
    }
  };
  const audit = () => runBuiltAudit({ ...durable.env, LOG_LEVEL: 'silent' });

  it('exits 0 when every invariant holds, and 1 naming the broken one: a lock, a table the journal disagrees with, a record off its chain', async () => {
    const server = await startTestServer(durable.env);
    const market = (await createPublishedEvent(server)).markets[0]!;
    const trader = await newTrader(server, { fund: '10' });
    assert.equal((await trader.call('POST', `/markets/${market.id}/split`, { amount: '4' })).status, 200);
    assert.equal((await placeOrder(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '2' })).status, 200);
    await server.close();

    const good = audit();
    assert.equal(good.status, 0, good.stderr + good.stdout);
    assert.match(good.stdout, /every invariant holds/);

    await tamper(sql`UPDATE ledger_balances SET locked = locked + 1 WHERE asset = ${COLLATERAL} AND account LIKE '0x%'`);
    const locks = audit();
    assert.equal(locks.status, 1, locks.stdout);
    assert.match(locks.stderr, /BROKEN locks-match-commitments/);
    assert.match(locks.stderr, /BROKEN tables-match-journal: balance /);
    await tamper(sql`UPDATE ledger_balances SET locked = locked - 1 WHERE asset = ${COLLATERAL} AND account LIKE '0x%'`);

    await tamper(sql`UPDATE engine_journal SET record = replace(record, '"4000000"', '"4000001"') WHERE record LIKE '%"split"%'`);
    const chain = audit();
    assert.equal(chain.status, 1, chain.stdout);
    assert.match(chain.stderr, /BROKEN journal-chain: engine journal: record \d+ does not chain/);
  });
});
