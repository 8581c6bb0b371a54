import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, request } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ensureBuild } from '../helpers/build.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('the web app is served at / beside the API', () => {
  let server: TestServer;
  before(async () => {
    ensureBuild();
    server = await startTestServer();
  });
  after(() => server.close());

  it('serves index.html at / and for any page a browser navigates to', async () => {
    for (const path of ['/', '/market/some-market', '/portfolio', '/profile/Some%20One?tab=x']) {
      const response = await request('GET', `${server.url}${path}`, { headers: HTML });
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(String(response.body), /<div id="root"><\/div>/);
      assert.equal(response.headers.get('cache-control'), 'no-cache');
    }
  });

  it('serves the hashed assets with a long cache, and no inline script', async () => {
    const index = String((await request('GET', `${server.url}/`, { headers: HTML })).body);
    const scripts = [...index.matchAll(/<script[^>]*>/g)].map((match) => match[0]);
    assert.ok(scripts.length > 0);
    for (const tag of scripts) assert.match(tag, /src="\/assets\//, 'every script is a file');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1]!;
    const response = await fetch(`${server.url}${asset}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /javascript/);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    await response.arrayBuffer();
  });

  it('keeps the JSON 404 of EXTENSIONS.md section 9 for API and server paths, other methods and non-HTML requests', async () => {
    for (const path of ['/api/v1/no-such-route', '/api/v1/markets/no-such-market', '/docs/nope', '/healthz/x', '/metrics/x']) {
      const response = await request('GET', `${server.url}${path}`, { headers: HTML });
      expectError(response, 404, 'NOT_FOUND');
    }
    expectError(await request('GET', `${server.url}/some/page`, { headers: { accept: 'application/json' } }), 404, 'NOT_FOUND');
    expectError(await request('POST', `${server.url}/some/page`, { headers: HTML, body: {} }), 404, 'NOT_FOUND');
    expectError(await request('GET', `${server.url}/assets/missing.js`, { headers: { accept: '*/*' } }), 404, 'NOT_FOUND');
  });

  it('leaves the server routes as they were', async () => {
    assert.deepEqual((await request('GET', `${server.url}/healthz`)).body, { status: 'ok' });
    const openapi = await request('GET', `${server.url}/openapi.json`);
    assert.equal(openapi.status, 200);
    assert.ok(!Object.keys(openapi.body.paths).some((path) => path.startsWith('/assets') || path === '/'), 'static files stay out of the API document');
    assert.equal((await request('GET', `${server.url}/docs`, { headers: HTML })).status, 200);
    assert.equal((await request('GET', server.api('/exchange'))).status, 200);
  });
});
