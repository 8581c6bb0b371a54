import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { bearer, signedRequest } from '../helpers/auth-client.ts';
import { ensureBuild } from '../helpers/build.ts';
import { get } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { launchChromium, skipReason } from './browser.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/**
 * Issue 38 item 8: the web app's sign-out revokes the API key it made and ends the session on the
 * server (it used to clear localStorage only, leaving both live), and sign-ins do not pile keys up
 * against the 50-key cap.
 */
describe('signing out of the web app', { skip: storeIndependent('the web app') || skipReason(), timeout: 120_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const signInOnPage = async () => {
    await page.getByRole('button', { name: 'Sign in with dev wallet' }).click();
    await page.getByText('unsafe dev wallet', { exact: true }).waitFor();
    const saved = await page.evaluate<string | null>("localStorage.getItem('pmx.session')");
    return JSON.parse(saved!) as { apiKey: { apiKey: string; secret: string; passphrase: string }; token: string };
  };
  const signOutOnPage = async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with dev wallet' }).waitFor();
  };
  const until = async (done: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 100; i++) if (await done()) return;
    else await new Promise((resolve) => setTimeout(resolve, 50));
    assert.fail(`timed out waiting for ${what}`);
  };

  it("revokes the app's API key and ends its session, and sign-ins leave one key", async () => {
    await page.goto(server.url);
    const first = await signInOnPage();
    assert.equal((await signedRequest(server, first.apiKey, 'GET', '/account')).status, 200);
    assert.equal((await get(server.api('/account'), bearer(first.token))).status, 200);
    await signOutOnPage();
    await until(async () => (await signedRequest(server, first.apiKey, 'GET', '/account')).status === 401, 'the key is revoked');
    await until(async () => (await get(server.api('/account'), bearer(first.token))).status === 401, 'the session is ended');
    assert.equal(await page.evaluate<string | null>("localStorage.getItem('pmx.session')"), null);

    for (let i = 0; i < 2; i++) {
      await signInOnPage();
      await signOutOnPage();
    }
    const last = await signInOnPage();
    const keys = await get(server.api('/auth/api-keys'), bearer(last.token));
    assert.equal(keys.status, 200);
    assert.deepEqual(keys.body.map((key: { apiKey: string }) => key.apiKey), [last.apiKey.apiKey]);
    // A reload keeps the app signed in with the same key.
    await page.reload();
    await page.getByText('unsafe dev wallet', { exact: true }).waitFor();
    assert.equal((await get(server.api('/auth/api-keys'), bearer(last.token))).body.length, 1);
  });
});
