import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readOrderHashChunk } from '../../src/store/orders-repository.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { useDurableStore } from '../helpers/database.ts';
import { expectError } from '../helpers/http.ts';
import { metricValues } from '../helpers/metrics.ts';
import { freePort } from '../helpers/process-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { newTrader, orderBody } from '../helpers/trader.ts';

/** Waits until the engine has read the stored orders' hashes into its filter (docs/engine.md "Admission"). */
async function usedHashFilterReady(server: TestServer): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if ((await metricValues(server, ['pmx_engine_used_hash_filter_ready'])).get('pmx_engine_used_hash_filter_ready') === 1) return;
    assert.ok(attempt < 200, 'the used-hash filter was never built');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A hash is used once, across restarts: after a start the engine rules out new hashes with a
 * filter it reads from the stored orders, and a hash it holds must never be ruled out.
 */
describe('order hashes used before a restart stay used', () => {
  const durable = useDurableStore('pmx-used-hashes-');

  it('refuses them once the filter is read from the store, and takes new ones', { timeout: 60_000 }, async () => {
    durable.env.PORT = String(await freePort());
    let server = await startTestServer(durable.env);
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const trader = await newTrader(server, { fund: '1000' });
    const resting = await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.20', size: '5' });
    const cancelled = await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.21', size: '5', signed: false });
    try {
      assert.equal((await trader.call('POST', '/orders', resting)).status, 200);
      const placed = await trader.call('POST', '/orders', cancelled);
      assert.equal(placed.status, 200);
      assert.equal((await trader.call('POST', `/orders/${placed.body.id}/cancel`)).status, 200);
    } finally {
      await server.close();
    }

    server = await startTestServer(durable.env);
    try {
      await usedHashFilterReady(server);
      // What the filter reads: every stored hash, chunk after chunk (here two a chunk, the last one empty).
      const db = server.ctx.store.db;
      const read: string[] = [];
      let after: string | undefined;
      do {
        const chunk = await readOrderHashChunk(db, 2, after);
        read.push(...chunk.hashes);
        after = chunk.next;
      } while (after !== undefined);
      const stored = await db.selectFrom('orders').select('hash').execute();
      assert.deepEqual(read.sort(), stored.map((row) => row.hash).sort());
      assert.equal(read.length, 2);
      expectError(await trader.call('POST', '/orders', resting), 409, 'CONFLICT');
      expectError(await trader.call('POST', '/orders', cancelled), 409, 'CONFLICT');
      // A new hash passes, and is used from then on: the filter takes what each batch stores.
      const fresh = await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.22', size: '5' });
      const first = await trader.call('POST', '/orders', fresh);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      expectError(await trader.call('POST', '/orders', fresh), 409, 'CONFLICT');
    } finally {
      await server.close();
    }
  });
});
