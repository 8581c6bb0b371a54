import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, TEST_CHAIN, type TestServer } from '../helpers/server.ts';

describe('operations routes', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  it('answers /healthz and /readyz', async () => {
    assert.deepEqual((await get(`${server.url}/healthz`)).body, { status: 'ok' });
    const ready = await get(`${server.url}/readyz`);
    assert.equal(ready.status, 200);
  });

  it('serves Prometheus metrics with HTTP request histograms', async () => {
    await get(`${server.url}/healthz`);
    const metrics = await get(`${server.url}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(String(metrics.body), /http_request_duration_seconds_bucket\{.*route="\/healthz"/);
  });

  it('publishes an OpenAPI 3.1 document and the interactive reference', async () => {
    const doc = await get(`${server.url}/openapi.json`);
    assert.equal(doc.body.openapi, '3.1.0');
    assert.ok(doc.body.paths['/api/v1/exchange']);
    const docs = await fetch(`${server.url}/docs`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /<html/i);
  });

  it('answers unknown routes with the error body', async () => {
    expectError(await get(server.api('/no-such-route')), 404, 'NOT_FOUND');
  });

  it('describes the signing domain on GET /exchange', async () => {
    const { body } = await get(server.api('/exchange'));
    assert.equal(body.chainId, 31337);
    assert.equal(body.eip712.version, '1');
    assert.equal(body.headerPrefix, 'svc');
    assert.equal(body.collateral.decimals, 6);
    assert.equal(typeof body.serverTime, 'number');
    const chainId = await post(`${server.url}/rpc`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
    if (TEST_CHAIN === 'none') {
      // CHAIN=none (EXTENSIONS.md section 14): no chain runs, and no /rpc answers.
      assert.deepEqual(body.chain, { kind: 'none', chainId: 31337 });
      expectError(chainId, 404, 'NOT_FOUND');
    } else {
      // CHAIN=embedded: the local chain, which /rpc serves to wallets.
      assert.deepEqual(body.chain, { kind: 'embedded', chainId: 31337, rpcUrl: `${server.url}/rpc` });
      assert.equal(chainId.body.result, '0x7a69');
    }
  });

  it('moves the manual clock only with the admin token', async () => {
    expectError(await post(server.api('/admin/clock'), { advanceMs: 1000 }), 401, 'UNAUTHORIZED');
    const before = (await get(server.api('/exchange'))).body.serverTime;
    const moved = await post(server.api('/admin/clock'), { advanceMs: 60_000 }, server.adminHeaders);
    assert.equal(moved.status, 200);
    assert.equal(Date.parse(moved.body.now), before + 60_000);
    expectError(await post(server.api('/admin/clock'), { advanceMs: 1, now: moved.body.now }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    expectError(await post(server.api('/admin/clock'), { now: '2000-01-01T00:00:00Z' }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    expectError(await post(server.api('/admin/clock'), { advanceMs: 'soon' }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    // Never past the last date-time the API can name; the clock stays where it was.
    expectError(await post(server.api('/admin/clock'), { advanceMs: Number.MAX_SAFE_INTEGER }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    const serverTime = (await get(server.api('/exchange'))).body.serverTime;
    assert.ok(Math.abs(serverTime - Date.parse(moved.body.now)) < 1_000, 'unmoved');
    assert.equal((await get(server.api('/events'))).status, 200);
  });

  it('refuses malformed JSON with a 400 error body', async () => {
    const response = await fetch(server.api('/admin/clock'), { method: 'POST', headers: server.adminHeaders, body: '{"advanceMs":' });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { code: string }).code, 'VALIDATION_FAILED');
  });
});

describe('the real clock', () => {
  it('has no clock route', async () => {
    const server = await startTestServer({ CLOCK: 'real' });
    try {
      expectError(await post(server.api('/admin/clock'), { advanceMs: 1 }, server.adminHeaders), 404, 'NOT_FOUND');
    } finally {
      await server.close();
    }
  });
});
