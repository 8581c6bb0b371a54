import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { bearer, hmacHeaders } from '../helpers/auth-client.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get, post, request, type JsonResponse } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { newTrader, orderBody, type Trader } from '../helpers/trader.ts';

/** A 429 with the error body, Retry-After in whole seconds and the RateLimit-* headers. */
function expectLimited(response: JsonResponse, retryAfterSec: number): void {
  expectError(response, 429, 'RATE_LIMITED');
  assert.equal(response.headers.get('retry-after'), String(retryAfterSec));
  assert.equal(response.headers.get('ratelimit-remaining'), '0');
  assert.ok(response.headers.get('ratelimit-limit'));
}

describe('rate limits per API key and session (RATE_LIMIT_ORDERS, RATE_LIMIT_REQUESTS)', () => {
  let server: TestServer;
  let market: PublishedMarket;
  let alice: Trader;
  let bob: Trader;

  before(async () => {
    server = await startTestServer({ RATE_LIMIT_REQUESTS: '3/10s', RATE_LIMIT_ORDERS: '4/10s,6/1m' });
    market = (await createPublishedEvent(server)).markets[0]!;
    [alice, bob] = [await newTrader(server, { fund: '100' }), await newTrader(server, { fund: '100' })];
  });
  after(async () => { await server.close(); });

  /** Starts fresh windows: the server clock moves to the next whole minute. */
  const nextMinute = async () => {
    const now = server.ctx.clock.nowMs();
    expectOk(await post(server.api('/admin/clock'), { advanceMs: 60_000 - (now % 60_000) }, server.adminHeaders));
  };
  const expectOk = (response: JsonResponse) => assert.ok(response.status < 300, `${response.status} ${JSON.stringify(response.body)}`);
  const order = (trader: Trader) => orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.10', size: '1', signed: false });

  it('counts every other request of one API key, with RateLimit headers, and answers 429 with Retry-After beyond it', async () => {
    await nextMinute();
    const first = await alice.call('GET', '/account');
    expectOk(first);
    assert.deepEqual(['limit', 'remaining', 'reset'].map((name) => first.headers.get(`ratelimit-${name}`)), ['3', '2', '10']);
    expectOk(await alice.call('GET', '/account/balance'));
    expectOk(await alice.call('GET', '/auth/api-keys'));
    expectLimited(await alice.call('GET', '/account'), 10);
    // Another user's key has its own budget; operations routes are never limited.
    expectOk(await bob.call('GET', '/account'));
    for (let i = 0; i < 5; i++) assert.equal((await get(`${server.url}/healthz`)).status, 200);
    assert.equal((await get(`${server.url}/healthz`)).headers.get('ratelimit-limit'), null);
    // The window ends by the server clock.
    await post(server.api('/admin/clock'), { advanceMs: 10_000 }, server.adminHeaders);
    expectOk(await alice.call('GET', '/account'));
  });

  it('counts a session apart from the API keys of the same user', async () => {
    await nextMinute();
    for (let i = 0; i < 3; i++) expectOk(await get(server.api('/account'), bearer(alice.session.token)));
    expectLimited(await get(server.api('/account'), bearer(alice.session.token)), 10);
    expectOk(await alice.call('GET', '/account'));
  });

  it('counts order commands per API key: each order of a batch, cancels, in a burst and a sustained window', async () => {
    await nextMinute();
    const batch = await alice.call('POST', '/orders/batch', { orders: [await order(alice), await order(alice), await order(alice)] });
    expectOk(batch);
    assert.equal(batch.headers.get('ratelimit-remaining'), '1');
    const placed = await alice.call('POST', '/orders', await order(alice));
    expectOk(placed);
    // Order commands do not spend the budget of other requests, and the reverse.
    for (let i = 0; i < 3; i++) expectOk(await alice.call('GET', '/account'));
    expectLimited(await alice.call('POST', `/orders/${placed.body.id}/cancel`), 10);
    expectOk(await bob.call('POST', '/orders', await order(bob)));
    // The next burst window: the cancel makes 6 of the minute (the refused one counted too), so
    // the sustained window refuses the next order until the minute ends.
    await post(server.api('/admin/clock'), { advanceMs: 10_000 }, server.adminHeaders);
    expectOk(await alice.call('POST', `/orders/${placed.body.id}/cancel`));
    const sustained = await alice.call('POST', '/orders', await order(alice));
    expectError(sustained, 429, 'RATE_LIMITED');
    const nowInMinute = server.ctx.clock.nowMs() % 60_000;
    assert.equal(sustained.headers.get('retry-after'), String(Math.ceil((60_000 - nowInMinute) / 1000)));
  });
});

describe('a batch heavier than a rate-limit window', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ RATE_LIMIT_ORDERS: '4/10s,20/1m' }); });
  after(async () => { await server.close(); });

  it('is 400 saying how many would pass, not a 429 whose Retry-After never helps, and counts as one', async () => {
    const market = (await createPublishedEvent(server)).markets[0]!;
    const carol = await newTrader(server, { fund: '100' });
    const order = () => orderBody(server, carol, { tokenId: market.tokenId1, side: 'BUY', price: '0.10', size: '1', signed: false });
    const heavy = await carol.call('POST', '/orders/batch', { orders: await Promise.all(Array.from({ length: 5 }, order)) });
    expectError(heavy, 400, 'VALIDATION_FAILED');
    assert.match(heavy.body.message, /counts 5 against a rate limit of 4 per 10 s.*send at most 4 per request/);
    assert.equal(heavy.headers.get('ratelimit-remaining'), '3');
    const fits = await carol.call('POST', '/orders/batch', { orders: await Promise.all(Array.from({ length: 3 }, order)) });
    assert.equal(fits.status, 200, JSON.stringify(fits.body));
  });
});

describe('public endpoints by default (issue 38)', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  it('limits requests without credentials to 1000 per 10 s per address unless RATE_LIMIT_PUBLIC says otherwise', async () => {
    const nonce = await get(server.api('/auth/nonce'));
    assert.equal(nonce.status, 200);
    assert.equal(nonce.headers.get('ratelimit-policy'), '1000;w=10');
    assert.equal(nonce.headers.get('ratelimit-limit'), '1000');
    assert.equal(Number(nonce.headers.get('ratelimit-remaining')), 999);
  });

  it('keeps unused sign-in nonces out of the database', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await get(server.api('/auth/nonce'))).status, 200);
    const { rows } = await sql<{ count: string }>`SELECT count(*) AS count FROM auth_nonces`.execute(server.ctx.store.db);
    assert.equal(Number(rows[0]!.count), 0);
  });
});

describe('rate limits per client address (RATE_LIMIT_PUBLIC, TRUST_PROXY)', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ RATE_LIMIT_PUBLIC: '3/10s', TRUST_PROXY: 'true' }); });
  after(async () => { await server.close(); });

  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('limits requests without credentials per address, read from X-Forwarded-For behind a trusted proxy', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await get(server.api('/events'), from('203.0.113.7'))).status, 200);
    expectLimited(await get(server.api('/events'), from('203.0.113.7')), secondsLeftOfWindow(server, 10_000));
    assert.equal((await get(server.api('/events'), from('203.0.113.8'))).status, 200);
    assert.equal((await get(`${server.url}/readyz`, from('203.0.113.7'))).status, 200);
    // The operator's token is not limited.
    assert.equal((await get(server.api('/events'), { ...from('203.0.113.7'), ...server.adminHeaders })).status, 200);
  });

  it('reads the rightmost X-Forwarded-For entry: a client rotating the first one does not escape its limit (issue 38)', async () => {
    // nginx and AWS ALB append the address they saw to what the client sent.
    for (let i = 0; i < 3; i++) assert.equal((await get(server.api('/events'), from(`192.0.2.${i}, 203.0.113.77`))).status, 200);
    expectLimited(await get(server.api('/events'), from('192.0.2.99, 203.0.113.77')), secondsLeftOfWindow(server, 10_000));
  });

  it('counts refused credentials against the address, so invented API keys are bounded too', async () => {
    const invented = { apiKey: randomUUID(), secret: 'x', passphrase: 'y' };
    const headers = () => ({ ...from('198.51.100.1'), ...hmacHeaders(invented, 'GET', '/api/v1/account', '', { timestampMs: server.ctx.clock.nowMs() }) });
    for (let i = 0; i < 3; i++) expectError(await get(server.api('/account'), headers()), 401, 'UNAUTHORIZED');
    expectError(await get(server.api('/account'), headers()), 429, 'RATE_LIMITED');
    expectError(await request('POST', server.api('/auth/login'), { body: { message: 'x', signature: '0x' }, headers: from('198.51.100.1') }), 429, 'RATE_LIMITED');
  });
});

describe('rate limits per client address without a trusted proxy', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ RATE_LIMIT_PUBLIC: '2/10s' }); });
  after(async () => { await server.close(); });

  it('ignores X-Forwarded-For: every request here comes from 127.0.0.1', async () => {
    assert.equal((await get(server.api('/events'), { 'x-forwarded-for': '192.0.2.1' })).status, 200);
    assert.equal((await get(server.api('/events'), { 'x-forwarded-for': '192.0.2.2' })).status, 200);
    expectLimited(await get(server.api('/events'), { 'x-forwarded-for': '192.0.2.3' }), secondsLeftOfWindow(server, 10_000));
  });
});

/** Whole seconds until the fixed window of `windowMs` holding the server's (manual) clock ends. */
function secondsLeftOfWindow(server: TestServer, windowMs: number): number {
  return Math.ceil((windowMs - (server.ctx.clock.nowMs() % windowMs)) / 1000);
}
