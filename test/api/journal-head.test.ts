import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { get } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { newTrader, orderBody, type Trader } from '../helpers/trader.ts';

// GET /journal/head and the journal-seq header of order commands (EXTENSIONS.md section 14).
describe('the journal head', () => {
  let server: TestServer;
  let market: PublishedMarket;
  let trader: Trader;

  before(async () => {
    server = await startTestServer();
    market = (await createPublishedEvent(server)).markets[0]!;
    trader = await newTrader(server, { fund: '1000' });
  });
  after(async () => {
    await server.close();
  });

  const head = async () => (await get(server.api('/journal/head'))).body as { seq: number; hash: string; at: string };
  /** The hash the journal holds for a record, or undefined once a snapshot pruned it. */
  const storedHash = async (seq: number) =>
    (await server.ctx.store.db.selectFrom('engine_journal').select('hash').where('seq', '=', String(seq) as never).executeTakeFirst())?.hash;

  it('is public, names the record an order command made durable, and never moves back', async () => {
    const before = await head();
    assert.deepEqual(Object.keys(before).sort(), ['at', 'hash', 'seq']);
    assert.ok(Number.isInteger(before.seq));
    assert.match(before.hash, /^0x[0-9a-f]{64}$/);
    assert.ok(!Number.isNaN(Date.parse(before.at)));
    const placed = await trader.call('POST', '/orders', await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.1', size: '1', signed: false }));
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const seq = Number(placed.headers.get('svc-journal-seq'));
    assert.ok(seq > before.seq, `the order's record ${seq} follows ${before.seq}`);
    assert.ok((await head()).seq >= seq);
  });

  it('gives each position its own hash while orders stream in (records appended while earlier ones are in flight)', async () => {
    const bodies = await Promise.all(Array.from({ length: 120 }, (_, i) => orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.1', size: String(1 + (i % 7)), signed: false })));
    const seen: { seq: number; hash: string }[] = [];
    let placing = true;
    const polling = (async () => {
      while (placing) seen.push(await head());
    })();
    await Promise.all(bodies.map(async (body) => assert.equal((await trader.call('POST', '/orders', body)).status, 200)));
    placing = false;
    await polling;
    let checked = 0;
    for (const { seq, hash } of seen) {
      const stored = await storedHash(seq);
      if (stored === undefined) continue;
      assert.equal(hash, stored, `the head's hash of record ${seq}`);
      checked += 1;
    }
    assert.ok(checked > 0, 'some heads checked against the journal');
  });
});
