/**
 * The portfolio's redeem amounts past the first 100 resolved positions (an outside audit: a market
 * beyond them was offered a plain "Redeem" with no amount), in Debian's Chromium against a real
 * server: 101 markets resolved Yes, each split into; and the pages read, without a browser.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generatePrivateKey } from 'viem/accounts';
import { createClient, type ExchangeClient, type UserPosition } from '../../src/client/index.ts';
import { MAX_PAGES, resolvedPositions } from '../../src/web/src/resolved-positions.ts';
import { ensureBuild } from '../helpers/build.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { fundedTrader, type OpenBrowser, openSignedIn, screenshots, skipReason } from './browser.ts';

const HOUR = 3_600_000;
const MARKETS = 101;

/** A client whose resolved positions are `total` rows, answering pages as the route does; `asked` lists the pages read. */
function fakeClient(total: number, asked: number[]): ExchangeClient {
  const positions = async ({ page = 1, limit = 10 }: { page?: number; limit?: number }) => {
    asked.push(page);
    const data = Array.from({ length: Math.max(0, Math.min(limit, total - (page - 1) * limit)) }, () => ({}) as UserPosition);
    return { first: (page - 1) * limit, last: (page - 1) * limit + data.length, limit, total, data };
  };
  return { portfolio: { positions } } as unknown as ExchangeClient;
}

describe('reading the resolved positions', () => {
  it('reads every page, up to MAX_PAGES, and says when more remained', async () => {
    for (const [total, pages, complete] of [[0, [1], true], [100, [1], true], [150, [1, 2], true], [MAX_PAGES * 100 + 1, Array.from({ length: MAX_PAGES }, (_, i) => i + 1), false]] as const) {
      const asked: number[] = [];
      const read = await resolvedPositions(fakeClient(total, asked));
      assert.deepEqual(asked.sort((a, b) => a - b), pages, `${total} rows`);
      assert.equal(read.rows.length, Math.min(total, MAX_PAGES * 100));
      assert.equal(read.complete, complete);
    }
  });
});

describe('redeem amounts past the first page of resolved positions', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let watched: OpenBrowser;
  let page: Page;

  before(async () => {
    ensureBuild();
    server = await startTestServer();
    const admin = createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } });
    const event = await admin.admin.publishEvent((await admin.admin.createEvent({
      name: 'A hundred and one questions',
      description: 'Each resolves Yes.',
      startDate: new Date(Date.now() - 2 * HOUR).toISOString(),
      endDate: new Date(Date.now() - HOUR).toISOString(),
      liveness: 60,
      markets: Array.from({ length: MARKETS }, (_, index) => ({ name: `Question ${index + 1}`, orderFeeRateBps: 0, passiveOrderFeeRateBps: 0 })),
    })).id);
    const key = generatePrivateKey();
    const me = await fundedTrader(server, admin, key, '1000');
    // A share of each outcome of every market: 202 resolved positions, the Yes ones paying $1 each.
    for (const market of event.markets) {
      await me.markets.split(market.id, '1');
      await admin.admin.oraclePropose(market.id, 'YES');
    }
    // Past the dispute window; the oracle's job resolves 100 questions a run, so a second move resolves the 101st.
    await admin.admin.clock({ advanceMs: 2 * 60_000 });
    await admin.admin.clock({ advanceMs: 1_000 });
    watched = await openSignedIn(server.url, key);
    page = watched.page;
  });

  after(async () => {
    await watched?.close();
    await server?.close();
  });

  it('says what every redeemable market pays, the 101st too, and the whole', async () => {
    await page.goto(`${server.url}/portfolio`);
    const redeemable = page.getByTestId('redeemable');
    await redeemable.getByRole('button', { name: `Redeem all · $${MARKETS}.00` }).waitFor();
    const buttons = await redeemable.locator('li button').allInnerTexts();
    assert.equal(buttons.length, MARKETS);
    assert.deepEqual(buttons.filter((text) => text !== 'Redeem $1.00'), []);
    assert.equal(await page.getByTestId('redeem-unread').count(), 0, 'every amount read');
    await screenshots(page, 'redeem-pages');
  });

  it('logged no console error', () => {
    assert.deepEqual(watched.errors, []);
  });
});
