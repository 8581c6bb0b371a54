import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createScratchDatabase } from '../helpers/database.ts';
import { expectError, get, type JsonResponse } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.ts';

const POSTGRES_URL = process.env.DATABASE_URL;

/** PostgreSQL lost under a running node (its host down, a restart): every request it needs is a 503 to retry, never a 500. */
describe('PostgreSQL out of reach', { skip: POSTGRES_URL ? false : 'needs DATABASE_URL', timeout: 120_000 }, () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let relay: TcpCut;
  let server: TestServer;

  before(async () => {
    database = await createScratchDatabase(POSTGRES_URL!);
    const url = new URL(database.url);
    relay = await tcpCut(url.hostname, Number(url.port || 5432));
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    server = await startTestServer({ DATABASE_URL: url.toString() });
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

  it('answers reads 503 SERVICE_UNAVAILABLE with Retry-After while the database is cut off, and 200 once it is back', async () => {
    assert.equal((await get(server.api('/events'))).status, 200);
    relay.cut();
    // Read from the tables (GET /markets of an empty catalogue is answered from the engine's memory).
    for (const path of ['/events', '/trades']) {
      const response = await get(server.api(path));
      expectError(response, 503, 'SERVICE_UNAVAILABLE');
      assert.ok(Number(response.headers.get('retry-after')) >= 1, `${path}: Retry-After ${response.headers.get('retry-after')}`);
    }
    expectError(await get(`${server.url}/readyz`), 503, 'SERVICE_UNAVAILABLE');
    relay.restore();
    assert.equal((await untilStatus('/events', 200)).status, 200);
    assert.equal((await get(`${server.url}/readyz`)).status, 200);
  });
});
