import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../../src/client/index.ts';
import { post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { thrown } from './helpers.ts';

/**
 * The SDK's retries against a server whose public budget is two requests a second per client
 * address (EXTENSIONS.md section 10); each test is its own address, through the trusted proxy's header.
 */
describe('SDK retries after 429', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ RATE_LIMIT_PUBLIC: '2/1s', TRUST_PROXY: 'true' }); });
  after(async () => { await server.close(); });

  /**
   * Real fetch from `address`, recording each answer's status for `path`. The server's clock is
   * manual: a 429 moves it on by the Retry-After the client is about to wait, as time would.
   */
  function recordingFetch(address: string, path = '', statuses: number[] = []): typeof fetch {
    return async (input, init) => {
      const response = await fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': address } });
      if (String(input).includes(path)) statuses.push(response.status);
      if (response.status === 429) await post(server.api('/admin/clock'), { advanceMs: Number(response.headers.get('retry-after')) * 1000 }, server.adminHeaders);
      return response;
    };
  }

  it('retries a read after Retry-After, GET /exchange included (it syncs the clock)', async () => {
    const statuses: number[] = [];
    const client = createClient({ baseUrl: server.url, fetch: recordingFetch('203.0.113.1', '/exchange', statuses) });
    await client.events.list();
    await client.events.list();
    const info = await client.exchange();
    assert.equal(typeof info.serverTime, 'number');
    assert.deepEqual(statuses, [429, 200]);
  });

  it('gives up after its retries with the 429 as an ExchangeError carrying Retry-After', async () => {
    const client = createClient({ baseUrl: server.url, fetch: recordingFetch('203.0.113.2'), retry: { retries: 0 } });
    await client.events.list();
    await client.events.list();
    const error = await thrown(client.events.list());
    assert.deepEqual([error.status, error.code, error.retryAfterSeconds], [429, 'RATE_LIMITED', 1]);
  });
});
