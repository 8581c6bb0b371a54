/**
 * The charts with a month of trades (an outside audit said axis labels were clipped at the edges),
 * in Debian's Chromium against a real server whose manual clock is moved between trades, the
 * browser's clock set to the server's: the price chart at 1W, 1M and ALL, the portfolio's and the
 * profile's P&L chart, at desktop and phone widths, in the light and the dark theme, for a reader in
 * Los Angeles.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generatePrivateKey } from 'viem/accounts';
import { createClient, type Market } from '../../src/client/index.ts';
import { ensureBuild } from '../helpers/build.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { DESKTOP, fundedTrader, type OpenBrowser, openSignedIn, PHONE, SCREENSHOTS, skipReason } from './browser.ts';
import { axisText, type Drawn, RECORD_TEXT } from './chart-text.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The time axis's labels of the chart `testId` that do not fit inside it (a pixel's rounding aside): cut off at an edge. */
async function clippedDates(page: Page, testId: string): Promise<string[]> {
  return (await axisText(page, testId, 'time')).filter((label) => label.left < -1 || label.right > label.width + 1).map((label) => label.text);
}

/**
 * How far, in pixels, each day's label ("Dec 14", "2027" for January's first) is from where a
 * time axis puts its day: the line through the first and the last of them. The edge labels are
 * left out, as the axis moves them inside. `start` is the first day's time, for the year.
 */
function offTime(labels: Drawn[], start: number): string[] {
  const year = new Date(start).getFullYear();
  const candidates = (text: string): number[] => {
    if (/^\d{4}$/.test(text)) return [Date.parse(`Jan 1 ${text}`)];
    // A time of day ("12:13 PM") marks no day (the P&L chart draws none beyond a day's span; the price chart's 1W does).
    return /^[A-Z][a-z]{2} \d{1,2}$/.test(text) ? [year, year + 1].map((y) => Date.parse(`${text} ${y}`)) : [];
  };
  const days = labels.slice(1, -1).flatMap((label) => {
    const time = candidates(label.text).find((t) => t >= start - DAY && t < start + 60 * DAY);
    return time === undefined ? [] : [{ text: label.text, time, x: (label.left + label.right) / 2 }];
  });
  assert.ok(days.length >= 3, `day labels ${labels.map((label) => label.text)}`);
  const [first, last] = [days[0]!, days.at(-1)!];
  const perMs = (last.x - first.x) / (last.time - first.time);
  return days.filter((day) => Math.abs(first.x + (day.time - first.time) * perMs - day.x) > 4).map((day) => `${day.text} at ${Math.round(day.x)} px`);
}

describe('the charts with a month of trades', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let watched: OpenBrowser;
  let page: Page;
  let market: Market;
  let start: number;
  const key = generatePrivateKey();

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    const admin = createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } });
    start = Date.now();
    const event = await admin.admin.publishEvent((await admin.admin.createEvent({
      name: 'Will the month be charted',
      description: 'A market traded over a month.',
      startDate: new Date(start).toISOString(),
      endDate: new Date(start + 90 * DAY).toISOString(),
      markets: [{ name: 'Will the month be charted', orderFeeRateBps: 0, passiveOrderFeeRateBps: 0 }],
    })).id);
    market = event.markets[0]!;
    const [me, maker] = await Promise.all([fundedTrader(server, admin, key), fundedTrader(server, admin)]);
    await me.account.update({ displayName: 'month_charter' });
    // Bought and sold in turn over 30 days, from 8¢ to 93¢: gains and losses, a wide price axis.
    const prices = ['0.08', '0.35', '0.62', '0.21', '0.93', '0.47', '0.55', '0.12', '0.78', '0.4', '0.66', '0.3'];
    for (const [index, price] of prices.entries()) {
      if (index % 2 === 0) {
        await maker.orders.place({ tokenId: market.tokenId2!, side: 'BUY', price: (1 - Number(price)).toFixed(2), size: '100' });
        await me.orders.place({ tokenId: market.tokenId1!, side: 'BUY', price, size: '100', type: 'FAK' });
      } else {
        await maker.orders.place({ tokenId: market.tokenId1!, side: 'BUY', price, size: '100' });
        await me.orders.place({ tokenId: market.tokenId1!, side: 'SELL', price, size: '100', type: 'FAK' });
      }
      await server.ctx.trading.engine.settle();
      await admin.admin.clock({ advanceMs: 2.5 * DAY + (index % 3) * 5 * HOUR });
    }
    watched = await openSignedIn(server.url, key, {
      // A reader west of UTC: the charts' times are moved to the reader's clock (chart-clock.ts), which these checks hold on too.
      timezoneId: 'America/Los_Angeles',
      initScript: RECORD_TEXT,
      // The browser's clock at the server's, where the trades are (the chart's ALL spans the market's age).
      prepare: async (context) => context.clock.install({ time: (await admin.exchange()).serverTime }),
    });
    page = watched.page;
  });

  after(async () => {
    await watched?.close();
    await server?.close();
  });

  it("draws the price chart's date labels inside its axis at 1W, 1M and ALL, on a desktop and a phone, in both themes", async () => {
    const clipped: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of [DESKTOP, PHONE]) {
        await page.setViewportSize(size);
        await page.goto(`${server.url}/market/${market.slug}`);
        const chart = page.getByTestId('price-chart');
        for (const interval of ['1W', '1M', 'ALL']) {
          await page.getByRole('group', { name: 'Chart interval' }).getByRole('button', { name: interval }).click();
          await page.locator('[data-testid=price-chart][data-state=drawn]').waitFor();
          await page.waitForTimeout(300); // the library paints on an animation frame after the data
          await chart.locator('..').screenshot({ path: `${SCREENSHOTS}/chart-${interval}-${theme}-${size.width}.png` });
          for (const label of await clippedDates(page, 'price-chart')) clipped.push(`${interval} ${theme} ${size.width}px: ${label}`);
        }
      }
    }
    assert.deepEqual(clipped, []);
  });

  it("draws the P&L chart's date labels inside its axis, and no time of day among them, on the portfolio and the profile, on a desktop and a phone, in both themes", async () => {
    const clipped: string[] = [];
    const times: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of [DESKTOP, PHONE]) {
        await page.setViewportSize(size);
        for (const [name, path] of [['portfolio', '/portfolio'], ['profile', '/profile/month_charter']]) {
          await page.goto(`${server.url}${path}`);
          const chart = page.getByTestId('pnl-chart');
          await chart.locator('canvas').first().waitFor({ state: 'attached' });
          await page.waitForTimeout(300); // the library paints on an animation frame after the data
          await chart.locator('..').screenshot({ path: `${SCREENSHOTS}/pnl-${name}-${theme}-${size.width}.png` });
          for (const label of await clippedDates(page, 'pnl-chart')) clipped.push(`${name} ${theme} ${size.width}px: ${label}`);
          // A month's span: dates only (time-axis.ts labelsFor).
          const labels = (await axisText(page, 'pnl-chart', 'time')).map((label) => label.text);
          if (labels.some((label) => /\d:\d\d/.test(label))) times.push(`${name} ${theme} ${size.width}px: ${labels.join(', ')}`);
        }
      }
    }
    assert.deepEqual(clipped, []);
    assert.deepEqual(times, []);
  });

  it('draws the P&L chart along time, uneven gaps as wide as they are, and no last-value label over the price axis', async () => {
    const wrong: string[] = [];
    await page.setViewportSize(DESKTOP);
    for (const [name, path] of [['portfolio', '/portfolio'], ['profile', '/profile/month_charter']]) {
      await page.goto(`${server.url}${path}`);
      const chart = page.getByTestId('pnl-chart');
      await chart.locator('canvas').first().waitFor({ state: 'attached' });
      await page.waitForTimeout(300); // the library paints on an animation frame after the data
      for (const day of offTime(await axisText(page, 'pnl-chart', 'time'), start)) wrong.push(`${name}: ${day} off its time`);
      // The P&L now is said above the chart (−$177.00 here); its label on the axis covered the axis's own (−$200.00).
      const now = (await page.locator(name === 'portfolio' ? 'h2 .num' : '.stats div:nth-child(2) dd').first().textContent())!;
      const onAxis = (await axisText(page, 'pnl-chart', 'price')).map((label) => label.text);
      if (onAxis.includes(now)) wrong.push(`${name}: ${now} drawn on the price axis ${onAxis}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('logged no console error', () => {
    assert.deepEqual(watched.errors, []);
  });
});
