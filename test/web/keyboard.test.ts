/**
 * The trading path with the keyboard alone, as a screen reader meets it, in Debian's Chromium
 * against a real server: from the home page to a market, Buy, the outcome, a limit price and
 * shares typed, submitted, the answer in a live region, the open order cancelled by a button that
 * names it, the phone's header menu opened and closed with Escape; every control reached shows a
 * focus ring and has a name, in both themes; headings go down one level at a time. And notices:
 * the same words again are counted on one notice, not stacked; each is dismissed with the
 * keyboard and expires by itself; a refusal is announced at once, a success politely; the
 * notices' landmark comes first, so the keyboard meets a notice before the header.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient, type Market } from '../../src/client/index.ts';
import { ensureBuild } from '../helpers/build.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { DESKTOP, openBrowser, type OpenBrowser, PHONE, screenshots, skipReason } from './browser.ts';

/** What has the focus: its role or tag, its accessible name as the app gives it, and whether a focus ring shows. */
interface Focused {
  what: string;
  name: string;
  ring: boolean;
}

/** The focused element, read in the page (aria-label, else its label's or its own words, else title). */
const READ_FOCUS = `(() => {
  const shown = (node) => {
    const copy = node.cloneNode(true);
    for (const hidden of copy.querySelectorAll('[aria-hidden=true]')) hidden.remove();
    return copy.textContent;
  };
  const element = document.activeElement;
  const style = getComputedStyle(element);
  const labelled = element.getAttribute('aria-labelledby');
  const name = element.getAttribute('aria-label')
    ?? (labelled ? document.getElementById(labelled)?.textContent : undefined)
    ?? (element.labels?.[0]?.textContent || undefined)
    ?? (element.matches('input, select, textarea') ? undefined : shown(element) || undefined)
    ?? element.getAttribute('title') ?? '';
  return {
    what: element.getAttribute('role') ?? element.tagName.toLowerCase(),
    name: name.replace(/\\s+/g, ' ').trim(),
    ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
  };
})()`;

const HOUR = 3_600_000;

describe('the trading path with the keyboard alone', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let watched: OpenBrowser;
  let page: Page;
  let market: Market;
  /** Every element the keyboard reached, in order, for the ring and name checks. */
  const reached: (Focused & { theme: string })[] = [];
  let theme = 'light';

  /** Presses Tab (or Shift+Tab) until the focus is on an element whose name matches `name`. */
  async function tabTo(name: RegExp, key = 'Tab'): Promise<void> {
    for (let presses = 0; presses < 80; presses++) {
      await page.keyboard.press(key);
      const focused = await page.evaluate<Focused>(READ_FOCUS);
      // The document itself, between the last control and the first, is no control.
      if (focused.what !== 'body') reached.push({ ...focused, theme });
      if (name.test(focused.name)) return;
    }
    throw new Error(`the keyboard never reached ${name}`);
  }

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    const admin = createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } });
    const event = await admin.admin.publishEvent((await admin.admin.createEvent({
      name: 'Can the keyboard trade',
      description: 'A market traded with the keyboard alone.',
      startDate: new Date(Date.now() - HOUR).toISOString(),
      endDate: new Date(Date.now() + 24 * HOUR).toISOString(),
      markets: [{ name: 'Can the keyboard trade', orderFeeRateBps: 0, passiveOrderFeeRateBps: 0 }],
    })).id);
    market = event.markets[0]!;
    const key = generatePrivateKey();
    await admin.admin.credit(privateKeyToAccount(key).address, '1000');
    // Timers the test can run forward (the notices' expiry); time flows as usual until then.
    watched = await openBrowser({ prepare: (context) => context.clock.install() });
    page = watched.page;
    await page.goto(server.url);
    await page.evaluate(`localStorage.setItem('pmx.devWalletKey', '${key}')`);
    await page.reload();
  });

  after(async () => {
    await watched?.close();
    await server?.close();
  });

  it('signs in, opens the market from the home page, places a limit order and hears its answer', async () => {
    await page.getByTestId('event-card').first().waitFor();
    await tabTo(/^Sign in with dev wallet$/);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: /^unsafe dev wallet/ }).waitFor();
    await tabTo(/^Can the keyboard trade$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('order-ticket').waitFor();
    // One h1, then no level skipped.
    const levels = await page.evaluate<number[]>(`[...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]))`);
    assert.equal(levels.filter((level) => level === 1).length, 1, `headings ${levels}`);
    assert.ok(levels.every((level, index) => index === 0 || level <= levels[index - 1]! + 1), `headings ${levels}`);

    await tabTo(/^Buy$/);
    await page.keyboard.press('Space');
    await tabTo(/^Yes /);
    await page.keyboard.press('Enter');
    await tabTo(/^Limit$/);
    await page.keyboard.press('Enter');
    await tabTo(/^Limit price/);
    await page.keyboard.type('40');
    await tabTo(/^Shares$/);
    await page.keyboard.type('10');
    await page.keyboard.press('Enter');
    // The ticket's live region was there before its words, so they are announced.
    const answer = page.getByRole('status').filter({ hasText: /resting in the book/ }).first();
    await answer.waitFor();
    assert.equal(await page.getByTestId('ticket-answer').getAttribute('role'), 'status');
    await screenshots(page, 'keyboard-ticket');
  });

  it('cancels the open order with a button that says which order it cancels', async () => {
    await tabTo(/^Cancel Buy Yes at 40¢$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('open-orders').getByText('No open orders.').waitFor();
    await page.locator('.notices').getByText(/cancel/i).first().waitFor();
  });

  it('opens the phone menu, reaches its links and closes it with Escape, giving the focus back to its button', async () => {
    await page.setViewportSize(PHONE);
    // A page load starts the keyboard at the top.
    await page.reload();
    await page.getByTestId('order-ticket').waitFor();
    await tabTo(/^Menu$/);
    await page.keyboard.press('Enter');
    const toggle = page.getByRole('button', { name: 'Menu' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await tabTo(/^Markets$/);
    await page.keyboard.press('Escape');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    const focused = await page.evaluate<Focused>(READ_FOCUS);
    assert.equal(focused.name, 'Menu', 'the focus is not lost in the closed menu');
    await page.setViewportSize(DESKTOP);
  });

  it('shows a focus ring on every control reached, named, in the dark theme too', async () => {
    theme = 'dark';
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${server.url}/market/${market.slug}`);
    await page.getByTestId('order-ticket').waitFor();
    await tabTo(/^Switch light or dark theme$/);
    await tabTo(/^Split$/);
    await page.emulateMedia({ colorScheme: 'light' });
    const unringed = reached.filter((focused) => !focused.ring).map((f) => `${f.theme} ${f.what} "${f.name}"`);
    const unnamed = reached.filter((focused) => !focused.name).map((f) => `${f.theme} ${f.what}`);
    assert.deepEqual([...new Set(unringed)], []);
    assert.deepEqual([...new Set(unnamed)], []);
  });

  it('counts the same notice again instead of stacking it, dismisses one with the keyboard, and lets them expire', async () => {
    await page.goto(`${server.url}/account`);
    const form = page.getByRole('form', { name: 'Public profile' });
    const anonymous = form.getByLabel(/^Anonymous/);
    for (let save = 0; save < 3; save++) {
      await anonymous.setChecked(save % 2 === 0);
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByTestId('notice').filter({ hasText: save === 0 ? /^Account saved×$/ : `Account saved ×${save + 1}` }).waitFor();
    }
    assert.equal(await page.getByTestId('notice').count(), 1, 'one notice, counted');
    await screenshots(page, 'notice-counted');
    // Dismissed from the keyboard: Escape on the notice.
    await page.getByRole('button', { name: 'Dismiss: Account saved' }).focus();
    await page.keyboard.press('Escape');
    await page.getByTestId('notice').waitFor({ state: 'detached' });
    // A new notice expires by itself, 6 s after it was said.
    await anonymous.setChecked(false);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('notice').waitFor();
    await page.clock.runFor(6_500);
    await page.getByTestId('notice').waitFor({ state: 'detached' });
  });

  it('announces a refusal at once (role=alert) and a success politely (role=status), each in its own region, both reached first by the keyboard', async () => {
    await page.goto(`${server.url}/market/${market.slug}`);
    const split = page.getByLabel('Split USDC into both outcomes');
    const [alerts, statuses] = [page.locator('.notices [role=alert]'), page.locator('.notices [role=status]')];
    // Both regions are in the page before any words, so what is added to them is announced.
    await alerts.waitFor({ state: 'attached' });
    assert.equal(await statuses.getAttribute('aria-live'), 'polite');
    await split.fill('5000');
    await page.getByRole('button', { name: 'Split', exact: true }).click();
    const refusal = alerts.getByTestId('notice');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /INSUFFICIENT/);
    await split.fill('1');
    await page.getByRole('button', { name: 'Split', exact: true }).click();
    await statuses.getByTestId('notice').filter({ hasText: /^Split \$1\.00/ }).waitFor();
    assert.equal(await alerts.getByTestId('notice').count(), 1, 'the success is not in the alert region');
    assert.equal(await statuses.getByTestId('notice').filter({ hasText: /INSUFFICIENT/ }).count(), 0, 'nor the refusal in the polite one');
    await screenshots(page, 'notices-refusal-and-success');
    // Both in the "Notices" landmark, first in the page (it showed after main): from the skip link the
    // keyboard reaches the refusal's Dismiss, then the success's, then the header.
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    const order: string[] = [];
    for (let presses = 0; presses < 3; presses++) {
      await page.keyboard.press('Tab');
      order.push((await page.evaluate<Focused>(READ_FOCUS)).name);
    }
    assert.match(order[0]!, /^Dismiss: .*INSUFFICIENT/, `tab order ${order}`);
    assert.match(order[1]!, /^Dismiss: Split \$1\.00/, `tab order ${order}`);
    assert.equal(order[2], 'PMX home', `tab order ${order}`);
    await page.getByRole('region', { name: 'Notices' }).waitFor({ state: 'attached' });
    assert.deepEqual(await page.evaluate(`[...document.querySelectorAll('[aria-label=Notices], header.header, main')].map((element) => element.tagName.toLowerCase())`), ['section', 'header', 'main']);
    // Dismissing the refusal from the keyboard moves the focus to the success's Dismiss, in the other region.
    await refusal.getByRole('button').focus();
    await page.keyboard.press('Escape');
    await refusal.waitFor({ state: 'detached' });
    assert.match((await page.evaluate<Focused>(READ_FOCUS)).name, /^Dismiss: Split \$1\.00/);
    await page.keyboard.press('Escape');
    await page.getByTestId('notice').waitFor({ state: 'detached' });
  });

  it('logged no console error', () => {
    assert.deepEqual(watched.errors, []);
  });
});
