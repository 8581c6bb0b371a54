/**
 * The signed-in trader's account page (/account), as an outside audit in a browser found it
 * missing: a display name could be set once (on the portfolio) and never changed or cleared, and
 * API keys could not be managed at all. In Debian's Chromium against a real server: the server's
 * name rules said as the trader types, a name someone else holds (409) said plainly, change and
 * clear; keys listed with their dates, one created with its secret shown once and copied, revoked
 * after a confirmation, and the app's own key marked and never offered for revoking.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient, ExchangeError } from '../../src/client/index.ts';
import { ensureBuild } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { openBrowser, type OpenBrowser, screenshots, skipReason, until } from './browser.ts';

describe('the account page', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let watched: OpenBrowser;
  let page: Page;

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    watched = await openBrowser({ prepare: (context) => context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url }) });
    page = watched.page;
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Sign in with dev wallet' }).click();
    await page.getByText('unsafe dev wallet', { exact: true }).waitFor();
  });

  after(async () => {
    await watched?.close();
    await server?.close();
  });

  it('sets, changes and clears the display name, with the rules said as the trader types and a taken name said plainly', async () => {
    const holder = createClient({ baseUrl: server.url, account: privateKeyToAccount(generatePrivateKey()) });
    await holder.auth.signIn();
    await holder.account.update({ displayName: 'Taken_Name' });

    // The header's account link opens the page.
    await page.getByRole('link', { name: /unsafe dev wallet/ }).click();
    const form = page.getByRole('form', { name: 'Public profile' });
    const name = form.getByLabel('Display name');
    const rule = form.getByTestId('display-name-rule');
    const save = form.getByRole('button', { name: 'Save' });
    await form.getByText('Without a display name you have no public profile').waitFor();
    for (const [typed, said] of [['ab', 'At least 3 characters.'], ['has space', 'Only letters A to Z, digits, _ and -'], ['x'.repeat(31), 'At most 30 characters (this is 31).']] as const) {
      await name.fill(typed);
      await rule.filter({ hasText: said }).waitFor();
      assert.equal(await save.isDisabled(), true, `Save is off for ${typed}`);
    }
    // Unique ignoring case: the server's 409, said under the field.
    await name.fill('taken_name');
    await save.click();
    await rule.filter({ hasText: 'taken_name is taken: display names are unique, whatever the letter case.' }).waitFor();
    assert.equal(await name.getAttribute('aria-invalid'), 'true');

    await name.fill('first_name');
    await save.click();
    await form.getByRole('link', { name: '/profile/first_name' }).waitFor();
    // Changed: the profile moves to the new name.
    await name.fill('second-name');
    await save.click();
    await form.getByRole('link', { name: '/profile/second-name' }).waitFor();
    await screenshots(page, 'account');
    await form.getByRole('link', { name: '/profile/second-name' }).click();
    await page.getByRole('heading', { name: 'second-name' }).waitFor();
    await page.goBack();
    // Cleared: an empty name says what saving does, and saves null.
    await name.fill('');
    await rule.filter({ hasText: 'Empty: saving clears your display name' }).waitFor();
    await save.click();
    await form.getByText('Without a display name you have no public profile').waitFor();
    const saved = JSON.parse((await page.evaluate<string | null>("localStorage.getItem('pmx.session')"))!) as { apiKey: { apiKey: string; secret: string; passphrase: string } };
    assert.equal((await createClient({ baseUrl: server.url, credentials: { apiKey: saved.apiKey } }).account.get()).displayName, null);

    await form.getByLabel('Avatar URL').fill('ftp://example.com/me.png');
    await form.getByText('A web address starting with http:// or https://.').waitFor();
    assert.equal(await save.isDisabled(), true);
    await form.getByLabel('Avatar URL').fill('');
  });

  it("lists the API keys, creates one shown once with copy buttons, revokes it after a confirmation, and never offers the app's own", async () => {
    const keys = page.getByTestId('api-keys');
    const own = keys.getByTestId('app-key');
    await own.getByText('this browser').waitFor();
    await own.getByText('The app signs your orders with this key; signing out revokes it.').waitFor();
    assert.equal(await own.getByRole('button').count(), 0, "the app's key has no Revoke");
    assert.match(await own.innerText(), /never|\d{4}/);

    // The sign-in session's token has ended: creating a key signs in again (the dev wallet signs at once).
    const saved = JSON.parse((await page.evaluate<string | null>("localStorage.getItem('pmx.session')"))!) as { token: string };
    await createClient({ baseUrl: server.url, credentials: { token: saved.token } }).auth.logout();

    await page.getByRole('button', { name: 'Create API key' }).click();
    const shown = page.getByTestId('new-api-key');
    await shown.getByText('Shown only now.').waitFor();
    const values = await shown.locator('dd code').allInnerTexts();
    assert.equal(values.length, 3);
    const [apiKey, secret, passphrase] = values as [string, string, string];
    await shown.getByRole('button', { name: 'Copy Secret' }).click();
    await shown.getByRole('button', { name: 'Copy Secret' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);
    await screenshots(page, 'account-new-key');
    const program = createClient({ baseUrl: server.url, credentials: { apiKey: { apiKey, secret, passphrase } } });
    await program.account.get();
    await until(async () => (await keys.locator('tbody tr').count()) === 2, 'the new key listed');

    await shown.getByRole('button', { name: 'I have stored them' }).click();
    assert.equal(await shown.count(), 0, 'the secret is gone from the page');
    const row = keys.locator('tbody tr', { hasText: apiKey });
    await row.getByRole('button', { name: 'Revoke…' }).click();
    await row.getByText('Programs using it stop working at once.').waitFor();
    await row.getByRole('button', { name: 'Keep' }).click();
    await row.getByRole('button', { name: 'Revoke…' }).click();
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    await assert.rejects(program.account.get(), (error) => error instanceof ExchangeError && error.status === 401);
    // The app still trades with its own key.
    await page.reload();
    await own.waitFor();
    assert.deepEqual(watched.errors, []);
  });
});
