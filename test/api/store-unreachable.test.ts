import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { createScratchDatabase } from '../helpers/database.ts';
import { expectError, get, type JsonResponse } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.ts';
import { expectAuditClean, newTrader, orderBody, type Trader } from '../helpers/trader.ts';

const POSTGRES_URL = process.env.DATABASE_URL;

/** PostgreSQL lost under a running node (its host down, a restart): every request it needs is a 503 to retry, never a 500. */
describe('PostgreSQL out of reach', { skip: POSTGRES_URL ? false : 'needs DATABASE_URL', timeout: 120_000 }, () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let relay: TcpCut;
  let server: TestServer;
  let trader: Trader;
  let market: PublishedMarket;

  before(async () => {
    database = await createScratchDatabase(POSTGRES_URL!);
    const url = new URL(database.url);
    relay = await tcpCut(url.hostname, Number(url.port || 5432));
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    server = await startTestServer({ DATABASE_URL: url.toString() });
    market = (await createPublishedEvent(server)).markets[0]!;
    trader = await newTrader(server, { fund: '100' });
  });
  after(async () => {
    relay?.restore();
    await server?.close();
    await relay?.close();
    await database?.drop();
  });

  const untilStatus = async (path: string, status: number): Promise<JsonResponse> => {
    for (let attempt = 0; ; attempt += 1) {
      const response = await get(server.api(path));
      if (response.status === status || attempt === 100) return response;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('answers reads, signed calls and orders 503 SERVICE_UNAVAILABLE with Retry-After while the database is cut off, and serves them once it is back', async () => {
    assert.equal((await get(server.api('/events'))).status, 200);
    const order = (price: string) => orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price, size: '10' });
    const [during, afterwards] = await Promise.all([order('0.4'), order('0.3')]);
    relay.cut();
    // Read from the tables (GET /markets of an empty catalogue is answered from the engine's memory).
    for (const path of ['/events', '/trades']) {
      const response = await get(server.api(path));
      expectError(response, 503, 'SERVICE_UNAVAILABLE');
      assert.ok(Number(response.headers.get('retry-after')) >= 1, `${path}: Retry-After ${response.headers.get('retry-after')}`);
    }
    expectError(await trader.call('GET', '/orders'), 503, 'SERVICE_UNAVAILABLE');
    expectError(await trader.call('POST', '/orders', during), 503, 'SERVICE_UNAVAILABLE');
    expectError(await get(`${server.url}/readyz`), 503, 'SERVICE_UNAVAILABLE');
    relay.restore();
    assert.equal((await untilStatus('/events', 200)).status, 200);
    // The engine took its state back from the store: the order refused meanwhile is not there, a new one rests.
    let placed = await trader.call('POST', '/orders', afterwards);
    for (let attempt = 0; placed.status === 503 && attempt < 100; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      placed = await trader.call('POST', '/orders', afterwards);
    }
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const open = (await trader.call('GET', '/orders')).body;
    assert.deepEqual(open.map((o: { price: number }) => o.price), [0.3]);
    assert.equal((await get(`${server.url}/readyz`)).status, 200);
    await expectAuditClean(server);
  });
});
