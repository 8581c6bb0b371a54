import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDraftEvent, createPublishedEvent, insertTestTrade, patchMarket } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('GET /events/{id_or_slug} and its volume', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const read = (key: string, query = '', headers?: Record<string, string>) => get(server.api(`/events/${key}${query ? `?${query}` : ''}`), headers);

  it('reads an event by id and by slug', async () => {
    const { event } = await createPublishedEvent(server, { markets: 2 });
    const byId = await read(event.id);
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body, event);
    assert.deepEqual((await read(event.slug)).body, event);
    assert.deepEqual((await read(event.id.toUpperCase())).body.id, event.id);
  });

  it('is 404 for unknown events and, publicly, for DRAFT ones; the admin token reads drafts', async () => {
    expectError(await read('00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    expectError(await read('no-such-event'), 404, 'NOT_FOUND');
    const draft = await createDraftEvent(server);
    expectError(await read(draft.id), 404, 'NOT_FOUND');
    expectError(await read(draft.slug), 404, 'NOT_FOUND');
    expectError(await get(server.api(`/events/${draft.id}/volume`)), 404, 'NOT_FOUND');
    const asAdmin = await read(draft.slug, '', server.adminHeaders);
    assert.equal(asAdmin.status, 200);
    assert.equal(asAdmin.body.eventStatus, 'DRAFT');
    assert.equal(asAdmin.body.markets[0].status, 'DRAFT');
    // A wrong bearer token on a public route is simply a public read.
    expectError(await read(draft.id, '', { authorization: 'Bearer not-the-admin-token' }), 404, 'NOT_FOUND');
  });

  it('adds market volumes with includeVolume, resolution with includeResolution, reward with includeRewards', async () => {
    const { event, markets } = await createPublishedEvent(server);
    await insertTestTrade(server, markets[0]!, { priceMicros: 250_000n, sizeBaseUnits: 8_000_000n });
    const plain = (await read(event.id)).body;
    assert.equal(plain.markets[0].tradeVolumeUsd, undefined);
    assert.equal(plain.markets[0].resolution, undefined);
    assert.equal('reward' in plain.markets[0], false);
    assert.equal(plain.totalVolumeUSD, '2');
    const full = (await read(event.id, 'includeVolume=true&includeResolution=true&includeRewards=true')).body;
    assert.equal(full.markets[0].tradeVolumeUsd, '2');
    assert.equal(full.markets[0].tradeVolumeUsd24h, '2');
    assert.equal(full.markets[0].reward, null);
    assert.deepEqual(full.markets[0].resolution, {
      marketId: markets[0]!.id, status: 'UNPROPOSED', proposedOutcome: null, proposedAt: null, disputeEndsAt: null,
      disputed: false, finalOutcome: null, settledAt: null, resolvedAt: null,
    });
    assert.equal(full.markets[0].chance, 0.25);
  });

  it('shows a resolved market resolution from its oracle question', async () => {
    const { event, markets } = await createPublishedEvent(server, { liveness: 60 });
    const proposed = await post(server.api(`/admin/markets/${markets[0]!.id}/oracle/propose`), { outcome: 'YES' }, server.adminHeaders);
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    const clock = (await post(server.api('/admin/clock'), { advanceMs: 60_000 }, server.adminHeaders)).body.now;
    const market = (await read(event.id, 'includeResolution=true')).body.markets[0];
    assert.equal(market.marketResolvedTo, 'YES');
    assert.equal(market.resolvedOnAdapterTimestamp, Math.floor(Date.parse(clock) / 1000));
    assert.deepEqual(market.resolution, {
      marketId: markets[0]!.id, status: 'RESOLVED', proposedOutcome: 'YES', proposedAt: proposed.body.proposedAt,
      disputeEndsAt: clock, disputed: false, finalOutcome: 'YES', settledAt: clock, resolvedAt: clock,
    });
  });

  it('bounds the markets of a series-layout event with marketScope and marketLimit', async () => {
    const { event, markets } = await createPublishedEvent(server, { markets: 5, seriesLayout: true });
    const ids = (query: string, headers?: Record<string, string>) => read(event.id, query, headers).then((r) => {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.markets.map((m: { id: string }) => m.id);
    });
    const all = markets.map((m) => m.id);
    // Public AUTO on a series layout: a recent window of marketLimit (default 50), in event order.
    assert.deepEqual(await ids('marketLimit=2'), all.slice(3));
    assert.deepEqual(await ids('marketScope=AUTO&marketLimit=2'), all.slice(3));
    assert.deepEqual(await ids('marketScope=RECENT&marketLimit=3'), all.slice(2));
    assert.deepEqual(await ids('marketScope=ALL&marketLimit=2'), all);
    assert.deepEqual(await ids(''), all);
    // The admin default is ALL.
    assert.deepEqual(await ids('marketLimit=2', server.adminHeaders), all);
    assert.deepEqual(await ids('marketScope=RECENT&marketLimit=1', server.adminHeaders), all.slice(4));
  });

  it('shows every public market of a non-series event under AUTO, RECENT bounded', async () => {
    const { event, markets } = await createPublishedEvent(server, { markets: 3 });
    assert.equal((await read(event.id, 'marketLimit=1')).body.markets.length, 3);
    assert.deepEqual((await read(event.id, 'marketScope=RECENT&marketLimit=1')).body.markets.map((m: { id: string }) => m.id), [markets[2]!.id]);
  });

  it('rejects marketLimit outside 1 to 200 and bad scopes with 400', async () => {
    const { event } = await createPublishedEvent(server);
    for (const query of ['marketLimit=0', 'marketLimit=201', 'marketLimit=x', 'marketScope=SOME', 'includeVolume=perhaps']) {
      expectError(await read(event.id, query), 400, 'VALIDATION_FAILED');
    }
    assert.equal((await read(event.id, 'marketLimit=200')).status, 200);
    assert.equal((await read(event.id, 'marketLimit=1')).status, 200);
  });

  it('answers the event volume as a number, by id or slug', async () => {
    const { event, markets } = await createPublishedEvent(server, { markets: 2 });
    assert.equal((await get(server.api(`/events/${event.id}/volume`))).body, 0);
    await insertTestTrade(server, markets[0]!, { priceMicros: 500_000n, sizeBaseUnits: 3_000_000n });
    await insertTestTrade(server, markets[1]!, { priceMicros: 120_000n, sizeBaseUnits: 10_000_000n, onToken2: true });
    const volume = await get(server.api(`/events/${event.slug}/volume`));
    assert.equal(volume.status, 200);
    assert.equal(volume.body, 2.7);
    expectError(await get(server.api('/events/nothing-here/volume')), 404, 'NOT_FOUND');
    const chance = (await read(event.id)).body.markets[1].chance;
    assert.equal(chance, 0.88, 'a trade on token 2 at 0.12 puts outcome 1 at 0.88');
  });

  it('returns hidden markets with hidden: true (front ends hide them)', async () => {
    const { event, markets } = await createPublishedEvent(server, { markets: 2 });
    await patchMarket(server, markets[0]!.id, { hidden: true });
    const body = (await read(event.id)).body;
    assert.equal(body.markets.length, 2);
    assert.equal(body.markets[0].hidden, true);
  });
});
