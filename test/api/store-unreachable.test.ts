import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { createScratchDatabase } from '../helpers/database.ts';
import { expectError, get, type JsonResponse } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { metricValues } from '../helpers/metrics.ts';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.ts';
import { expectAuditClean, newTrader, orderBody, type Trader } from '../helpers/trader.ts';

const POSTGRES_URL = process.env.DATABASE_URL;
const needsPostgres = { skip: POSTGRES_URL ? false : 'needs DATABASE_URL', timeout: 120_000 };

/** A server whose PostgreSQL is reached through a relay the test can cut or stall, a trader and a market. */
function serverThroughRelay(env: Record<string, string> = {}) {
  const setup = {} as { database: Awaited<ReturnType<typeof createScratchDatabase>>; relay: TcpCut; server: TestServer; trader: Trader; market: PublishedMarket };
  before(async () => {
    setup.database = await createScratchDatabase(POSTGRES_URL!);
    const url = new URL(setup.database.url);
    setup.relay = await tcpCut(url.hostname, Number(url.port || 5432));
    url.hostname = '127.0.0.1';
    url.port = String(setup.relay.port);
    setup.server = await startTestServer({ DATABASE_URL: url.toString(), ...env });
    setup.market = (await createPublishedEvent(setup.server)).markets[0]!;
    setup.trader = await newTrader(setup.server, { fund: '100' });
  });
  after(async () => {
    setup.relay?.restore();
    await setup.server?.close();
    await setup.relay?.close();
    await setup.database?.drop();
  });
  return setup;
}

/** Two signed bids the test places while the database is out of reach (0.4) and once it is back (0.3), signed while it answers. */
async function twoOrders({ server, trader, market }: ReturnType<typeof serverThroughRelay>): Promise<[unknown, unknown]> {
  assert.equal((await get(server.api('/events'))).status, 200);
  const order = (price: string) => orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price, size: '10' });
  return Promise.all([order('0.4'), order('0.3')]);
}

const untilStatus = async (url: string, status: number): Promise<JsonResponse> => {
  for (let attempt = 0; ; attempt += 1) {
    const response = await get(url);
    if (response.status === status || attempt === 100) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** Places `body` once the node takes orders again (its engine rebuilds its state from the store first). */
async function placeWhenBack(trader: Trader, body: unknown): Promise<JsonResponse> {
  let placed = await trader.call('POST', '/orders', body);
  for (let attempt = 0; placed.status === 503 && attempt < 100; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    placed = await trader.call('POST', '/orders', body);
  }
  return placed;
}

const expectUnavailable = (response: JsonResponse, what: string) => {
  expectError(response, 503, 'SERVICE_UNAVAILABLE');
  assert.ok(Number(response.headers.get('retry-after')) >= 1, `${what}: Retry-After ${response.headers.get('retry-after')}`);
};

/** PostgreSQL lost under a running node (its host down, a restart): every request it needs is a 503 to retry, never a 500. */
describe('PostgreSQL out of reach', needsPostgres, () => {
  const setup = serverThroughRelay();

  it('answers reads, signed calls and orders 503 SERVICE_UNAVAILABLE with Retry-After while the database is cut off, and serves them once it is back', async () => {
    const { server, trader, relay } = setup;
    const [during, afterwards] = await twoOrders(setup);
    relay.cut();
    // Read from the tables (GET /markets of an empty catalogue is answered from the engine's memory).
    for (const path of ['/events', '/trades']) expectUnavailable(await get(server.api(path)), path);
    expectError(await trader.call('GET', '/orders'), 503, 'SERVICE_UNAVAILABLE');
    expectError(await trader.call('POST', '/orders', during), 503, 'SERVICE_UNAVAILABLE');
    expectError(await get(`${server.url}/readyz`), 503, 'SERVICE_UNAVAILABLE');
    relay.restore();
    assert.equal((await untilStatus(server.api('/events'), 200)).status, 200);
    // The engine took its state back from the store: the order refused meanwhile is not there, a new one rests.
    const placed = await placeWhenBack(trader, afterwards);
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const open = (await trader.call('GET', '/orders')).body;
    assert.deepEqual(open.map((o: { price: number }) => o.price), [0.3]);
    assert.equal((await get(`${server.url}/readyz`)).status, 200);
    await expectAuditClean(server);
  });
});

/**
 * PostgreSQL that stops answering without closing anything (the network drops every packet): no
 * request waits longer than DATABASE_TIMEOUT_MS for it, and the connections it silenced are never
 * used again.
 */
describe('PostgreSQL that stops answering', needsPostgres, () => {
  const TIMEOUT_MS = 1_500;
  const setup = serverThroughRelay({ DATABASE_TIMEOUT_MS: String(TIMEOUT_MS) });

  /** The response, and how long it took. */
  const timed = async (request: Promise<JsonResponse>): Promise<[JsonResponse, number]> => {
    const startedMs = performance.now();
    const response = await request;
    return [response, performance.now() - startedMs];
  };
  /** Well past the timeout, well short of waiting for ever (a machine under CI's load is slow). */
  const BOUND_MS = TIMEOUT_MS * 8;

  it('answers reads, signed calls, orders and /readyz 503 with Retry-After within the timeout while it is silent, and serves them on fresh connections once it answers again', async () => {
    const { server, trader, relay } = setup;
    const [during, afterwards] = await twoOrders(setup);
    relay.stall();
    // All at once: more requests than the pool has connections, so some wait for one.
    const stalled = await Promise.all([
      ...['/events', '/trades', '/events?limit=1', '/trades?limit=1'].map((path) => timed(get(server.api(path)))),
      timed(trader.call('GET', '/orders')),
      timed(trader.call('POST', '/orders', during)),
      timed(get(`${server.url}/readyz`)),
      ...Array.from({ length: 12 }, (_, index) => timed(get(server.api(`/events?offset=${index}`)))),
    ]);
    for (const [response, tookMs] of stalled) {
      expectUnavailable(response, `${response.status} after ${Math.round(tookMs)} ms`);
      assert.ok(tookMs < BOUND_MS, `answered after ${Math.round(tookMs)} ms`);
    }
    relay.restore();
    // The silenced connections stay silent: a pool that kept one would never answer these.
    assert.equal((await untilStatus(server.api('/events'), 200)).status, 200);
    // What an operator sees of it: statements cut by the timeout, no caller waiting any more.
    const metrics = await metricValues(server, ['pmx_store_statements_timed_out_total', 'pmx_store_waiting']);
    assert.ok(metrics.get('pmx_store_statements_timed_out_total')! >= 1, JSON.stringify([...metrics]));
    assert.equal(metrics.get('pmx_store_waiting'), 0);
    const placed = await placeWhenBack(trader, afterwards);
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    assert.deepEqual((await trader.call('GET', '/orders')).body.map((o: { price: number }) => o.price), [0.3]);
    for (let round = 0; round < 3; round += 1) {
      const reads = await Promise.all(Array.from({ length: 20 }, () => timed(get(server.api('/trades')))));
      for (const [response, tookMs] of reads) assert.ok(response.status === 200 && tookMs < BOUND_MS, `${response.status} after ${Math.round(tookMs)} ms`);
    }
    assert.equal((await untilStatus(`${server.url}/readyz`, 200)).status, 200);
    await expectAuditClean(server);
  });

  it('shuts down while it is silent in bounded time: no goodbye to the database is waited for past the timeout (releasing the lease) or a second (its kept connections)', async () => {
    const { server, relay } = setup;
    relay.stall();
    const startedMs = performance.now();
    await server.close();
    const tookMs = performance.now() - startedMs;
    assert.ok(tookMs < BOUND_MS, `closed after ${Math.round(tookMs)} ms`);
  });
});
