/**
 * The market, event and portfolio pages as a trader reads their figures (an outside audit in a
 * browser), in Debian's Chromium against a real server: the ticket's fee and share precision, the
 * event page's volume after a trade, a market past its end date awaiting resolution and its oracle
 * followed without a reload, a lost resolved position shown as lost (cleared, not redeemed), and
 * positions valued at their market pages' price. Screenshots go to test-results/screenshots.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generatePrivateKey } from 'viem/accounts';
import { createClient, type Event, type EventInput, type ExchangeClient } from '../../src/client/index.ts';
import { ensureBuild } from '../helpers/build.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { fundedTrader, openBrowser, type OpenBrowser, screenshots, skipReason } from './browser.ts';

const HOUR = 3_600_000;

/** A published event of `markets` (names), ending at `endDate`, 20 bps taker fee, no maker fee. */
async function publish(admin: ExchangeClient, name: string, endDate: Date, markets: string[] = [name]): Promise<Event> {
  const input: EventInput = {
    name,
    description: `${name}: a test question.`,
    startDate: new Date(endDate.getTime() - 24 * HOUR).toISOString(),
    endDate: endDate.toISOString(),
    liveness: 60,
    markets: markets.map((market) => ({ name: market, orderFeeRateBps: 20, passiveOrderFeeRateBps: 0 })),
  };
  return admin.admin.publishEvent((await admin.admin.createEvent(input)).id);
}

describe('the figures of the market, event and portfolio pages', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let admin: ExchangeClient;
  let watched: OpenBrowser;
  let page: Page;
  let open: Event;
  /** The browser's signed-in trader through the SDK, from the portfolio's tests on. */
  let me: ExchangeClient;

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    admin = createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } });
    open = await publish(admin, 'Will the ticket show its fee', new Date(Date.now() + 24 * HOUR));
    watched = await openBrowser();
    page = watched.page;
  });

  after(async () => {
    await watched?.close();
    await server?.close();
  });

  it('shows the most fee an order can pay exactly, never a fee as $0.00, and no fee as None', async () => {
    await page.goto(`${server.url}/market/${open.markets[0]!.slug}`);
    const ticket = page.getByTestId('order-ticket');
    await ticket.getByLabel(/^Limit price/).fill('45');
    await ticket.getByLabel('Shares').fill('1');
    // 20 bps of min(45¢, 55¢) on one share: $0.0009, which to the cent read "$0.00".
    await page.getByTestId('fee').filter({ hasText: /^\$0\.0009$/ }).waitFor();
    // Post-only pays the maker rate, 0 here.
    await ticket.getByLabel('Post only').check();
    await page.getByTestId('fee').filter({ hasText: /^None$/ }).waitFor();
    // Shares to the hundredth, as the book and the portfolio show them.
    await ticket.getByLabel('Shares').fill('1.2345');
    await page.getByTestId('order-preview').filter({ hasText: /Shares\s*1\.23(?!\d)/ }).waitFor();
  });

  it("updates the event page's volume with each trade, without a reload", async () => {
    const event = await publish(admin, 'Which test runs first', new Date(Date.now() + 24 * HOUR), ['The first', 'The second']);
    const market = event.markets[0]!;
    await page.goto(`${server.url}/event/${event.slug}`);
    const volume = page.getByTestId('event-volume');
    await volume.filter({ hasText: /^\$0\.00 Vol\.$/ }).waitFor();
    // A bid for Yes at 40¢ taken by a buyer of No at 60¢: 10 shares traded.
    const [maker, taker] = await Promise.all([fundedTrader(server, admin), fundedTrader(server, admin)]);
    await maker.orders.place({ tokenId: market.tokenId1!, side: 'BUY', price: '0.4', size: '10' });
    await taker.orders.place({ tokenId: market.tokenId2!, side: 'BUY', price: '0.6', size: '10', type: 'FAK' });
    const traded = await admin.events.volume(event.id);
    assert.ok(traded > 0);
    await volume.filter({ hasText: new RegExp(`^\\$${traded.toFixed(2)} Vol\\.$`) }).waitFor();
  });

  it('shows a market past its end date as awaiting resolution, and its oracle question as it moves, without a reload', async () => {
    const ended = await publish(admin, 'Did the hour pass', new Date(Date.now() - HOUR));
    const market = ended.markets[0]!;
    await page.goto(`${server.url}/market/${market.slug}`);
    await page.getByTestId('awaiting-badge').filter({ hasText: 'ended · awaiting resolution' }).waitFor();
    const awaiting = page.getByTestId('market-ended');
    await awaiting.getByRole('heading', { name: /^Ended .*: awaiting resolution$/ }).waitFor();
    await awaiting.getByTestId('awaiting-oracle').filter({ hasText: 'Oracle: No outcome proposed yet.' }).waitFor();
    // The book stays open (EXTENSIONS.md section 11): the ticket is still there.
    await page.getByTestId('order-ticket').waitFor();
    // The event asks no bond: the rules say so, not "a $0.00 bond".
    await page.getByTestId('market-rules').getByText(/propose the outcome after the end date with no bond; it stands/).waitFor();
    await screenshots(page, 'market-awaiting');
    // The operator proposes Yes, a trader disputes, the operator decides: the page follows each step.
    await admin.admin.oraclePropose(market.id, 'YES');
    await awaiting.getByTestId('awaiting-oracle').filter({ hasText: /^Oracle: Yes proposed; open to dispute until / }).waitFor();
    await page.getByTestId('oracle-status').filter({ hasText: /^Yes proposed; open to dispute until / }).waitFor();
    await (await fundedTrader(server, admin)).oracle.dispute(market.id);
    await awaiting.getByTestId('awaiting-oracle').filter({ hasText: 'Oracle: Yes proposed and disputed; the operator decides.' }).waitFor();
    await admin.admin.oracleDecide(market.id, 'YES');
    await page.getByTestId('resolved-to').filter({ hasText: 'Resolved: Yes' }).waitFor();
    assert.equal(await awaiting.count(), 0, 'a resolved market no longer awaits');
    assert.equal(await page.getByTestId('order-ticket').count(), 0);
  });

  it("does not say a market that has not ended awaits resolution", async () => {
    await page.goto(`${server.url}/market/${open.markets[0]!.slug}`);
    await page.getByTestId('oracle-status').filter({ hasText: 'No outcome proposed yet' }).waitFor();
    assert.equal(await page.getByTestId('market-ended').count(), 0);
    assert.equal(await page.getByTestId('awaiting-badge').count(), 0);
  });

  it('shows a resolved position that lost as lost, paying $0, and offers to clear it, not to redeem it', async () => {
    // The browser's dev wallet, and the same wallet through the SDK to trade and split.
    const key = generatePrivateKey();
    me = await fundedTrader(server, admin, key);
    const maker = await fundedTrader(server, admin);
    const [lose, win] = await Promise.all([publish(admin, 'Will my No lose', new Date(Date.now() - HOUR)), publish(admin, 'Will my Yes win', new Date(Date.now() - HOUR))]);
    const [lost, won] = [lose.markets[0]!, win.markets[0]!];
    // 5 of each outcome in both; the Yes shares of the losing one sold: only its No is left.
    await me.markets.split(lost.id, '5');
    await me.markets.split(won.id, '5');
    await maker.orders.place({ tokenId: lost.tokenId1!, side: 'BUY', price: '0.5', size: '5' });
    await me.orders.place({ tokenId: lost.tokenId1!, side: 'SELL', price: '0.5', size: '5', type: 'FAK' });
    for (const market of [lost, won]) await admin.admin.oraclePropose(market.id, 'YES');
    // Past the 60 s dispute window: both settle and resolve Yes.
    await admin.admin.clock({ advanceMs: 61_000 });

    await page.goto(server.url);
    await page.evaluate(`localStorage.setItem('pmx.devWalletKey', '${key}')`);
    await page.getByRole('button', { name: 'Sign in with dev wallet' }).click();
    await page.getByRole('link', { name: 'Portfolio' }).click();
    const redeemable = page.getByTestId('redeemable');
    const lostRow = redeemable.locator('li', { hasText: 'Will my No lose' });
    await lostRow.getByText('Lost: pays $0').waitFor();
    assert.equal(await lostRow.getByRole('button', { name: /Redeem/ }).count(), 0, 'no Redeem for shares that pay nothing');
    // Its Yes redeems for $5; its No lost.
    await redeemable.locator('li', { hasText: 'Will my Yes win' }).getByRole('button', { name: 'Redeem $5.00' }).waitFor();
    await redeemable.getByRole('button', { name: 'Redeem all · $5.00' }).waitFor();
    await page.getByTestId('positions').locator('tbody tr', { hasText: 'Will my No lose' }).getByTestId('position-lost').waitFor();
    await screenshots(page, 'portfolio-lost');
    await lostRow.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('Cleared, nothing paid: 1 market').waitFor();
    await lostRow.waitFor({ state: 'detached' });
    await redeemable.getByRole('button', { name: 'Redeem all · $5.00' }).click();
    await page.getByText('Redeem: 1 market').waitFor();
    await redeemable.getByText('None.').waitFor();
  });

  it("values positions at the price their market's page shows, live, not at the last trade", async () => {
    const market = (await publish(admin, 'Which price is now', new Date(Date.now() + 24 * HOUR))).markets[0]!;
    const maker = await fundedTrader(server, admin);
    // Yes quoted 40¢-46¢; the trader buys 10 Yes at 46¢: the last trade 46¢, the midpoint 43¢.
    await maker.orders.placeMany([{ tokenId: market.tokenId1!, side: 'BUY', price: '0.4', size: '100' }, { tokenId: market.tokenId2!, side: 'BUY', price: '0.54', size: '100' }]);
    await me.orders.place({ tokenId: market.tokenId1!, side: 'BUY', price: '0.46', size: '10', type: 'FAK' });
    await page.goto(`${server.url}/market/${market.slug}`);
    await page.getByTestId('chance').filter({ hasText: /^43%$/ }).waitFor();
    await screenshots(page, 'market-chart');
    await page.getByRole('link', { name: 'Portfolio' }).click();
    const row = page.getByTestId('positions').locator('tbody tr', { hasText: 'Which price is now' });
    await row.getByTestId('position-now').filter({ hasText: /^43¢$/ }).waitFor();
    assert.equal(await row.getByTestId('position-value').innerText(), '$4.30', 'not $4.60 at the last trade');
    // A better bid moves the midpoint to 45¢: the position follows without a reload.
    await maker.orders.place({ tokenId: market.tokenId1!, side: 'BUY', price: '0.44', size: '10' });
    await row.getByTestId('position-now').filter({ hasText: /^45¢$/ }).waitFor();
    await row.getByTestId('position-value').filter({ hasText: /^\$4\.50$/ }).waitFor();
    // The summary adds the same figures: cash plus $4.50 (the resolved positions were redeemed or cleared).
    const cash = (await me.account.balance()).collateral.balance;
    await page.getByTestId('positions-value').filter({ hasText: /^\$4\.50$/ }).waitFor();
    assert.equal(await page.getByTestId('account-value').innerText(), `$${(Number(cash) + 4.5).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
  });

  it('logged no console error', () => {
    assert.deepEqual(watched.errors, []);
  });
});
