/**
 * The public profile, the home's sort, the buttons' contrast and Operate, as an outside audit in a
 * browser found them, in Debian's Chromium against a real server with the demo catalogue: profile
 * rows name the market's own outcomes (not "outcome 1"), a card's outcome links name their market, "Ending soon" ranks a price series by its
 * current round, every filled button's text meets WCAG AA in both themes, and the manual clock's
 * panel shows on a manual-clock server only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createClient, type Event, type ExchangeClient, type Market } from '../../src/client/index.ts';
import { seedDemo } from '../../src/cli/demo.ts';
import { ensureBuild } from '../helpers/build.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { fundedTrader, openBrowser, type OpenBrowser, screenshots, skipReason, until } from './browser.ts';

/** WCAG's relative luminance of a computed `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((part) => {
    const c = Number(part) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two computed colours. */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('the profile, home, contrast and Operate views', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let admin: ExchangeClient;
  let events: Event[];
  let watched: OpenBrowser;
  let page: Page;
  const series = (): Event => events.find((e) => e.templateId !== undefined)!;

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    admin = createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } });
    await seedDemo(admin);
    // The manual clock runs no timers: a move (of nothing) publishes the price series' rounds.
    await admin.admin.clock({ advanceMs: 0 });
    events = (await admin.events.list({ eventStatus: 'ACTIVE', limit: 100, total: false })).data;
    watched = await openBrowser();
    page = watched.page;
  });

  after(async () => {
    await watched?.close();
    await server?.close();
  });

  it("names a profile's trades and positions by their market's outcomes: Over and Down, not outcome 1 or 2", async () => {
    const goals = events.find((e) => e.slug === 'demo-saturday-derby')!.markets.find((m) => m.name === 'More than 2.5 goals')!;
    const now = (await admin.exchange()).serverTime;
    const round: Market = series().markets.filter((m) => m.status === 'ACTIVE' && m.endDate && Date.parse(m.endDate) > now).sort((a, b) => Date.parse(a.endDate!) - Date.parse(b.endDate!))[0]!;
    assert.deepEqual([goals.outcome1, round.outcome1, round.outcome2], ['Over', 'Up', 'Down']);
    const [buyer, other] = await Promise.all([fundedTrader(server, admin, undefined, '1000'), fundedTrader(server, admin, undefined, '1000')]);
    // The buyer takes Over and Down; the other side buys the complements at the same prices.
    for (const [market, mine] of [[goals, goals.tokenId1], [round, round.tokenId2]] as const) {
      const theirs = mine === market.tokenId1 ? market.tokenId2 : market.tokenId1;
      await other.orders.place({ tokenId: theirs!, side: 'BUY', price: '0.4', size: '10' });
      await buyer.orders.place({ tokenId: mine!, side: 'BUY', price: '0.6', size: '10', type: 'FAK' });
    }
    await server.ctx.trading.engine.settle();
    await buyer.account.update({ displayName: 'outcome_namer' });
    await page.goto(`${server.url}/profile/outcome_namer`);
    const trades = page.getByRole('region', { name: 'Recent trades' });
    await trades.getByText(/^bought Over · /).waitFor();
    await trades.getByText(/^bought Down · /).waitFor();
    const positions = page.getByRole('region', { name: 'Active positions' });
    await positions.getByText(`${goals.name} · Over`).waitFor();
    await positions.getByText(`${round.name} · Down`).waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /outcome [12]/);
    await screenshots(page, 'profile-outcomes');
  });

  it("gives every filled button's text at least 4.5:1 (WCAG AA) in the light and the dark theme", async () => {
    await page.goto(server.url);
    await page.getByTestId('event-card').first().waitFor();
    // The app's filled buttons: primary (sign-in, Save), the ticket's Buy and Sell (and the phone's Buy bar), the pressed Buy/Sell switch.
    const read = (theme: string) => page.evaluate<{ name: string; color: string; background: string }[]>(`(() => {
      document.documentElement.dataset.theme = ${JSON.stringify(theme)};
      const box = document.createElement('div');
      box.innerHTML = '<button class="primary">Primary</button><button class="primary wide buy">Buy</button><button class="primary wide sell">Sell</button>'
        + '<div class="segmented"><button class="buy" aria-pressed="true">Buy switch</button><button class="sell" aria-pressed="true">Sell switch</button></div>';
      document.querySelector('main').append(box);
      const seen = [...box.querySelectorAll('button')].map((b) => ({ name: b.textContent, color: getComputedStyle(b).color, background: getComputedStyle(b).backgroundColor }));
      box.remove();
      return seen;
    })()`);
    const low: string[] = [];
    for (const theme of ['light', 'dark']) {
      for (const button of await read(theme)) {
        const ratio = contrast(button.color, button.background);
        if (ratio < 4.5) low.push(`${theme} ${button.name}: ${button.color} on ${button.background}, ${ratio.toFixed(2)}:1`);
      }
    }
    assert.deepEqual(low, []);
    // As a trader sees them: the market page's ticket and Buy bar in the dark theme.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${server.url}/market/demo-btc-above-150k`);
    await page.getByTestId('order-ticket').waitFor();
    await screenshots(page, 'buttons-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it("names a card's outcome links with their market and price, and opens the market's ticket on that outcome", async () => {
    await page.goto(server.url);
    await page.getByTestId('event-card').first().waitFor();
    // Every single-market card's outcomes: "Buy Yes on <market> at 40¢", not a bare "Yes 40¢" heard card after card.
    const names = await page.getByTestId('event-card').locator('a.outcome').evaluateAll((links) => links.map((link) => link.getAttribute('aria-label')));
    assert.ok(names.length >= 2, `outcome links ${names}`);
    for (const name of names) assert.match(name ?? '', /^Buy \S.* on \S.* at \d+(\.\d)?¢$/);
    const bitcoin = events.find((event) => event.markets[0]?.slug === 'demo-btc-above-150k')!.markets[0]!;
    const buyNo = page.getByRole('link', { name: new RegExp(`^Buy ${bitcoin.outcome2} on ${bitcoin.name.replace(/[$?]/g, '\\$&')} at \\d+(\\.\\d)?¢$`) });
    await buyNo.click();
    const ticket = page.getByTestId('order-ticket');
    await ticket.getByRole('group', { name: 'Outcome' }).getByRole('button', { pressed: true }).filter({ hasText: bitcoin.outcome2 }).waitFor();
    assert.equal(await ticket.getByRole('group', { name: 'Side' }).getByRole('button', { pressed: true }).innerText(), 'Buy');
  });

  it("sorts 'Ending soon' by the soonest open market: the hourly series' current round first, not last for its event's null end", async () => {
    assert.equal(series().endDate, null);
    await page.goto(`${server.url}/?sort=ending`);
    const titles = page.getByTestId('event-card').locator('h2');
    await until(async () => (await titles.count()) === events.length, 'every event card');
    assert.deepEqual(await titles.allInnerTexts(), [
      series().name,
      'Saturday derby: match props',
      'Will Bitcoin close above $150,000 on its end date?',
      'Who will win the next presidential election?',
    ]);
    await screenshots(page, 'home-ending-soon');
  });

  it("Operate offers the manual clock on a manual-clock server only, without asking the clock's route", async () => {
    const operate = async (url: string) => {
      await page.goto(`${url}/admin`);
      await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('form', { name: 'Credit collateral' }).waitFor();
    };
    await operate(server.url);
    await page.getByRole('form', { name: 'Manual clock' }).waitFor();
    const real = await startTestServer({ CLOCK: 'real' });
    try {
      const before = watched.refused.length;
      await operate(real.url);
      await page.getByRole('form', { name: 'Reward accrual' }).waitFor();
      assert.equal(await page.getByRole('form', { name: 'Manual clock' }).count(), 0, 'no clock panel on the real clock');
      assert.deepEqual(watched.refused.slice(before), [], 'and no request refused to find out');
      await screenshots(page, 'operate-real-clock');
    } finally {
      await real.close();
    }
  });
});
