import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auditOrders } from '../../src/engine/order-audit.ts';
import { createPublishedEvent, insertTestTrade } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('GET /markets', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const markets = (query: string, headers?: Record<string, string>) => get(server.api(`/markets${query}`), headers);

  it('is an empty array without ids', async () => {
    const response = await markets('');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, []);
    assert.deepEqual((await markets('?ids=')).body, []);
  });

  it('reads markets by comma-separated or repeated ids, in request order, duplicates once', async () => {
    const { markets: [a, b, c] } = await createPublishedEvent(server, { markets: 3 });
    const ids = (response: { body: Array<{ id: string }> }) => response.body.map((m) => m.id);
    assert.deepEqual(ids(await markets(`?ids=${c!.id},${a!.id}`)), [c!.id, a!.id]);
    assert.deepEqual(ids(await markets(`?ids=${b!.id}&ids=${a!.id}&ids=${b!.id}`)), [b!.id, a!.id]);
    assert.deepEqual(ids(await markets(`?ids=${a!.id},00000000-0000-4000-8000-000000000000`)), [a!.id]);
    const [market] = (await markets(`?ids=${a!.id}`)).body;
    assert.deepEqual(market, a);
  });

  it('leaves DRAFT markets out for the public and includes them for the admin token', async () => {
    const { event } = await createPublishedEvent(server);
    const draft = (await post(server.api(`/admin/events/${event.id}/markets`), { name: 'Later market' }, server.adminHeaders)).body;
    assert.deepEqual((await markets(`?ids=${draft.id}`)).body, []);
    assert.deepEqual((await markets(`?ids=${draft.id}`, server.adminHeaders)).body.map((m: { id: string }) => m.id), [draft.id]);
  });

  it('rejects malformed ids and more than 200 of them with 400', async () => {
    expectError(await markets('?ids=not-a-uuid'), 400, 'VALIDATION_FAILED');
    const many = Array.from({ length: 201 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join(',');
    expectError(await markets(`?ids=${many}`), 400, 'VALIDATION_FAILED');
  });
});

describe('GET /markets/{id_or_slug} and its volume', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  it('reads a market by id or slug with every Market field', async () => {
    const { markets: [market] } = await createPublishedEvent(server, { tickSize: '0.001', orderFeeRateBps: 30, passiveOrderFeeRateBps: 10, speedBumpDelayMs: 250 });
    const byId = await get(server.api(`/markets/${market!.id}`));
    assert.equal(byId.status, 200);
    assert.deepEqual((await get(server.api(`/markets/${market!.slug}`))).body, byId.body);
    const m = byId.body;
    assert.equal(m.tickSize, '0.001');
    assert.equal(m.orderFeeRateBps, 30);
    assert.equal(m.passiveOrderFeeRateBps, 10);
    assert.equal(m.speedBumpDelayMs, 250);
    assert.equal(m.status, 'ACTIVE');
    assert.equal(m.outcome1, 'Yes');
    assert.equal(m.outcome2, 'No');
    assert.equal(m.chance, 0.5);
    assert.match(m.tokenId1, /^\d+$/);
    assert.match(m.conditionId, /^0x[0-9a-f]{64}$/);
    assert.equal(m.marketResolvedTo, '');
    assert.equal(m.resolvedOnAdapterTimestamp, 0);
    assert.equal(m.questionFlaggedTimestamp, 0);
    assert.equal(m.displayTimezone, null);
    for (const key of ['id', 'name', 'slug', 'createdAt', 'updatedAt', 'chance', 'status', 'icon', 'tokenId1', 'tokenId2', 'outcome1', 'outcome2', 'ancillaryData',
      'isInitialized', 'isRegistered', 'isPaused', 'hidden', 'isResolved', 'isSettled', 'isDisputed', 'hasProposedPrice', 'negRisk', 'conditionId', 'questionId',
      'orderFeeRateBps', 'passiveOrderFeeRateBps', 'tickSize', 'speedBumpDelayMs', 'resolvedOnAdapterTimestamp', 'questionFlaggedTimestamp', 'marketResolvedTo',
      'marketId', 'transactionHash', 'eventId', 'displayTimezone']) assert.ok(key in m, `market lacks ${key}`);
  });

  it('is 404 for unknown and DRAFT markets; the admin token reads drafts', async () => {
    expectError(await get(server.api('/markets/00000000-0000-4000-8000-000000000000')), 404, 'NOT_FOUND');
    expectError(await get(server.api('/markets/no-such-market')), 404, 'NOT_FOUND');
    const { event } = await createPublishedEvent(server);
    const draft = (await post(server.api(`/admin/events/${event.id}/markets`), { name: 'Drafted' }, server.adminHeaders)).body;
    expectError(await get(server.api(`/markets/${draft.id}`)), 404, 'NOT_FOUND');
    expectError(await get(server.api(`/markets/${draft.slug}`)), 404, 'NOT_FOUND');
    expectError(await get(server.api(`/markets/${draft.id}/volume`)), 404, 'NOT_FOUND');
    assert.equal((await get(server.api(`/markets/${draft.slug}`), server.adminHeaders)).body.status, 'DRAFT');
    // Every market route reads drafts for the admin token, its resolution too (unproposed).
    expectError(await get(server.api(`/markets/${draft.id}/resolution`)), 404, 'NOT_FOUND');
    const resolution = await get(server.api(`/markets/${draft.id}/resolution`), server.adminHeaders);
    assert.equal(resolution.status, 200, JSON.stringify(resolution.body));
    assert.equal(resolution.body.status, 'UNPROPOSED');
  });

  it('reads a market by a slug of 120 characters, and answers overlong or malformed paths with the error body', async () => {
    const { event } = await createPublishedEvent(server);
    const slug = 's'.repeat(120);
    const created = await post(server.api(`/admin/events/${event.id}/markets`), { name: 'Long slug', slug }, server.adminHeaders);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal((await get(server.api(`/markets/${slug}`), server.adminHeaders)).body.id, created.body.id);
    expectError(await get(server.api(`/markets/${'s'.repeat(501)}`)), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api('/markets/%E0%A4%A')), 400, 'VALIDATION_FAILED');
  });

  it('dates firstPriceDataAt at its first trade, failed ones left out, on every read of the market', async () => {
    const { event, markets: [market] } = await createPublishedEvent(server);
    const firstPriceDataAt = async () => {
      const reads = [(await get(server.api(`/markets/${market!.id}`))).body, (await get(server.api(`/markets?ids=${market!.id}`))).body[0], (await get(server.api(`/events/${event.id}`))).body.markets[0]];
      assert.equal(new Set(reads.map((m) => m.firstPriceDataAt)).size, 1, JSON.stringify(reads.map((m) => m.firstPriceDataAt)));
      return reads[0].firstPriceDataAt;
    };
    assert.equal(await firstPriceDataAt(), null);
    const now = server.ctx.clock.nowMs();
    await insertTestTrade(server, market!, { priceMicros: 300_000n, sizeBaseUnits: 1_000_000n, matchedAt: new Date(now - 7_200_000), status: 'FAILED' });
    assert.equal(await firstPriceDataAt(), null);
    await insertTestTrade(server, market!, { priceMicros: 400_000n, sizeBaseUnits: 1_000_000n, matchedAt: new Date(now - 3_600_000) });
    await insertTestTrade(server, market!, { priceMicros: 600_000n, sizeBaseUnits: 1_000_000n, matchedAt: new Date(now) });
    assert.equal(await firstPriceDataAt(), new Date(now - 3_600_000).toISOString());
    assert.equal((await get(server.api(`/markets/${market!.id}`))).body.chance, 0.6, 'the chance is still the last trade\'s');
  });

  it('sums taker notional for all-time and last-24h volume, leaving failed trades out', async () => {
    const { event, markets: [market] } = await createPublishedEvent(server);
    const now = server.ctx.clock.nowMs();
    await insertTestTrade(server, market!, { priceMicros: 450_000n, sizeBaseUnits: 20_000_000n });
    await insertTestTrade(server, market!, { priceMicros: 100_000n, sizeBaseUnits: 5_000_000n, matchedAt: new Date(now - 86_400_000 - 1) });
    await insertTestTrade(server, market!, { priceMicros: 100_000n, sizeBaseUnits: 5_000_000n, matchedAt: new Date(now - 86_400_000) });
    await insertTestTrade(server, market!, { priceMicros: 900_000n, sizeBaseUnits: 99_000_000n, status: 'FAILED' });
    const volume = await get(server.api(`/markets/${market!.id}/volume`));
    assert.equal(volume.status, 200);
    assert.deepEqual(volume.body, { marketId: market!.id, eventId: event.id, tradeVolumeUsd: '10', tradeVolumeUsd24h: '9.5' });
    // A trade that fails later leaves the volume; the audit holds the kept volumes to the trades.
    const db = server.ctx.store.db;
    await db.updateTable('trades').set({ status: 'FAILED' }).where('market_id', '=', market!.id).where('price_micros', '=', 450_000n).execute();
    assert.deepEqual((await get(server.api(`/markets/${market!.id}/volume`))).body, { marketId: market!.id, eventId: event.id, tradeVolumeUsd: '1', tradeVolumeUsd24h: '0.5' });
    const detail = (await get(server.api(`/events/${event.id}?includeVolume=true`))).body;
    assert.deepEqual([detail.totalVolumeUSD, detail.markets[0].tradeVolumeUsd, detail.markets[0].tradeVolumeUsd24h], ['1', '1', '0.5']);
    const volumeBreaches = async () => (await auditOrders(db)).violations.filter((v) => v.invariant === 'volumes-match-trades');
    assert.deepEqual(await volumeBreaches(), []);
    await db.updateTable('market_volume_totals').set({ volume_base_units: '5' }).where('market_id', '=', market!.id).execute();
    assert.deepEqual((await volumeBreaches()).map((v) => v.detail), [`${market!.id}: all-time volume kept 5, its trades 1000000`]);
    await db.updateTable('market_volume_totals').set({ volume_base_units: '1000000' }).where('market_id', '=', market!.id).execute();
    expectError(await get(server.api('/markets/not-a-uuid/volume')), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api('/markets/00000000-0000-4000-8000-000000000000/volume')), 404, 'NOT_FOUND');
  });
});
