import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, parseUnits } from '../../src/client/index.ts';
import { demoBanner, demoConfig, openingPrice, seedDemo } from '../../src/cli/demo.ts';
import { startDemoMakers } from '../../src/cli/demo-makers.ts';
import { DEMO_REWARDS } from '../../src/cli/demo-rewards.ts';
import { DEMO_SERIES_SLUG, startDemoPriceWalk } from '../../src/cli/demo-series.ts';
import { parseConfig } from '../../src/config.ts';
import { adminClient } from '../client/helpers.ts';
import { get } from '../helpers/http.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';

/** The bots quote at their own pace on a busy machine: the test's own timeout bounds the wait, not the SDK's 30 s. */
const NO_WAIT_LIMIT = { timeoutMs: Infinity };

describe('demo seed, through the SDK', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  it('publishes single, multi-market and negRisk events once, reusing what exists, and changes nothing on a re-run', async () => {
    const admin = adminClient(server);
    // What an interrupted earlier run could have left: one category, one tag, and an event created but not published.
    const crypto = await admin.admin.createCategory({ name: 'Crypto', position: 1 });
    const bitcoin = await admin.admin.createTag({ slug: 'demo-bitcoin', label: 'Bitcoin', type: 'topic' });
    const draft = await admin.admin.createEvent({ name: 'Will Bitcoin close above $150,000 on its end date?', slug: 'demo-bitcoin-above-150k', description: 'Left as a draft.', categories: [crypto.id], tags: [bitcoin.id], markets: [{ name: 'Bitcoin above $150,000' }] });
    const steps: [number, number][] = [];
    const first = await seedDemo(admin, (done, total) => steps.push([done, total]));
    assert.equal(first.seeded, true);
    assert.deepEqual(steps, Array.from({ length: 10 }, (_, i) => [i + 1, 10]));
    const events = (await get(server.api('/events?limit=100'))).body;
    // Three events and the hourly BTC/USD series (its markets come on the clock).
    assert.equal(events.total, 4);
    assert.deepEqual(first.events.map((e) => e.id).sort(), events.data.map((e: { id: string }) => e.id).sort());
    assert.ok(events.data.some((e: { single: boolean }) => e.single));
    assert.ok(events.data.some((e: { negRisk: boolean; markets: unknown[] }) => e.negRisk && e.markets.length > 2));
    for (const event of events.data) {
      assert.equal(event.eventStatus, 'ACTIVE');
      assert.ok(event.categories.length > 0 && event.tags.length > 0);
      for (const market of event.markets) assert.match(market.tokenId1, /^\d+$/);
    }
    const btc = first.events.find((e) => e.slug === 'demo-bitcoin-above-150k')!;
    assert.deepEqual([btc.categories.map((c) => c.id), btc.tags.map((t) => t.id)], [[crypto.id], [bitcoin.id]]);
    assert.equal(btc.id, draft.id, 'the draft left behind is published, not made again');
    assert.deepEqual((await admin.admin.categories()).map((c) => c.name), ['Crypto', 'Politics', 'Sports']);
    assert.deepEqual((await admin.admin.tags()).map((t) => t.slug), ['demo-bitcoin', 'demo-elections', 'demo-football']);

    const again = await seedDemo(admin);
    assert.equal(again.seeded, false);
    assert.deepEqual(again.events.map((e) => e.id), first.events.map((e) => e.id));
    assert.equal((await get(server.api('/events?limit=100'))).body.total, 4);
    assert.equal((await admin.admin.templates.list()).length, 1);
    assert.equal((await admin.admin.categories()).length, 3);
  });

  it("runs the examples' market maker on every market and their taker bot, and cancels the quotes on stop", async () => {
    const admin = adminClient(server);
    await seedDemo(admin);
    // The hourly series' markets come on the clock (the test server's stands still until moved).
    await admin.admin.clock({ advanceMs: 0 });
    const client = createClient({ baseUrl: server.url });
    const events = (await client.events.list({ limit: 100 })).data;
    const markets = events.flatMap((e) => e.markets);
    const series = new Set(events.filter((e) => e.templateId !== undefined).flatMap((e) => e.markets.map((m) => m.id)));
    assert.ok(series.size > 0, 'the series has its markets');
    const tokenIds = markets.map((m) => m.tokenId1!);
    const trades = client.trades.follow();
    const books = client.watchBook(tokenIds);
    await Promise.all([trades.subscribed(), books.ready()]);
    // The test server's clock stands still, so every trade has the same match millisecond, and the
    // trade-activity feed sends a confirmed trade only once every trade of its millisecond has settled:
    // the taker pauses longer than a settlement round (SETTLEMENT_BLOCK_MS, 250 ms) or the feed starves
    // (without a pause, a trade arrived only once the taker stopped, refused by the rate limit).
    const makers = await startDemoMakers(server.url, ADMIN_TOKEN, { pauseMs: 500, nowMs: () => server.ctx.clock.nowMs() });
    try {
      // Every market pays a daily pool the makers' quotes qualify for (the hourly series' markets none).
      const lasting = markets.filter((m) => !series.has(m.id));
      const pools = (await client.rewards.pools({ limit: 50 })).data.flatMap((e) => e.markets);
      assert.deepEqual(pools.map((p) => p.marketId).sort(), lasting.map((m) => m.id).sort());
      const terms = (p: { rewardUsdc: string | null; maxDistanceFromMid: string; minOrderSizeUsdc: string }) => [p.rewardUsdc ?? '', p.maxDistanceFromMid, p.minOrderSizeUsdc].map((text) => parseUnits(text));
      for (const pool of pools) assert.deepEqual(terms(pool), terms(DEMO_REWARDS));
      // Requotes empty a book for a moment: each must show both sides at some point, and trades must flow.
      for (const tokenId of tokenIds) await books.until(tokenId, (book) => book.bestBid() !== undefined && book.bestAsk() !== undefined, NO_WAIT_LIMIT);
      // The "one winner" election's candidates open at chances summing to 100% (each at 50% summed to 200%);
      // the taker bot's trades move each a tick at a time, so the sum stays near it.
      const election = (await client.events.get('demo-presidential-election')).markets;
      const mid = (tokenId: string) => (Number(books.bestBid(tokenId)!.price) + Number(books.bestAsk(tokenId)!.price)) / 2;
      const sum = election.reduce((total, m) => total + mid(m.tokenId1!), 0);
      assert.ok(Math.abs(sum - 1) <= 0.1, `the election's midpoints sum to ${sum.toFixed(3)}`);
      for await (const trade of trades) {
        assert.ok(markets.some((m) => m.id === trade.marketId));
        break;
      }
    } finally {
      books.close();
      await makers.stop();
    }
    for (const tokenId of tokenIds) assert.deepEqual(await client.book.get(tokenId).then((b) => [b.bids, b.asks]), [[], []]);
  });

  it('runs the hourly BTC/USD series: the current market opens with its target, and the price walk moves the reference', async () => {
    const admin = adminClient(server);
    await seedDemo(admin);
    const [template] = await admin.admin.templates.list();
    assert.deepEqual([template!.slug, template!.pair, template!.period, template!.lead], [DEMO_SERIES_SLUG, 'BTC/USD', '1h', 1]);
    await admin.admin.clock({ advanceMs: 0 });
    const series = await admin.events.get(template!.eventId);
    assert.equal(series.markets.length, 2, 'the current hour and the next one');
    const current = series.markets.find((m) => Date.parse(m.startDate!) <= server.ctx.clock.nowMs())!;
    assert.equal(current.priceTargetConfig?.targetPrice, '97000');
    assert.equal(series.metadata?.cryptoPairTargetPrice, '97000');

    const before = await admin.prices.reference('BTC/USD');
    const walk = await startDemoPriceWalk(server.url, ADMIN_TOKEN, { intervalMs: 10 });
    try {
      // The walk posts at the server's time, which only moves when the test moves it.
      await admin.admin.clock({ advanceMs: 1000 });
      let latest = before;
      while (latest.at === before.at) latest = await admin.prices.reference('BTC/USD');
      assert.equal(latest.source, 'manual');
      assert.match(latest.price, /^\d+(\.\d{1,2})?$/);
    } finally {
      await walk.stop();
    }
  });

  it('opens a negRisk event\'s markets at chances summing to 100%, and a traded market at its last price', () => {
    const market = (name: string, chance = 0.5, firstPriceDataAt: string | null = null) => ({ name, chance, firstPriceDataAt, tickSize: '0.01' });
    const names = ['Candidate A', 'Candidate B', 'Candidate C', 'Any other candidate'];
    const election = { slug: 'demo-presidential-election', negRisk: true, markets: names.map((name) => market(name)) as never[] };
    const opening = names.map((name) => openingPrice(election, market(name))!);
    assert.deepEqual(opening, ['0.45', '0.3', '0.15', '0.1']);
    const other = { slug: 'a-three-way-race', negRisk: true, markets: [{}, {}, {}] as never[] };
    assert.equal(openingPrice(other, market('X')), '0.33');
    assert.equal(openingPrice({ ...other, negRisk: false }, market('X')), undefined);
    assert.equal(openingPrice(election, market('Candidate A', 0.52, '2026-01-01T00:00:00.000Z')), '0.520000');
  });

  it('generates an admin token only when none is configured, turns the faucet on, and prints both', () => {
    const bare = parseConfig({});
    assert.equal(bare.faucetEnabled, false);
    const { config, generatedAdminToken } = demoConfig(bare);
    assert.match(generatedAdminToken!, /^[0-9a-f]{48}$/);
    assert.equal(config.adminToken, generatedAdminToken);
    assert.equal(config.faucetEnabled, true);
    const configured = parseConfig({ ADMIN_TOKEN: 'configured-token-123456' });
    assert.deepEqual(demoConfig(configured), { config: { ...configured, faucetEnabled: true }, generatedAdminToken: undefined });
    const banner = demoBanner('http://127.0.0.1:3000', 'tok', true, true);
    assert.match(banner, /admin token.*: tok/);
    assert.match(banner, /faucet: +on \(POST http:\/\/127\.0\.0\.1:3000\/api\/v1\/account\/faucet/);
  });
});
