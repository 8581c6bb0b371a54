/**
 * The web app's market, event and portfolio pages against Polymarket's (issue 40 items 12-19), in
 * Debian's Chromium against a real server with the demo catalogue: the live "% chance" headline
 * and its one current-price definition, the trader's own orders marked in the book, a market buy by
 * dollar amount estimated from the live book, the portfolio's totals, the phone layout without
 * horizontal clipping, and page loads that log nothing to the console. Screenshots of each page at
 * 1280 and 390 pixels go to test-results/screenshots.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient, type Event, type ExchangeClient, type Market } from '../../src/client/index.ts';
import { seedDemo } from '../../src/cli/demo.ts';
import { ensureBuild } from '../helpers/build.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { DESKTOP, fundedTrader, openBrowser, type OpenBrowser, PHONE, screenshots, skipReason } from './browser.ts';

describe('the market, event and portfolio pages', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let admin: ExchangeClient;
  let maker: ExchangeClient;
  let events: Event[];
  let watched: OpenBrowser;
  let page: Page;
  const btc = (): Market => events.find((e) => e.slug === 'demo-bitcoin-above-150k')!.markets[0]!;

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    admin = createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } });
    events = (await seedDemo(admin)).events;
    maker = await fundedTrader(server, admin);
    watched = await openBrowser();
    page = watched.page;
  });

  after(async () => {
    await watched?.close();
    await server?.close();
  });

  it('shows a live "% chance" headline: the midpoint, or the last trade when the spread is wide, the same in the book', async () => {
    const yes = btc().tokenId1!;
    const no = btc().tokenId2!;
    // A bid at 40¢ and an ask at 44¢ (a bid for No at 56¢): the midpoint, 42¢.
    await maker.orders.placeMany([{ tokenId: yes, side: 'BUY', price: '0.4', size: '100' }, { tokenId: no, side: 'BUY', price: '0.56', size: '100' }]);
    await page.goto(`${server.url}/market/${btc().slug}`);
    const chance = page.getByTestId('chance');
    await chance.filter({ hasText: /^42%$/ }).waitFor();
    await page.getByTestId('market-stats').filter({ hasText: 'Yes 42¢ · No 58¢' }).waitFor();
    await page.getByTestId('book-price').filter({ hasText: 'Price 42¢ · Spread 4¢' }).waitFor();
    // The page untouched: a better bid moves the midpoint to 43¢, live.
    await maker.orders.place({ tokenId: yes, side: 'BUY', price: '0.42', size: '10' });
    await chance.filter({ hasText: /^43%$/ }).waitFor();
    // A trade at 42¢ (a buy of No at 58¢) takes that bid; the spread is 40¢-44¢ again, and the volume moves.
    const taker = await fundedTrader(server, admin);
    await taker.orders.place({ tokenId: no, side: 'BUY', price: '0.58', size: '10', type: 'FAK' });
    await chance.filter({ hasText: /^42%$/ }).waitFor();
    await page.getByTestId('recent-trades').locator('tbody tr', { hasText: 'bought No' }).waitFor();
    await page.getByTestId('market-stats').filter({ hasNotText: '$0.00 Vol.' }).waitFor();
    // A spread wider than 10¢ (the 44¢ ask cancelled, the next at 60¢): the last trade, 42¢, not the 50¢ midpoint.
    await maker.orders.cancelAll();
    await maker.orders.placeMany([{ tokenId: yes, side: 'BUY', price: '0.4', size: '100' }, { tokenId: no, side: 'BUY', price: '0.4', size: '100' }]);
    await page.getByTestId('book-price').filter({ hasText: 'Spread 20¢' }).waitFor();
    assert.equal(await chance.innerText(), '42%');
  });

  it("marks the trader's own resting orders in the book, in both outcomes' views", async () => {
    await page.getByRole('button', { name: 'Sign in with dev wallet' }).click();
    await page.getByRole('button', { name: 'Faucet' }).click();
    await page.getByTestId('cash').filter({ hasText: '$1,000.00' }).waitFor();
    const ticket = page.getByTestId('order-ticket');
    await ticket.getByLabel(/^Limit price/).fill('30');
    await ticket.getByLabel('Shares').fill('10');
    await ticket.getByRole('button', { name: /^Buy Yes at 30¢$/ }).click();
    const book = page.getByTestId('order-book');
    await book.locator('tr.bid', { hasText: '30¢' }).getByText('you 10.00').waitFor();
    await screenshots(page, 'market-live');
    assert.equal(await book.getByTestId('own-level').count(), 1, 'only the level holding the order');
    // In No's view the same order is an ask at 70¢.
    await page.getByRole('group', { name: 'Book of outcome' }).getByRole('button', { name: 'No' }).click();
    await book.locator('tr.ask', { hasText: '70¢' }).getByText('you 10.00').waitFor();
    await page.getByRole('group', { name: 'Book of outcome' }).getByRole('button', { name: 'Yes' }).click();
    await page.getByTestId('open-orders').getByRole('button', { name: /^Cancel Buy / }).click();
    await book.getByTestId('own-level').waitFor({ state: 'detached' });
  });

  it('buys by dollar amount at market, with the fill price and slippage estimated from the live book', async () => {
    const yes = btc().tokenId1!;
    const no = btc().tokenId2!;
    await maker.orders.cancelAll();
    // Asks of Yes: 10 at 45¢ and 100 at 50¢ (bids for No at 55¢ and 50¢).
    await maker.orders.placeMany([{ tokenId: no, side: 'BUY', price: '0.55', size: '10' }, { tokenId: no, side: 'BUY', price: '0.5', size: '100' }, { tokenId: yes, side: 'BUY', price: '0.4', size: '100' }]);
    await page.getByTestId('order-book').locator('tr.ask', { hasText: '45¢' }).waitFor();
    const ticket = page.getByTestId('order-ticket');
    // The limit price's steppers move it a tick; quick-size buttons add shares.
    await ticket.getByLabel(/^Limit price/).fill('40');
    await ticket.getByRole('button', { name: 'One tick higher' }).click();
    assert.equal(await ticket.getByLabel(/^Limit price/).inputValue(), '41');
    await ticket.getByLabel('Shares').fill('');
    await ticket.getByRole('button', { name: '+10', exact: true }).click();
    await ticket.getByRole('button', { name: '+50', exact: true }).click();
    assert.equal(await ticket.getByLabel('Shares').inputValue(), '60');

    await ticket.getByRole('group', { name: 'Order kind' }).getByRole('button', { name: 'Market' }).click();
    await ticket.getByRole('button', { name: '+$10', exact: true }).click();
    // $10: 10 shares at 45¢ ($4.50), then 11 at 50¢ ($5.50); 21 shares at 47.6¢ on average, 2.6¢ above the best ask.
    const preview = page.getByTestId('order-preview');
    await preview.filter({ hasText: /Avg price\s*47\.6¢/ }).waitFor();
    const text = await preview.innerText();
    assert.match(text, /Slippage\s+2\.6¢/);
    assert.match(text, /Cost\s+\$10\.00/);
    assert.match(text, /Est\. shares\s+21\.00/);
    assert.match(text, /Payout if it wins\s+\$21\.00/);
    await ticket.getByRole('button', { name: 'Buy Yes for $10.00' }).click();
    await page.getByTestId('ticket-answer').filter({ hasText: 'filled' }).waitFor();
    await page.getByTestId('market-position').locator('li', { hasText: 'Yes' }).filter({ hasText: '21.00' }).waitFor();
    // $10 and the taker fee (20 bps of min(p, 1 − p): $0.009 + $0.011) out of $1,000.
    await page.getByTestId('cash').filter({ hasText: '$989.98' }).waitFor();
  });

  it('fits a phone (390 px): the header on one row, nothing clipped sideways on the market, event and portfolio pages, positions stacked, a sticky Buy bar', async () => {
    await page.setViewportSize(PHONE);
    const layout = () => page.evaluate<{ overflow: number; header: number; clipped: string[] }>(`(() => ({
      overflow: document.documentElement.scrollWidth - innerWidth,
      header: document.querySelector('.header').getBoundingClientRect().height,
      clipped: [...document.querySelectorAll('table')].filter((t) => t.getBoundingClientRect().right > innerWidth + 0.5 || t.scrollWidth > t.clientWidth + 1).map((t) => t.closest('[aria-label]')?.getAttribute('aria-label') ?? t.className),
    }))()`);
    await page.goto(`${server.url}/market/${btc().slug}`);
    await page.getByTestId('order-book').waitFor();
    await page.getByTestId('recent-trades').waitFor();
    let seen = await layout();
    assert.equal(seen.overflow, 0, 'the market page scrolls sideways');
    assert.ok(seen.header < 60, `the header is one row (${seen.header} px high)`);
    const bar = page.getByTestId('buy-bar');
    const box = (await bar.boundingBox())!;
    assert.equal(Math.round(box.y + box.height), PHONE.height, 'the Buy bar sits at the bottom of the screen');
    await page.mouse.wheel(0, 1500);
    assert.equal(Math.round((await bar.boundingBox())!.y + box.height), PHONE.height, 'and stays there while the page scrolls');
    await bar.getByRole('button', { name: /^Buy No/ }).click();
    await page.getByTestId('order-ticket').getByRole('group', { name: 'Outcome' }).getByRole('button', { name: /^No/, pressed: true }).waitFor();

    await page.goto(`${server.url}/event/demo-presidential-election`);
    await page.getByTestId('event-chance').first().waitFor();
    seen = await layout();
    assert.deepEqual([seen.overflow, seen.clipped], [0, []], 'the event page: no page overflow, no table wider than its box');
    assert.ok(seen.header < 60);

    await page.goto(`${server.url}/portfolio`);
    await page.getByTestId('positions').locator('tbody tr').first().waitFor();
    seen = await layout();
    assert.deepEqual([seen.overflow, seen.clipped], [0, []], 'the portfolio: no page overflow, no table wider than its box');
    assert.ok(seen.header < 60);
    // The menu opens the navigation under the one-row header.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Markets' }).click();
    await page.getByTestId('event-card').first().waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Main' }).isVisible(), false, 'a page change closes the menu');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'hidden' });
    // Tablet widths: the signed-in header folds into its menu (up to 1180 px) rather than overflow or wrap.
    for (const width of [700, 820, 1024, 1180, 1181]) {
      await page.setViewportSize({ width, height: 900 });
      seen = await layout();
      assert.equal(seen.overflow, 0, `the header overflows at ${width} px`);
      assert.ok(seen.header < 60, `the header is one row at ${width} px (${seen.header} px high)`);
    }
    await page.setViewportSize(DESKTOP);
    seen = await layout();
    assert.ok(seen.header < 60, `the header is one row on a desktop (${seen.header} px high)`);
  });

  it('shows the account value and P&L % at the top without a display name, and sells from a position row', async () => {
    await page.goto(`${server.url}/portfolio`);
    const summary = page.getByTestId('portfolio-summary');
    await summary.getByTestId('pnl').filter({ hasText: /^−?\$\d+\.\d\d \([+−]\d+\.\d%\)$/ }).waitFor();
    assert.match(await summary.getByTestId('account-value').innerText(), /^\$1,0\d\d\.\d\d$|^\$99\d\.\d\d$/);
    await page.getByTestId('no-display-name').getByRole('link', { name: 'your account page' }).waitFor();
    const row = page.getByTestId('positions').locator('tbody tr', { hasText: 'Bitcoin above $150,000' });
    await screenshots(page, 'portfolio-summary');
    await row.getByRole('link', { name: 'Sell' }).click();
    // The market page opens its ticket as a market sell of the whole position, into the 40¢ bid.
    const ticket = page.getByTestId('order-ticket');
    assert.equal(await ticket.getByLabel('Shares').inputValue(), '21');
    await page.getByTestId('order-preview').filter({ hasText: /Proceeds\s*\$8\.40/ }).waitFor();
    await ticket.getByRole('button', { name: 'Sell Yes', exact: true }).click();
    await page.getByTestId('ticket-answer').filter({ hasText: 'filled' }).waitFor();
    await page.getByTestId('market-position').getByText('None yet.').waitFor();
  });

  it("shows a price series' event by its period and its current market's target, not an end it does not have", async () => {
    // The series' markets come on the clock (the test server's stands still until moved).
    await admin.admin.clock({ advanceMs: 0 });
    await page.goto(`${server.url}/event/demo-btc-usd-hourly`);
    await page.getByTestId('event-timing').filter({ hasText: /^A new market every hour · current target 97,000$/ }).waitFor();
    await page.goto(`${server.url}/event/demo-presidential-election`);
    await page.getByTestId('event-timing').filter({ hasText: /^Ends / }).waitFor();
  });

  it("shows a negRisk event with a chart of every outcome, each outcome's current price, and a ticket", async () => {
    const election = events.find((e) => e.slug === 'demo-presidential-election')!;
    const [a, b] = election.markets as [Market, Market];
    // Candidate A quoted 53¢-57¢ (the midpoint 55¢; the others, unquoted and untraded, at 50%), and one trade so the chart has a history.
    await maker.orders.placeMany([{ tokenId: a.tokenId1!, side: 'BUY', price: '0.53', size: '50' }, { tokenId: a.tokenId2!, side: 'BUY', price: '0.43', size: '50' }]);
    const taker = await fundedTrader(server, admin);
    await taker.orders.place({ tokenId: a.tokenId1!, side: 'BUY', price: '0.57', size: '5', type: 'FAK' });
    await page.goto(`${server.url}/event/${election.slug}`);
    const row = (name: string) => page.locator('.event-markets tbody tr', { hasText: name });
    await row(a.name).getByTestId('event-chance').filter({ hasText: '55%' }).waitFor();
    await page.locator('[data-testid=price-chart][data-state=drawn]').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Price chart' }).locator('.legend > span').count(), election.markets.length, 'a line for every outcome');
    // The likeliest outcome first, and its ticket open; another row's Buy No turns the ticket to that market.
    assert.match(await page.locator('.event-markets tbody tr').first().innerText(), new RegExp(a.name));
    await page.locator('.ticket-for').filter({ hasText: a.name }).waitFor();
    await row(b.name).getByRole('button', { name: /^Buy No/ }).click();
    await page.locator('.ticket-for').filter({ hasText: b.name }).waitFor();
    const ticket = page.getByTestId('order-ticket');
    await ticket.getByRole('group', { name: 'Outcome' }).getByRole('button', { name: /^No/, pressed: true }).waitFor();
    await screenshots(page, 'event-negrisk');
  });

  it('asked for nothing the server refused on any page load so far, and logged no console error', () => {
    // The faucet used to be probed with POST /account/faucet: a 400, logged in the console, on every signed-in load.
    assert.deepEqual(watched.refused, []);
    assert.deepEqual(watched.errors, []);
  });

  it('Operate: a refused admin token is cleared and asked again; drafts are listed after a reload and published from there', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Admin token').fill('not-the-admin-token-0123');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'The server refused that admin token' }).waitFor();
    assert.equal(await page.getByLabel('Admin token').inputValue(), '');
    assert.equal(await page.evaluate<string | null>("sessionStorage.getItem('pmx.adminToken')"), null);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Continue' }).click();
    const form = page.getByRole('form', { name: 'New event' });
    await form.getByLabel('Name', { exact: true }).fill('A draft that survives a reload');
    await form.getByRole('button', { name: 'Create draft' }).click();
    const drafts = page.getByRole('region', { name: 'Drafts' });
    await drafts.getByText('A draft that survives a reload').waitFor();
    await page.reload();
    await drafts.locator('li', { hasText: 'A draft that survives a reload' }).getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published A draft that survives a reload').waitFor();
    await drafts.waitFor({ state: 'detached' });
  });

  it('logged no console error on any page', () => {
    assert.deepEqual(watched.errors, []);
    // Only the refused admin token's answers.
    assert.deepEqual(watched.refused.filter((answer) => !answer.startsWith('401 from GET ') || !answer.includes('/api/v1/admin/')), []);
  });

  // Last: the answer it cuts off is a console error of its own.
  it('Operate: a credit whose answer was lost, sent again from the same form, is made once', async () => {
    await page.goto(`${server.url}/admin`);
    const address = privateKeyToAccount(generatePrivateKey()).address;
    let cut = 0;
    await page.route('**/api/v1/admin/credits', async (route) => {
      if (cut > 0) return route.continue();
      cut += 1;
      // The server credits; the answer never reaches the page.
      await route.fetch();
      await route.abort('connectionreset');
    });
    const form = page.getByRole('form', { name: 'Credit collateral' });
    await form.getByLabel('Sign-in address').fill(address);
    await form.getByLabel('Amount (USDC)').fill('5');
    const credit = form.getByRole('button', { name: 'Credit' });
    await credit.click();
    // Until the cut answer reached the form and freed its button.
    for (let waited = 0; (cut === 0 || !(await credit.isEnabled())) && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(cut, 1);
    await credit.click();
    await page.getByText(/Credited; balance now/).waitFor();
    await page.unrouteAll();
    assert.equal((await admin.admin.credit(address, '1')).balance, '6', 'the 5 credited once, then 1');
  });
});
