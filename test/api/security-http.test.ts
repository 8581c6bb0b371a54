import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { exchangeInfo, hmacHeaders } from '../helpers/auth-client.ts';
import { expectError, get, request } from '../helpers/http.ts';
import { rawHttp } from '../helpers/raw-http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { newTrader, orderBody, type Trader } from '../helpers/trader.ts';
import { connectInbox, refusedConnection, type Inbox } from '../realtime/helpers.ts';

describe('security headers, strict JSON bodies, sockets per address', () => {
  let server: TestServer;
  let trader: Trader;
  let market: PublishedMarket;
  before(async () => {
    server = await startTestServer({ SOCKETS_PER_ADDRESS: '2' });
    market = (await createPublishedEvent(server)).markets[0]!;
    trader = await newTrader(server, { fund: '10' });
  });
  after(async () => { await server.close(); });

  it('sends helmet headers with a CSP for a same-origin web app, and a policy /docs works under', async () => {
    const api = await get(server.api('/events'));
    const policy = api.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "connect-src 'self' ws: wss:", "img-src 'self' data: https:", "frame-ancestors 'none'", "object-src 'none'"]) {
      assert.ok(policy.includes(directive), `${directive} in ${policy}`);
    }
    assert.doesNotMatch(policy, /upgrade-insecure-requests/);
    assert.equal(api.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(api.headers.get('x-frame-options'), 'SAMEORIGIN');
    assert.ok(api.headers.get('strict-transport-security'));
    const docs = await fetch(`${server.url}/docs/`);
    assert.equal(docs.status, 200);
    assert.match(docs.headers.get('content-security-policy') ?? '', /script-src 'self' 'unsafe-inline'/);
    const script = /<script[^>]*src="([^"]+)"/.exec(await docs.text())?.[1];
    assert.ok(script, 'the docs page loads its viewer from this server');
    assert.equal((await fetch(new URL(script, `${server.url}/docs/`))).status, 200);
  });

  it('refuses JSON bodies with __proto__ or constructor.prototype keys (400)', async () => {
    for (const rawBody of ['{"displayName":"x_y_z","__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']) {
      const response = await request('PATCH', server.api('/account'), { rawBody, headers: { 'content-type': 'application/json', authorization: `Bearer ${trader.session.token}` } });
      expectError(response, 400, 'VALIDATION_FAILED');
    }
    expectError(await request('POST', server.api('/admin/categories'), { rawBody: '{"name":"Proto","__proto__":{"x":1}}', headers: server.adminHeaders }), 400, 'VALIDATION_FAILED');
  });

  it('refuses properties a body schema does not declare, nested ones and order batch items included', async () => {
    expectError(await trader.call('PATCH', '/account', { displayName: 'extra_field', role: 'admin' }), 400, 'VALIDATION_FAILED');
    expectError(await trader.call('POST', '/account/faucet', { amount: '1', to: '0x0000000000000000000000000000000000000001' }), 400, 'VALIDATION_FAILED');
    const order = await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.10', size: '1', signed: false });
    expectError(await trader.call('POST', '/orders', { ...order, owner: trader.address }), 400, 'VALIDATION_FAILED');
    const batch = await trader.call('POST', '/orders/batch', { orders: [order, { ...order, salt: '7', owner: trader.address }] });
    assert.equal(batch.status, 200);
    assert.deepEqual(batch.body.results.map((r: { success: boolean }) => r.success), [true, false]);
    assert.equal(batch.body.results[1].error, 'VALIDATION_FAILED: order must NOT have the additional property "owner"');
    expectError(await trader.call('POST', '/orders/batch', { orders: [order], extra: 1 }), 400, 'VALIDATION_FAILED');
  });

  it('does not coerce body types, while query strings and path parameters still are', async () => {
    expectError(await trader.call('POST', '/account/faucet', { amount: 1000 }), 400, 'VALIDATION_FAILED');
    expectError(await trader.call('PATCH', '/account', { anonymous: 'true' }), 400, 'VALIDATION_FAILED');
    const order = await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.10', size: '1', signed: false });
    expectError(await trader.call('POST', '/orders', { ...order, expiration: '0' }), 400, 'VALIDATION_FAILED');
    assert.equal((await trader.call('POST', '/account/faucet', { amount: '1' })).status, 200);
    // Query strings are text: limit=2 is the number 2.
    const page = await get(server.api('/events?limit=2&offset=0'));
    assert.equal(page.status, 200);
    assert.ok(Array.isArray(page.body) || typeof page.body === 'object');
  });

  it('answers a body that is not application/json 415, a signed one included (it was a 401 for its HMAC)', async () => {
    const body = JSON.stringify({ anonymous: true });
    const { serverTime } = await exchangeInfo(server);
    for (const [i, type] of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded'].entries()) {
      const headers = hmacHeaders(trader.creds, 'PATCH', '/api/v1/account', body, { timestampMs: serverTime - i });
      expectError(await request('PATCH', server.api('/account'), { headers: { ...headers, 'content-type': type }, rawBody: body }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const signed = hmacHeaders(trader.creds, 'PATCH', '/api/v1/account', body, { timestampMs: serverTime - 3 });
    assert.equal((await request('PATCH', server.api('/account'), { headers: { ...signed, 'content-type': 'application/json' }, rawBody: body })).status, 200);
  });

  it('answers oversized headers 431 with a code of its own (VALIDATION_FAILED is always 400) ', async () => {
    const { answer, status } = await rawHttp(server.api('/exchange'), `GET /api/v1/exchange HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.equal(status, 431, answer);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    assert.deepEqual([body.statusCode, body.code], [431, 'HEADERS_TOO_LARGE']);
  });

  it('answers an HTTP/1.1 request without a Host header 400 with the error body; HTTP/1.0 needs none', async () => {
    const { answer, status } = await rawHttp(server.api('/exchange'), 'GET /api/v1/exchange HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.equal(status, 400, answer);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    assert.deepEqual([body.statusCode, body.code], [400, 'VALIDATION_FAILED']);
    assert.equal((await rawHttp(server.api('/exchange'), 'GET /api/v1/exchange HTTP/1.0\r\n\r\n')).status, 200);
  });

  it('bounds open Socket.IO connections per client address (SOCKETS_PER_ADDRESS)', async () => {
    const open: Inbox[] = [await connectInbox(server.url), await connectInbox(server.url)];
    try {
      await refusedConnection(server.url, '/');
      open.pop()!.close();
      // The freed place can be taken again once the server saw the close.
      for (;;) {
        try {
          open.push(await connectInbox(server.url));
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      for (const inbox of open) inbox.close();
    }
  });
});
