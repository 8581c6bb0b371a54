import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { bearer, createApiKey, exchangeInfo, hmacHeaders, signedRequest, signIn, type ApiCredentials } from '../helpers/auth-client.ts';
import { expectError, request, type JsonResponse } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Route {
  method: string;
  path: string;
  body?: unknown;
}

/** Every route that accepts API-key HMAC in this module, with a valid request for each. */
const ROUTES: Route[] = [
  { method: 'GET', path: '/account' },
  { method: 'PATCH', path: '/account', body: { anonymous: true } },
  { method: 'GET', path: '/auth/api-keys' },
];

const WINDOW_MS = 30_000;

function expectRefused(response: JsonResponse, reason: RegExp): void {
  expectError(response, 401, 'UNAUTHORIZED');
  assert.match(response.body.message, reason);
}

describe('API-key HMAC authentication', () => {
  let server: TestServer;
  let creds: ApiCredentials;
  let token: string;
  let timestampsUsed = 0;

  before(async () => {
    server = await startTestServer();
    ({ token } = await signIn(server));
    creds = await createApiKey(server, token);
  });
  after(async () => { await server.close(); });

  /**
   * A timestamp near the (standing) server clock that no earlier request used: identical
   * requests with one timestamp would be replays of each other.
   */
  const freshTimestamp = async () => (await exchangeInfo(server)).serverTime - timestampsUsed++;

  /** Sends the route's request with the given headers and exactly its body text. */
  const send = (route: Route, headers: Record<string, string>, path = route.path) => {
    const text = route.body === undefined ? undefined : JSON.stringify(route.body);
    return request(route.method, server.api(path), {
      headers: { ...headers, ...(text !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(text !== undefined ? { rawBody: text } : {}),
    });
  };

  /** HMAC headers for the route, each part overridable to build a wrong signature. */
  const headersFor = async (route: Route, parts: { timestampMs?: number; method?: string; path?: string; body?: string; credentials?: ApiCredentials } = {}) => {
    const body = parts.body ?? (route.body === undefined ? '' : JSON.stringify(route.body));
    const timestampMs = parts.timestampMs ?? (await freshTimestamp());
    return hmacHeaders(parts.credentials ?? creds, parts.method ?? route.method, parts.path ?? `/api/v1${route.path}`, body, { timestampMs });
  };

  for (const route of ROUTES) {
    describe(`${route.method} ${route.path}`, () => {
      it('accepts a correctly signed request', async () => {
        const response = await send(route, await headersFor(route));
        assert.equal(response.status, 200, JSON.stringify(response.body));
      });

      it('refuses a request without credentials', async () => {
        expectRefused(await send(route, {}), /required/);
      });

      it('refuses a request missing one header', async () => {
        const headers = await headersFor(route);
        delete headers['svc-passphrase'];
        expectRefused(await send(route, headers), /required/);
      });

      it('refuses an unknown or malformed API key', async () => {
        expectRefused(await send(route, await headersFor(route, { credentials: { ...creds, apiKey: randomUUID() } })), /invalid API key/);
        expectRefused(await send(route, await headersFor(route, { credentials: { ...creds, apiKey: 'key-1' } })), /invalid API key/);
      });

      it('refuses a wrong passphrase', async () => {
        expectRefused(await send(route, await headersFor(route, { credentials: { ...creds, passphrase: `${creds.passphrase}x` } })), /passphrase/);
      });

      it('refuses a signature made with another secret', async () => {
        expectRefused(await send(route, await headersFor(route, { credentials: { ...creds, secret: creds.secret.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) } })), /signature does not match/);
      });

      it('refuses a signature over another body, path or method', async () => {
        expectRefused(await send(route, await headersFor(route, { body: '{"anonymous":false}' })), /signature does not match/);
        expectRefused(await send(route, await headersFor(route, { path: '/api/v1/orders' })), /signature does not match/);
        expectRefused(await send(route, await headersFor(route, { path: route.path })), /signature does not match/);
        expectRefused(await send(route, await headersFor(route, { method: route.method === 'GET' ? 'POST' : 'GET' })), /signature does not match/);
      });

      it('refuses stale and future timestamps, and accepts the window edges', async () => {
        const { serverTime } = await exchangeInfo(server);
        expectRefused(await send(route, await headersFor(route, { timestampMs: serverTime - WINDOW_MS - 1 })), /window/);
        expectRefused(await send(route, await headersFor(route, { timestampMs: serverTime + WINDOW_MS + 1 })), /window/);
        expectRefused(await send(route, await headersFor(route, { timestampMs: Math.floor(serverTime / 1000) })), /window/);
        assert.equal((await send(route, await headersFor(route, { timestampMs: serverTime - WINDOW_MS }))).status, 200);
        assert.equal((await send(route, await headersFor(route, { timestampMs: serverTime + WINDOW_MS }))).status, 200);
      });

      it('refuses a timestamp that is not Unix milliseconds', async () => {
        const headers = await headersFor(route);
        expectRefused(await send(route, { ...headers, 'svc-timestamp': 'soon' }), /milliseconds/);
        expectRefused(await send(route, { ...headers, 'svc-timestamp': `${headers['svc-timestamp']}.5` }), /milliseconds/);
      });

      it('refuses a replayed signature', async () => {
        const headers = await headersFor(route);
        assert.equal((await send(route, headers)).status, 200);
        expectRefused(await send(route, headers), /already used/);
      });

      it('takes a bearer token before the headers, and refuses an invalid one', async () => {
        const headers = await headersFor(route, { credentials: { ...creds, passphrase: 'wrong' } });
        expectRefused(await send(route, { ...headers, ...bearer(`${token}x`) }), /sign-in token/);
        assert.equal((await send(route, bearer(token))).status, 200);
      });

      it('refuses a revoked key', async () => {
        const revoked = await createApiKey(server, token);
        assert.equal((await send(route, await headersFor(route, { credentials: revoked }))).status, 200);
        assert.equal((await request('DELETE', server.api(`/auth/api-keys/${revoked.apiKey}`), { headers: bearer(token) })).status, 204);
        expectRefused(await send(route, await headersFor(route, { credentials: revoked })), /invalid API key/);
      });
    });
  }

  it('accepts two different requests with the same timestamp', async () => {
    const timestampMs = await freshTimestamp();
    assert.equal((await send(ROUTES[0]!, await headersFor(ROUTES[0]!, { timestampMs }))).status, 200);
    assert.equal((await send(ROUTES[2]!, await headersFor(ROUTES[2]!, { timestampMs }))).status, 200);
  });

  it('takes reads that differ only in their query in the same millisecond (one signature), and refuses each sent twice', async () => {
    const route = ROUTES[0]!;
    const headers = await headersFor(route);
    for (const path of ['/account?a=1', '/account?a=2', '/account']) assert.equal((await send(route, headers, path)).status, 200, path);
    for (const path of ['/account?a=1', '/account']) expectRefused(await send(route, headers, path), /already used/);
  });

  it('refuses a write sent again with a query appended', async () => {
    const route = ROUTES.find((r) => r.method !== 'GET')!;
    const headers = await headersFor(route);
    assert.equal((await send(route, headers)).status, 200);
    expectRefused(await send(route, headers, `${route.path}?again=1`), /already used/);
  });

  it('leaves the query string out of the signature', async () => {
    const response = await send(ROUTES[0]!, await headersFor(ROUTES[0]!), '/account?x=1&y=2');
    assert.equal(response.status, 200);
  });

  it('signs the path exactly as sent on the wire, percent-encoding included', async () => {
    const route = ROUTES[0]!;
    const encoded = '/acc%6Funt';
    assert.equal((await send(route, await headersFor(route, { path: `/api/v1${encoded}` }), encoded)).status, 200);
    expectRefused(await send(route, await headersFor(route), encoded), /signature does not match/);
  });

  it('refuses a signature of upper-case hex', async () => {
    const headers = await headersFor(ROUTES[0]!);
    expectRefused(await send(ROUTES[0]!, { ...headers, 'svc-signature': headers['svc-signature']!.toUpperCase() }), /signature does not match/);
  });
});

describe('HMAC configuration', () => {
  it('takes the header names from HEADER_PREFIX', async () => {
    const server = await startTestServer({ HEADER_PREFIX: 'acme' });
    try {
      const { token } = await signIn(server);
      const creds = await createApiKey(server, token);
      const { serverTime, headerPrefix } = await exchangeInfo(server);
      assert.equal(headerPrefix, 'acme');
      const acme = hmacHeaders(creds, 'GET', '/api/v1/account', '', { timestampMs: serverTime, prefix: 'acme' });
      assert.ok('acme-api-key' in acme);
      assert.equal((await request('GET', server.api('/account'), { headers: acme })).status, 200);
      const svc = hmacHeaders(creds, 'GET', '/api/v1/account', '', { timestampMs: serverTime - 1, prefix: 'svc' });
      expectRefused(await request('GET', server.api('/account'), { headers: svc }), /acme-api-key/);
      assert.equal((await signedRequest(server, creds, 'GET', '/auth/api-keys')).status, 200);
    } finally {
      await server.close();
    }
  });

  it('takes the accepted distance from HMAC_WINDOW_MS', async () => {
    const server = await startTestServer({ HMAC_WINDOW_MS: '1000' });
    try {
      const { token } = await signIn(server);
      const creds = await createApiKey(server, token);
      const { serverTime } = await exchangeInfo(server);
      const at = (timestampMs: number) => request('GET', server.api('/account'), { headers: hmacHeaders(creds, 'GET', '/api/v1/account', '', { timestampMs }) });
      assert.equal((await at(serverTime - 1000)).status, 200);
      expectRefused(await at(serverTime - 1001), /window/);
      expectRefused(await at(serverTime + 1001), /window/);
    } finally {
      await server.close();
    }
  });
});
