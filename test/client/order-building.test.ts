import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ExchangeError, LocalBook, OrderBuildError, orderAmounts, type ExchangeClient } from '../../src/client/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminClient, publishedMarkets, traderClient } from './helpers.ts';

const TICKS = ['0.1', '0.01', '0.001', '0.0001'] as const;
/** Decimal strings with up to 7 decimals, some of them off any tick. */
const decimal = (maxWhole: number) => fc.tuple(fc.integer({ min: 0, max: maxWhole }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 9_999_999 }))
  .map(([whole, places, digits]) => (places === 0 ? String(whole) : `${whole}.${String(digits).padStart(7, '0').slice(0, places)}`));

describe('order amounts (pure)', () => {
  it('price × size is exact and on the tick whenever an order is built', () => {
    fc.assert(fc.property(fc.constantFrom(...TICKS), fc.constantFrom('BUY' as const, 'SELL' as const), decimal(1), decimal(1000), (tick, side, price, size) => {
      let amounts: ReturnType<typeof orderAmounts>;
      try {
        amounts = orderAmounts(side, price, size, tick);
      } catch (error) {
        assert.ok(error instanceof OrderBuildError);
        return;
      }
      const d = tick.length - 2;
      const [collateral, tokens] = side === 'BUY' ? [amounts.makerAmount, amounts.takerAmount] : [amounts.takerAmount, amounts.makerAmount];
      assert.equal(tokens % 10n ** BigInt(d), 0n);
      assert.equal((amounts.priceMicros * tokens) % 1_000_000n, 0n);
      assert.equal(collateral * 1_000_000n, amounts.priceMicros * tokens);
      assert.ok(amounts.priceMicros > 0n && amounts.priceMicros < 1_000_000n);
      assert.equal(amounts.priceMicros % 10n ** BigInt(6 - d), 0n);
    }));
  });

  it('a local book reports a skipped seq as a gap and a stale one as stale', () => {
    const book = new LocalBook({ market: 'm', asset_id: '1', hash: '', timestamp: 0, bids: [{ price: '0.5', size: '1' }], asks: [], tick_size: '0.01', seq: 4 });
    const change = (seq: number) => ({ market: 'm', asset_id: '1', seq, hash: '', timestamp: 0, changes: [] });
    assert.equal(book.apply(change(4)), 'stale');
    assert.equal(book.apply(change(6)), 'gap');
    assert.equal(book.apply(change(5)), 'mismatch');
  });
});

describe('order building against the server\'s own validation', () => {
  let server: TestServer;
  let trader: ExchangeClient;
  const markets: Record<string, { id: string; tokenId1: string; tokenId2: string; tickSize: string; negRisk: boolean; orderFeeRateBps: number }> = {};

  before(async () => {
    server = await startTestServer();
    const admin = adminClient(server);
    for (const tick of TICKS) markets[tick] = (await publishedMarkets(admin, { tickSize: tick, negRisk: tick === '0.001', orderFeeRateBps: 5 })).markets[0]!;
    trader = await traderClient(server, '1000000');
    for (const tick of TICKS) await trader.markets.split(markets[tick]!.id, '2000');
  });
  after(async () => {
    await server.close();
  });

  it('accepts every order the SDK builds, and refuses the naive amounts of the ones it refuses', async () => {
    let refusedLocally = 0;
    await fc.assert(fc.asyncProperty(fc.constantFrom(...TICKS), fc.constantFrom('BUY' as const, 'SELL' as const), fc.boolean(), decimal(1), decimal(999), async (tick, side, onToken2, price, size) => {
      const market = markets[tick]!;
      const spec = { tokenId: onToken2 ? market.tokenId2 : market.tokenId1, side, price, size, postOnly: true };
      let body: Awaited<ReturnType<ExchangeClient['orders']['build']>>;
      try {
        body = await trader.orders.build(spec, market);
      } catch (error) {
        assert.ok(error instanceof OrderBuildError, String(error));
        refusedLocally += 1;
        const naive = naiveAmounts(side, price, size);
        if (!naive) return;
        const error2 = await trader.orders.place({ ...(await trader.orders.build({ ...spec, price: '0.5', size: '10' }, { ...market, tickSize: '0.1' })), ...naive }).then(() => undefined, (e: unknown) => e);
        assert.ok(error2 instanceof ExchangeError && error2.status === 400 && error2.code !== 'POST_ONLY_WOULD_CROSS', `the server accepted ${price} × ${size} on tick ${tick}`);
        return;
      }
      const placed = await trader.orders.place(body).catch((error: unknown) => error);
      if (placed instanceof ExchangeError) assert.equal(placed.code, 'POST_ONLY_WOULD_CROSS', `${placed.code}: ${placed.message}`);
      else await trader.orders.cancel((placed as { id: string }).id);
    }), { numRuns: 100 });
    assert.ok(refusedLocally > 0);
  });
  it('refuses a spec with any field wrong before sending it: a side of "buy" is not a SELL', async () => {
    const market = markets['0.01']!;
    const good = { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '10' };
    const wrong: Array<[string, Record<string, unknown>]> = [
      ['side', { ...good, side: 'buy' }], ['side', { ...good, side: 0 }], ['side', { ...good, side: undefined }],
      ['tokenId', { ...good, tokenId: 12 }], ['price', { ...good, price: 0.4 }], ['size', { ...good, size: 10 }],
      ['type', { ...good, type: 'IOC' }], ['postOnly', { ...good, postOnly: 'yes' }], ['expiration', { ...good, expiration: '0' }],
      ['expiration', { ...good, expiration: -1 }], ['idempotencyKey', { ...good, idempotencyKey: 'k1' }], ['orderType', { ...good, orderType: 'FOK' }],
    ];
    const before = await trader.orders.list({ market: market.id });
    for (const [field, spec] of wrong) {
      const error = await trader.orders.place(spec as never).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof OrderBuildError, `${field}: ${String(error)}`);
      assert.equal(error.code, 'VALIDATION_FAILED');
      assert.match(error.message, new RegExp(field));
    }
    assert.deepEqual(await trader.orders.list({ market: market.id }), before);
    const placed = await trader.orders.place({ ...good, side: 'BUY' });
    assert.equal(placed.side, 0);
    await trader.orders.cancel(placed.id);
  });
});

/** Amounts from a float-free but rule-blind conversion, when they are whole base units; unsigned. */
function naiveAmounts(side: 'BUY' | 'SELL', price: string, size: string): { makerAmount: string; takerAmount: string; signature: string; priceUint?: undefined } | undefined {
  const scaled = (text: string) => {
    const [whole, fraction = ''] = text.split('.');
    return fraction.length > 6 ? undefined : BigInt(whole! + fraction.padEnd(6, '0'));
  };
  const p = scaled(price);
  const s = scaled(size);
  if (p === undefined || s === undefined || s === 0n || (p * s) % 1_000_000n !== 0n || p * s === 0n) return undefined;
  const cost = (p * s) / 1_000_000n;
  const [maker, taker] = side === 'BUY' ? [cost, s] : [s, cost];
  return { makerAmount: maker.toString(), takerAmount: taker.toString(), signature: '', priceUint: undefined };
}
