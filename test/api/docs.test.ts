import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { hmacSignature } from '../../src/client/hmac.ts';
import { HMAC_EXAMPLE, hmacHex } from '../../src/api/hmac-recipe.ts';
import { get } from '../helpers/http.ts';
import { newTrader } from '../helpers/trader.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { launchChromium, skipReason, watchedPage } from '../web/browser.ts';

/**
 * The page's waits: Scalar renders a document of every route in the browser, which under CI's load
 * (three suites on two cores, another Chromium beside) took longer than Playwright's 30 s default.
 */
const PAGE_TIMEOUT_MS = 120_000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

describe('the API reference at /docs and /openapi.json', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  it('names the server the caller reached, so curl samples carry a full URL', async () => {
    const direct = await get(`${server.url}/openapi.json`);
    assert.deepEqual(direct.body.servers.map((s: { url: string }) => s.url), [server.url]);
    // fetch cannot set Host; node:http can, as a proxy in front of the server would.
    const proxied = await new Promise<string>((resolve, reject) => {
      httpGet(`${server.url}/openapi.json`, { headers: { host: 'exchange.example:8443' } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => { body += chunk.toString(); });
        response.on('end', () => resolve(body));
      }).on('error', reject);
    });
    assert.deepEqual(JSON.parse(proxied).servers.map((s: { url: string }) => s.url), ['http://exchange.example:8443']);
  });

  it('describes every tag that a route uses', async () => {
    const doc = (await get(`${server.url}/openapi.json`)).body;
    const described = new Map<string, string>(doc.tags.map((t: { name: string; description: string }) => [t.name, t.description]));
    const used = new Set<string>();
    for (const methods of Object.values<Record<string, { tags?: string[] }>>(doc.paths)) {
      for (const operation of Object.values(methods)) for (const tag of operation.tags ?? []) used.add(tag);
    }
    assert.ok(used.size >= 10);
    for (const tag of used) assert.ok((described.get(tag)?.length ?? 0) > 30, `tag "${tag}" has no description`);
    for (const tag of described.keys()) assert.ok(used.has(tag), `tag "${tag}" is described but no route uses it`);
  });

  it('carries the HMAC recipe with a worked example in the API-key scheme, whose signature the SDK reproduces and the server accepts', async () => {
    const doc = (await get(`${server.url}/openapi.json`)).body;
    const description: string = doc.components.securitySchemes.apiKey.description;
    const e = HMAC_EXAMPLE;
    const signature = await hmacSignature(e.secret, e.timestamp, e.method, e.path, e.body);
    for (const input of Object.values(e)) assert.ok(description.includes(input), `the example shows ${input}`);
    assert.ok(description.includes(`${e.timestamp}${e.method}${e.path}${e.body}`), 'the string signed');
    assert.ok(description.includes(`Signature (\`svc-signature\`): \`${signature}\``), 'the signature, as the SDK computes it');
    assert.ok((doc.info.description as string).includes(signature), 'the introduction of /docs shows it too');

    // The recipe signs a real request: a key of this server, signed by hand as the page says.
    const trader = await newTrader(server);
    const timestamp = String(Date.now());
    const headers = {
      'svc-api-key': trader.creds.apiKey,
      'svc-signature': hmacHex(trader.creds.secret, timestamp, 'GET', '/api/v1/orders', ''),
      'svc-timestamp': timestamp,
      'svc-passphrase': trader.creds.passphrase,
    };
    const response = await fetch(`${server.url}/api/v1/orders?limit=5`, { headers });
    assert.equal(response.status, 200, await response.clone().text());
    assert.ok(Array.isArray(await response.json()));
  });

  describe('in a headless browser with every request to another host blocked', { skip: skipReason(), timeout: 4 * PAGE_TIMEOUT_MS }, () => {
    let browser: Browser;
    before(async () => { browser = await launchChromium(); });
    after(async () => { await browser?.close(); });

    it('renders the reference and asks no other host for anything', async () => {
      const context = await browser.newContext();
      context.setDefaultTimeout(PAGE_TIMEOUT_MS);
      context.setDefaultNavigationTimeout(PAGE_TIMEOUT_MS);
      const outside: string[] = [];
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (LOOPBACK.has(url.hostname)) return route.continue();
        outside.push(url.href);
        return route.abort('blockedbyclient');
      });
      const { page, errors } = await watchedPage(context);
      try {
        await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
        // The reference rendered the document: a section description and a curl sample with the full URL.
        await page.getByText('Signing domain, collateral and server time').first().waitFor();
        // The content renders after the sidebar: wait for the section text and the first curl sample.
        await page.getByText('What a client needs before anything else').first().waitFor();
        await page.getByText(`curl ${server.url}/api/v1/exchange`).first().waitFor();
        await page.waitForLoadState('networkidle');
      } catch (error) {
        // What the page showed and said, so a failure in CI names its cause.
        const shown = await page.locator('body').innerText().catch(() => '(no body)');
        throw new Error(`${(error as Error).message}\npage errors: ${JSON.stringify(errors)}\nblocked: ${JSON.stringify(outside)}\npage text: ${shown.slice(0, 800)}`);
      }
      const text = await page.locator('body').innerText();
      assert.ok(text.includes('What a client needs before anything else'), 'the exchange section is described');
      assert.ok(text.includes(`curl ${server.url}/api/v1/exchange`), 'the curl sample reads a full URL');
      assert.ok(text.includes(hmacHex(HMAC_EXAMPLE.secret, HMAC_EXAMPLE.timestamp, HMAC_EXAMPLE.method, HMAC_EXAMPLE.path, HMAC_EXAMPLE.body)), 'the page shows the worked HMAC example');
      for (const hosted of ['Ask AI', 'Generate MCP', 'Open API Client']) assert.ok(!text.includes(hosted), `the page offers "${hosted}"`);
      assert.deepEqual(outside, []);
      await context.close();
    });
  });
});
