import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { binanceSymbol, createBinanceFeed, createPythFeed, FeedError, PYTH_FEED_IDS } from '../../src/prices/index.ts';
import { get, post } from '../helpers/http.ts';
import { freePort } from '../helpers/process-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The pyth (Hermes) and binance (klines) clients against a local HTTP server that answers in each
 * provider's documented format, errors and stale prices included; then a server on PRICE_FEED=pyth
 * polling it, which keeps serving when the feed stops answering.
 */
type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const BTC_ID = PYTH_FEED_IDS['BTC/USD']!;
const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};
/** A Hermes PriceUpdate: binary VAA data plus the parsed updates. */
const hermesUpdate = (id: string, price: string, expo: number, publishTimeS: number) => ({
  binary: { encoding: 'hex', data: ['504e41550100000003b8'] },
  parsed: [{
    id,
    price: { price, conf: '3055821', expo, publish_time: publishTimeS },
    ema_price: { price, conf: '3200000', expo, publish_time: publishTimeS },
    metadata: { slot: 180184529, proof_available_time: publishTimeS + 1, prev_publish_time: publishTimeS - 1 },
  }],
});
/** A Binance 1m kline: [openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBase, takerQuote, ignore]. */
const kline = (openTime: number, open: string, close: string) => [openTime, open, '99999.00000000', '1.00000000', close, '12.50000000', openTime + 59_999, '1200000.0', 100, '6.2', '600000.0', '0'];

async function expectFeedError(promise: Promise<unknown>, reason: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof FeedError, String(error));
    assert.equal(error.reason, reason, error.message);
    return true;
  });
}

describe('price feed clients against a local provider', () => {
  let provider: Server;
  let baseUrl: string;
  let handler: Handler = (_q, r) => json(r, 500, {});
  const requests: string[] = [];
  const nowMs = Date.parse('2026-11-27T14:00:30.000Z');

  before(async () => {
    const port = await freePort();
    provider = createServer((request, response) => {
      requests.push(request.url ?? '');
      handler(request, response);
    });
    await new Promise<void>((resolve) => provider.listen(port, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${port}/`;
  });
  after(async () => {
    await new Promise((resolve) => provider.close(resolve));
  });

  it('pyth: reads parsed Hermes updates (price × 10^expo, publish_time) and asks for the right feed id', async () => {
    const feed = createPythFeed(baseUrl, () => nowMs);
    const publish = Math.floor(nowMs / 1000) - 2;
    handler = (_q, r) => json(r, 200, hermesUpdate(BTC_ID, '9712345678901', -8, publish));
    assert.deepEqual(await feed.latest('BTC/USD'), { price: 9_712_345_678_901n, atMs: publish * 1000 });
    assert.equal(requests.at(-1), `/v2/updates/price/latest?ids[]=${BTC_ID}&parsed=true`);
    // Finer than 10^-8 is cut; coarser exponents scale up.
    handler = (_q, r) => json(r, 200, hermesUpdate(`0x${BTC_ID}`, '971234567890199', -10, publish));
    assert.equal((await feed.latest('BTC/USD')).price, 9_712_345_678_901n);
    handler = (_q, r) => json(r, 200, hermesUpdate(BTC_ID, '97123', 0, publish));
    assert.equal((await feed.latest('BTC/USD')).price, 9_712_300_000_000n);

    const at = Date.parse('2026-11-27T14:00:00.000Z');
    handler = (_q, r) => json(r, 200, hermesUpdate(BTC_ID, '9700000000000', -8, at / 1000));
    assert.deepEqual(await feed.at('BTC/USD', at + 400), { price: 9_700_000_000_000n, atMs: at });
    assert.equal(requests.at(-1), `/v2/updates/price/${at / 1000}?ids[]=${BTC_ID}&parsed=true`);
  });

  it('pyth: stale, missing, malformed and failed answers are FeedErrors with a reason', async () => {
    const feed = createPythFeed(baseUrl, () => nowMs);
    handler = (_q, r) => json(r, 200, hermesUpdate(BTC_ID, '9712345678901', -8, Math.floor(nowMs / 1000) - 61));
    await expectFeedError(feed.latest('BTC/USD'), 'stale');
    const at = Date.parse('2026-11-27T13:00:00.000Z');
    handler = (_q, r) => json(r, 200, hermesUpdate(BTC_ID, '9712345678901', -8, at / 1000 + 120));
    await expectFeedError(feed.at('BTC/USD', at), 'stale');
    handler = (_q, r) => {
      r.writeHead(404, { 'content-type': 'text/plain' });
      r.end(`Price ids not found: ${BTC_ID}`);
    };
    await expectFeedError(feed.latest('BTC/USD'), 'unsupported-pair');
    const before = requests.length;
    await expectFeedError(feed.latest('DOGE/EUR'), 'unsupported-pair');
    assert.equal(requests.length, before, 'an unknown pair is refused without asking');
    handler = (_q, r) => json(r, 503, { message: 'unavailable' });
    await expectFeedError(feed.latest('BTC/USD'), 'unavailable');
    handler = (_q, r) => json(r, 429, {});
    await expectFeedError(feed.latest('BTC/USD'), 'unavailable');
    for (const body of [{ binary: {} }, { parsed: [] }, hermesUpdate('ab'.repeat(32), '1', -8, 1), hermesUpdate(BTC_ID, '-5', -8, Math.floor(nowMs / 1000)), hermesUpdate(BTC_ID, '12.5', -8, 1)]) {
      handler = (_q, r) => json(r, 200, body);
      await expectFeedError(feed.latest('BTC/USD'), 'bad-answer');
    }
    handler = (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      r.end('<html>maintenance</html>');
    };
    await expectFeedError(feed.latest('BTC/USD'), 'bad-answer');
    await expectFeedError(createPythFeed('http://127.0.0.1:1', () => nowMs).latest('BTC/USD'), 'unavailable');
  });

  it('binance: the current kline close for latest, the minute open for a time, USD as USDT', async () => {
    assert.equal(binanceSymbol('BTC/USD'), 'BTCUSDT');
    assert.equal(binanceSymbol('ETH/BTC'), 'ETHBTC');
    const feed = createBinanceFeed(baseUrl, () => nowMs);
    const minute = Math.floor(nowMs / 60_000) * 60_000;
    handler = (_q, r) => json(r, 200, [kline(minute, '97000.00000000', '97050.50000000')]);
    assert.deepEqual(await feed.latest('BTC/USD'), { price: 9_705_050_000_000n, atMs: nowMs });
    assert.equal(requests.at(-1), '/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=1');
    // An ended kline (no trade since) is dated by its close.
    handler = (_q, r) => json(r, 200, [kline(minute - 60_000, '97000.00000000', '96999.99000000')]);
    assert.deepEqual(await feed.latest('BTC/USD'), { price: 9_699_999_000_000n, atMs: minute });

    const at = Date.parse('2026-11-27T13:00:00.000Z');
    handler = (_q, r) => json(r, 200, [kline(at, '96500.12000000', '96600.00000000')]);
    assert.deepEqual(await feed.at('BTC/USD', at + 10_000), { price: 9_650_012_000_000n, atMs: at });
    assert.equal(requests.at(-1), `/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=1&startTime=${at}`);
  });

  it('binance: stale klines, an invalid symbol, rate limits and malformed answers are FeedErrors', async () => {
    const feed = createBinanceFeed(baseUrl, () => nowMs);
    handler = (_q, r) => json(r, 200, [kline(nowMs - 5 * 60_000, '1.00000000', '1.00000000')]);
    await expectFeedError(feed.latest('BTC/USD'), 'stale');
    const at = Date.parse('2026-11-27T13:00:00.000Z');
    handler = (_q, r) => json(r, 200, [kline(at + 60_000, '1.00000000', '1.00000000')]);
    await expectFeedError(feed.at('BTC/USD', at), 'stale');
    handler = (_q, r) => json(r, 200, []);
    await expectFeedError(feed.at('BTC/USD', at), 'stale');
    handler = (_q, r) => json(r, 400, { code: -1121, msg: 'Invalid symbol.' });
    await expectFeedError(feed.latest('XYZ/USD'), 'unsupported-pair');
    handler = (_q, r) => json(r, 429, { code: -1003, msg: 'Too many requests; current limit is 6000 request weight per 1 MINUTE.' });
    await expectFeedError(feed.latest('BTC/USD'), 'unavailable');
    handler = (_q, r) => json(r, 418, { code: -1003, msg: 'Way too many requests; IP banned.' });
    await expectFeedError(feed.latest('BTC/USD'), 'unavailable');
    for (const body of [{ code: 0 }, [['x']], [kline(at, 'NaN', '1')], [kline(at, '-1.00000000', '1')]]) {
      handler = (_q, r) => json(r, 200, body);
      await expectFeedError(feed.at('BTC/USD', at), 'bad-answer');
    }
  });

  describe('a server polling PRICE_FEED=pyth', () => {
    let server: TestServer;
    const iso = (ms: number) => new Date(ms).toISOString();
    const metric = async (pattern: RegExp) => Number(pattern.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1] ?? 0);

    before(async () => {
      server = await startTestServer({ PRICE_FEED: 'pyth', PRICE_FEED_URL: baseUrl });
    });
    after(async () => {
      await server.close();
    });

    it('records polled prices, fetches the price at resolveAt, and keeps serving when the feed fails', async () => {
      const clockNow = () => server.ctx.clock.nowMs();
      const end = Math.ceil((clockNow() + 60_000) / 1000) * 1000;
      const created = await post(server.api('/admin/events'), {
        name: 'BTC above 97k', description: 'd', liveness: 600,
        markets: [{ name: 'BTC above 97k', endDate: iso(end), priceTargetConfig: { targetType: 'FIXED', pair: 'BTC/USD', targetPrice: '97000' } }],
      }, server.adminHeaders);
      const market = (await post(server.api(`/admin/events/${created.body.id}/publish`), undefined, server.adminHeaders)).body.markets[0];

      // Polling: the latest price is stored with its own publish time and source.
      handler = (_q, r) => json(r, 200, hermesUpdate(BTC_ID, '9690000000000', -8, Math.floor(clockNow() / 1000) - 1));
      assert.equal((await post(server.api('/admin/clock'), { advanceMs: 1000 }, server.adminHeaders)).status, 200);
      const polled = (await get(server.api('/prices/reference?pair=BTC/USD'))).body;
      assert.deepEqual([polled.price, polled.source], ['96900', 'pyth']);

      // A stale answer is not stored, and counted.
      handler = (_q, r) => json(r, 200, hermesUpdate(BTC_ID, '1', -8, Math.floor(clockNow() / 1000) - 600));
      assert.equal((await post(server.api('/admin/clock'), { advanceMs: 1000 }, server.adminHeaders)).status, 200);
      assert.equal((await get(server.api('/prices/reference?pair=BTC/USD'))).body.price, '96900');
      assert.ok(await metric(/pmx_price_feed_errors_total\{source="pyth",reason="stale"\} (\d+)/) >= 1);

      // The feed goes down: the clock, reads and trading go on; the failure is counted.
      handler = (_q, r) => json(r, 500, { error: 'down' });
      assert.equal((await post(server.api('/admin/clock'), { advanceMs: 1000 }, server.adminHeaders)).status, 200);
      assert.ok(await metric(/pmx_price_feed_errors_total\{source="pyth",reason="unavailable"\} (\d+)/) >= 1);
      assert.equal((await get(server.api(`/markets/${market.id}`))).status, 200);
      assert.equal((await get(server.api(`/order-book/book?token_id=${market.tokenId1}`))).status, 200);

      // At resolveAt the latest poll fails, but Hermes' price at that second is asked for and used.
      handler = (request, r) => {
        if (request.url?.startsWith(`/v2/updates/price/${end / 1000}?`)) json(r, 200, hermesUpdate(BTC_ID, '9710000000000', -8, end / 1000));
        else json(r, 500, { error: 'down' });
      };
      assert.equal((await post(server.api('/admin/clock'), { now: iso(end + 2000) }, server.adminHeaders)).status, 200);
      const stored = (await get(server.api(`/prices/reference?pair=BTC/USD&at=${iso(end)}`))).body;
      assert.deepEqual([stored.price, stored.at, stored.source], ['97100', iso(end), 'pyth']);
      const resolution = (await get(server.api(`/markets/${market.id}/resolution`))).body;
      assert.deepEqual([resolution.status, resolution.proposedOutcome], ['PROPOSED', 'YES']);
    });
  });
});
