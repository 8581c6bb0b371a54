/**
 * The ticket's limit price in cents, as every other price in the app (an outside audit: it was
 * typed in dollars, "0.41", "tick 0.01"), in Debian's Chromium against a real server: on a
 * cent-tick market, and on tenth- and hundredth-of-a-cent ticks (EXTENSIONS.md's tickSize values),
 * where a price such as 41.5¢ is typed, stepped by one tick and sent exact; and on a market whose
 * tick, or fee, an operator changes while its page is open. And the conversions without a browser.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generatePrivateKey } from 'viem/accounts';
import { createClient, type ExchangeClient, type Market, OrderBuildError } from '../../src/client/index.ts';
import { centsText, limitDollars, tickCents, typedMicros } from '../../src/web/src/ticket-price.ts';
import { ensureBuild } from '../helpers/build.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { fundedTrader, type OpenBrowser, openSignedIn, screenshots, skipReason, until, watchedPage } from './browser.ts';

const HOUR = 3_600_000;

describe('a limit price typed in cents', () => {
  it('is sent as the exact dollars, on every tick', () => {
    assert.equal(limitDollars('41', '0.01'), '0.41');
    assert.equal(limitDollars('5', '0.01'), '0.05');
    assert.equal(limitDollars('41.5', '0.001'), '0.415');
    assert.equal(limitDollars('41.55', '0.0001'), '0.4155');
    assert.equal(limitDollars('40', '0.1'), '0.4');
    assert.equal(limitDollars('41.0', '0.01'), '0.41');
  });

  it("is refused in cents, with the order builder's codes", () => {
    const refusal = (typed: string, tick: string) => {
      try {
        limitDollars(typed, tick);
      } catch (error) {
        assert.ok(error instanceof OrderBuildError);
        return `${error.code}: ${error.message}`;
      }
      return 'accepted';
    };
    assert.equal(refusal('41.5', '0.01'), "ORDER_PRICE_NOT_ON_TICK: 41.5¢ is not on this market's tick of 1¢");
    assert.equal(refusal('41.55', '0.001'), "ORDER_PRICE_NOT_ON_TICK: 41.55¢ is not on this market's tick of 0.1¢");
    assert.equal(refusal('41.00001', '0.0001'), "ORDER_PRICE_NOT_ON_TICK: 41.00001¢ is not on this market's tick of 0.01¢");
    assert.equal(refusal('100', '0.01'), 'ORDER_PRICE_OUT_OF_RANGE: a price is above 0¢ and below 100¢');
    assert.equal(refusal('0', '0.01'), 'ORDER_PRICE_OUT_OF_RANGE: a price is above 0¢ and below 100¢');
    assert.equal(refusal('0.41$', '0.01'), 'VALIDATION_FAILED: "0.41$" is not a price in cents, such as 41');
  });

  it('reads back in cents: ticks, and prices picked from the book', () => {
    assert.deepEqual(['0.1', '0.01', '0.001', '0.0001'].map(tickCents), ['10', '1', '0.1', '0.01']);
    assert.equal(centsText(415_000n), '41.5');
    assert.equal(typedMicros('41.55'), 415_500n);
    assert.equal(typedMicros('-4'), undefined);
  });
});

describe('the ticket in cents', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let watched: OpenBrowser;
  let page: Page;
  let admin: ExchangeClient;
  let me: ExchangeClient;
  const markets = new Map<string, Market>();

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    admin = createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } });
    for (const tickSize of ['0.01', '0.001', '0.0001'] as const) {
      const event = await admin.admin.publishEvent((await admin.admin.createEvent({
        name: `Is a price in cents on tick ${tickSize}`,
        description: 'A market traded from the ticket.',
        startDate: new Date(Date.now() - HOUR).toISOString(),
        endDate: new Date(Date.now() + 24 * HOUR).toISOString(),
        markets: [{ name: `Is a price in cents on tick ${tickSize}`, tickSize, orderFeeRateBps: 0, passiveOrderFeeRateBps: 0 }],
      })).id);
      markets.set(tickSize, event.markets[0]!);
    }
    const key = generatePrivateKey();
    me = await fundedTrader(server, admin, key, '1000');
    watched = await openSignedIn(server.url, key);
    page = watched.page;
  });

  after(async () => {
    await watched?.close();
    await server?.close();
  });

  /** Opens the market on `tickSize` and places `typed` cents there (ticketPlaces): the price the exchange recorded. */
  async function place(tickSize: string, typed: string, steps: string[], shown: string): Promise<string> {
    const market = markets.get(tickSize)!;
    await page.goto(`${server.url}/market/${market.slug}`);
    const [recorded] = await ticketPlaces(market, tickSize, typed, steps, shown);
    return recorded!;
  }

  /**
   * Types `typed` cents and 10 shares in the open page's ticket, its label saying `tickSize`, steps
   * it, and places it: the prices of the trader's resting orders on `market`'s first token.
   */
  async function ticketPlaces(market: Market, tickSize: string, typed: string, steps: string[], shown: string): Promise<string[]> {
    const ticket = page.getByTestId('order-ticket');
    const price = ticket.getByLabel(/^Limit price/);
    assert.equal(await ticket.locator(`label[for="${await price.getAttribute('id')}"]`).innerText(), `Limit price in cents, tick ${tickCents(tickSize)}¢`);
    await price.fill(typed);
    for (const step of steps) {
      if (step === '+' || step === '−') await ticket.getByRole('button', { name: step === '+' ? 'One tick higher' : 'One tick lower' }).click();
      else await price.press(step);
    }
    assert.equal(await price.inputValue(), shown);
    await ticket.getByLabel('Shares').fill('10');
    await ticket.getByRole('button', { name: `Buy Yes at ${shown}¢` }).click();
    // By its price: the answer of an order placed before on this page stays until this one's comes.
    await page.getByTestId('ticket-answer').filter({ hasText: 'resting in the book' }).filter({ hasText: `at ${shown}¢` }).waitFor();
    return (await me.orders.list()).filter((o) => o.tokenId === market.tokenId1 && o.status === 'PENDING').map((o) => String(o.price)).sort();
  }

  it('places 41¢ on a cent tick, moved a cent by + and −', async () => {
    assert.equal(await place('0.01', '40', ['+', '+', '−'], '41'), '0.41');
  });

  it('places 41.5¢ on a tenth-of-a-cent tick, the arrow keys moving it a tick as the buttons do', async () => {
    assert.equal(await place('0.001', '41.5', ['ArrowUp', 'ArrowUp', 'ArrowDown', '−', '+'], '41.6'), '0.416');
    await screenshots(page, 'ticket-cents');
  });

  it('places 41.55¢ on a hundredth-of-a-cent tick, and says a price off the tick in cents before signing', async () => {
    assert.equal(await place('0.0001', '41.55', [], '41.55'), '0.4155');
    await page.getByTestId('order-ticket').getByLabel(/^Limit price/).fill('41.555');
    assert.equal(await page.getByTestId('ticket-problem').innerText(), "41.555¢ is not on this market's tick of 0.01¢ (ORDER_PRICE_NOT_ON_TICK)");
  });

  it("follows an operator's tick change without a reload: the book's prices, the ticket's step and the order sent", async () => {
    const event = await admin.admin.publishEvent((await admin.admin.createEvent({
      name: 'Is a changed tick followed',
      description: 'Two questions whose tick an operator changes while their pages are open.',
      startDate: new Date(Date.now() - HOUR).toISOString(),
      endDate: new Date(Date.now() + 24 * HOUR).toISOString(),
      markets: ['first', 'second'].map((which) => ({ name: `Is the ${which} changed tick followed`, tickSize: '0.01' as const, orderFeeRateBps: 0, passiveOrderFeeRateBps: 0 })),
    })).id);
    const market = event.markets[0]!;
    // The event page, open in a tab of its own before the change, lists the market's prices too.
    const eventTab = await watchedPage(watched.context);
    await eventTab.page.goto(`${server.url}/event/${event.slug}`);
    const eventRow = eventTab.page.locator('.event-markets tbody tr', { hasText: market.name });
    assert.match(await eventRow.innerText(), /Buy Yes \d+¢/);
    await page.goto(`${server.url}/market/${market.slug}`);
    // An order placed before the change: the SDK keeps the rules of a market it built an order for.
    assert.deepEqual(await ticketPlaces(market, '0.01', '41', [], '41'), ['0.41']);
    const book = page.getByRole('region', { name: 'Order book' });
    await book.getByRole('button', { name: 'Use price 41¢' }).waitFor();

    await admin.admin.patchMarket(market.id, { tickSize: '0.001' });
    await book.getByRole('button', { name: 'Use price 41.0¢' }).waitFor();
    assert.deepEqual(await ticketPlaces(market, '0.001', '41.5', ['+'], '41.6'), ['0.41', '0.416']);
    await until(async () => /Buy Yes \d+\.\d¢/.test(await eventRow.innerText()), "the event page's prices on the new tick");
    await screenshots(page, 'ticket-tick-changed');
    await eventTab.page.close();
    assert.deepEqual(eventTab.errors, []);
  });

  it("reads an operator's fee change again when it refuses an order, shows the new fee and leaves sending it again to the trader", async () => {
    const event = await admin.admin.publishEvent((await admin.admin.createEvent({
      name: 'Is a changed fee shown',
      description: 'A question whose fee an operator changes while its page is open.',
      startDate: new Date(Date.now() - HOUR).toISOString(),
      endDate: new Date(Date.now() + 24 * HOUR).toISOString(),
      markets: [{ name: 'Is the changed fee shown', tickSize: '0.01', orderFeeRateBps: 20, passiveOrderFeeRateBps: 0 }],
    })).id);
    const market = event.markets[0]!;
    await page.goto(`${server.url}/market/${market.slug}`);
    const ticket = page.getByTestId('order-ticket');
    await ticket.getByLabel(/^Limit price/).fill('40');
    await ticket.getByLabel('Shares').fill('10');
    const fee = ticket.getByTestId('fee');
    const answer = page.getByTestId('ticket-answer');
    const placed = async () => (await me.orders.list({ market: market.id })).map((o) => o.feeRateBps);
    // The taker rate on min(40¢, 60¢) × 10 shares: 20 bps is $0.008.
    await fee.filter({ hasText: /^\$0\.008$/ }).waitFor();
    // Raised, then cut: each time the order signed at the rate the ticket showed is refused, the
    // ticket shows the new rate and asks again, and nothing is sent on its own (not even at a lower fee).
    for (const [bps, shown] of [[50, /^\$0\.02$/], [10, /^\$0\.004$/]] as const) {
      await admin.admin.patchMarket(market.id, { orderFeeRateBps: bps });
      await ticket.getByRole('button', { name: 'Buy Yes at 40¢' }).click();
      await answer.filter({ hasText: `Not placed: this market's fees changed to taker ${bps} bps, maker 0 bps. Review the order and its fee, and submit it again.` }).waitFor();
      await fee.filter({ hasText: shown }).waitFor();
      assert.deepEqual(await placed(), []);
    }
    await ticket.getByRole('button', { name: 'Buy Yes at 40¢' }).click();
    await answer.filter({ hasText: 'resting in the book' }).waitFor();
    assert.deepEqual(await placed(), [10]);
  });

  it('logged no console error', () => {
    assert.deepEqual(watched.errors, []);
  });
});
