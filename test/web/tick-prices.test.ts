/**
 * Prices on a hundredth-of-a-cent tick (0.0001) as every view outside the ticket's field shows
 * them, in Debian's Chromium against a real server: 41.55¢ read 41.6¢ in the book, the last trades,
 * the headline and the outcome buttons, the open orders, the positions and the notices (a tenth of
 * a cent at most). Each now shows the hundredth its tick needs, 41.50¢ with its 0; an average, to
 * a tenth of the tick.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generatePrivateKey } from 'viem/accounts';
import { createClient, type ExchangeClient } from '../../src/client/index.ts';
import { ensureBuild } from '../helpers/build.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { DESKTOP, fundedTrader, type OpenBrowser, openSignedIn, PHONE, screenshots, skipReason } from './browser.ts';
import { axisText, RECORD_TEXT } from './chart-text.ts';

describe('prices on a hundredth-of-a-cent tick', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let opened: OpenBrowser;
  let page: Page;
  let market: PublishedMarket;
  let taker: ExchangeClient;

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    const admin = createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } });
    [market] = (await createPublishedEvent(server, { name: 'Is the price shown to the hundredth of a cent', tickSize: '0.0001', orderFeeRateBps: 0, passiveOrderFeeRateBps: 0 })).markets as [PublishedMarket];
    const key = generatePrivateKey();
    const [me, maker] = await Promise.all([fundedTrader(server, admin, key), fundedTrader(server, admin)]);
    await me.account.update({ displayName: 'tick_trader' });
    taker = await fundedTrader(server, admin);
    const { tokenId1: yes, tokenId2: no } = market;
    // The trader buys 10 Yes at 41.55¢ (an ask of Yes: a bid for No at 58.45¢): the last trade, and the position's average.
    await maker.orders.place({ tokenId: no, side: 'BUY', price: '0.5845', size: '10' });
    await me.orders.place({ tokenId: yes, side: 'BUY', price: '0.4155', size: '10', type: 'FAK' });
    await server.ctx.trading.engine.settle();
    // Then Yes is bid 41.50¢ (the trader's 10 first, the maker's 10) and asked 41.60¢, 41.70¢ and 41.80¢: the midpoint is 41.55¢.
    await me.orders.place({ tokenId: yes, side: 'BUY', price: '0.415', size: '10' });
    await maker.orders.placeMany(['0.415', '0.584', '0.583', '0.582'].map((price, index) => ({ tokenId: index === 0 ? yes : no, side: 'BUY', price, size: '10' })));
    opened = await openSignedIn(server.url, key, { initScript: RECORD_TEXT });
    page = opened.page;
  });

  after(async () => {
    await opened?.close();
    await server?.close();
  });

  it("shows the market page's prices to the hundredth of a cent: book, last trade, headline, outcome buttons, open orders, chart", async () => {
    await page.goto(`${server.url}/market/${market.slug}`);
    await page.getByTestId('market-stats').filter({ hasText: /^Yes 41\.55¢ · No 58\.45¢ · / }).waitFor();
    const book = page.getByTestId('order-book');
    await page.getByTestId('book-price').filter({ hasText: /^Price 41\.55¢ · Spread 0\.10¢$/ }).waitFor();
    assert.deepEqual(await book.locator('tr.ask td.price').allInnerTexts(), ['41.80¢', '41.70¢', '41.60¢']);
    assert.deepEqual(await book.locator('tr.bid td.price').allInnerTexts(), ['41.50¢']);
    await book.getByRole('button', { name: 'Use price 41.50¢' }).waitFor();
    await page.getByTestId('recent-trades').locator('tbody tr td.num').first().filter({ hasText: /^41\.55¢$/ }).waitFor();
    const ticket = page.getByTestId('order-ticket');
    assert.deepEqual(await ticket.getByRole('group', { name: 'Outcome' }).getByRole('button').allInnerTexts(), ['Yes 41.55¢', 'No 58.45¢']);
    const orders = page.getByTestId('open-orders');
    assert.deepEqual(await orders.locator('tbody tr td.num').first().innerText(), '41.50¢');
    await orders.getByRole('button', { name: 'Cancel Buy Yes at 41.50¢' }).waitFor();
    // The chart's last values, on its price axis, are the headline's.
    await page.locator('[data-testid=price-chart][data-state=drawn]').waitFor();
    await page.waitForTimeout(300); // the library paints on an animation frame after the data
    const onAxis = (await axisText(page, 'price-chart', 'price')).map((label) => label.text);
    assert.ok(onAxis.includes('41.55¢') && onAxis.includes('58.45¢'), `price axis ${onAxis}`);
    assert.ok(onAxis.every((label) => /^\d+\.\d\d\d?¢$/.test(label)), `price axis ${onAxis}`);
    await screenshots(page, 'tick-prices-market');
  });

  it('shows an average fill to a tenth of the tick: $8.33 buys 10 at 41.60¢ and 10 at 41.70¢, 41.65¢ on average', async () => {
    const ticket = page.getByTestId('order-ticket');
    await ticket.getByRole('button', { name: 'Market' }).click();
    await ticket.getByLabel('Amount').fill('8.33');
    await ticket.getByTestId('order-preview').filter({ hasText: /Avg price\s*41\.65¢/ }).waitFor();
    assert.equal(await ticket.getByTestId('slippage').innerText(), '0.05¢');
  });

  it("shows the phone's Buy bar at the hundredth", async () => {
    await page.setViewportSize(PHONE);
    try {
      assert.deepEqual(await page.getByTestId('buy-bar').getByRole('button').allInnerTexts(), ['Buy Yes 41.55¢', 'Buy No 58.45¢']);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it("names the home page's outcome links at the hundredth", async () => {
    await page.goto(server.url);
    await page.getByRole('link', { name: `Buy Yes on ${market.name} at 41.55¢` }).waitFor();
    await page.getByRole('link', { name: `Buy No on ${market.name} at 58.45¢` }).waitFor();
  });

  it("shows the portfolio's position, open order and activity on the market's tick", async () => {
    await page.goto(`${server.url}/portfolio`);
    const row = page.getByTestId('positions').locator('tbody tr', { hasText: market.name });
    await row.locator('td[data-label=Avg]').filter({ hasText: /^41\.55¢$/ }).waitFor();
    await row.getByTestId('position-now').filter({ hasText: /^41\.55¢$/ }).waitFor();
    const order = page.getByTestId('open-orders').locator('tbody tr', { hasText: market.name });
    await order.locator('td.num').first().filter({ hasText: /^41\.50¢$/ }).waitFor();
    await order.getByRole('button', { name: `Cancel Buy Yes at 41.50¢: ${market.name}` }).waitFor();
    await page.getByTestId('activity').locator('tbody tr', { hasText: 'BUY' }).locator('td[data-label=Price]').filter({ hasText: /^41\.55¢$/ }).waitFor();
    await screenshots(page, 'tick-prices-portfolio');
  });

  it('announces a fill of the open order at its price on the tick, and the public profile lists it so', async () => {
    // A buyer of No at 58.50¢ sells Yes into the 41.50¢ bids: the trader's order, first in time, fills.
    await taker.orders.place({ tokenId: market.tokenId2, side: 'BUY', price: '0.585', size: '10', type: 'FAK' });
    await page.locator('.notice', { hasText: /^Buy 10\.00 Yes at 41\.50¢: (filled|matched)/ }).first().waitFor();
    await server.ctx.trading.engine.settle();
    await page.goto(`${server.url}/profile/tick_trader`);
    const trades = page.getByRole('region', { name: 'Recent trades' }).locator('li');
    await trades.filter({ hasText: /^bought Yes · .* at 41\.50¢$/ }).waitFor();
    await trades.filter({ hasText: /^bought Yes · .* at 41\.55¢$/ }).waitFor();
  });

  it('logged no console error', () => {
    assert.deepEqual(opened.errors, []);
  });
});
