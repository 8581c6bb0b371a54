import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deriveChainMarketIds, deriveMarketIds } from '../../src/settlement/market-ids.ts';
import { createDraftEvent, eventInput } from '../helpers/catalogue.ts';
import { expectError, get, patch, post, request } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('admin catalogue', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const admin = (path: string, body?: unknown) => post(server.api(path), body, server.adminHeaders);

  it('refuses missing and wrong admin tokens with 401 on every admin catalogue route', async () => {
    const event = await createDraftEvent(server);
    const market = event.markets[0]!;
    const calls: Array<[string, string, unknown]> = [
      ['GET', '/admin/categories', undefined],
      ['POST', '/admin/categories', { name: 'x' }],
      ['GET', '/admin/tags', undefined],
      ['POST', '/admin/tags', { slug: 'x', label: 'x', type: 'x' }],
      ['POST', '/admin/events', eventInput()],
      ['POST', `/admin/events/${event.id}/markets`, { name: 'x' }],
      ['POST', `/admin/events/${event.id}/publish`, undefined],
      ['PATCH', `/admin/markets/${market.id}`, { isPaused: true }],
    ];
    for (const [method, path, body] of calls) {
      const send = (url: string, body: unknown, headers?: Record<string, string>) => request(method, url, { body, headers });
      expectError(await send(server.api(path), body), 401, 'UNAUTHORIZED');
      expectError(await send(server.api(path), body, { authorization: 'Bearer wrong-token-0123456789abcdef' }), 401, 'UNAUTHORIZED');
      // A user-looking token is no admin token either.
      expectError(await send(server.api(path), body, { authorization: 'Basic abc' }), 401, 'UNAUTHORIZED');
    }
    assert.equal((await get(server.api(`/events/${event.id}`), server.adminHeaders)).body.eventStatus, 'DRAFT', 'nothing was published');
  });

  it('answers 401 on admin routes when the server has no admin token', async () => {
    const bare = await startTestServer({ ADMIN_TOKEN: '' });
    try {
      expectError(await post(bare.api('/admin/categories'), { name: 'x' }, { authorization: 'Bearer ' }), 401, 'UNAUTHORIZED');
      const refused = await post(bare.api('/admin/categories'), { name: 'x' }, server.adminHeaders);
      expectError(refused, 401, 'UNAUTHORIZED');
      assert.equal(refused.body.message, 'the admin routes are off: the server was started without ADMIN_TOKEN', 'not what a wrong token hears');
    } finally {
      await bare.close();
    }
  });

  it('creates categories with defaults and the operator as creator', async () => {
    const created = await admin('/admin/categories', { name: 'Sports' });
    assert.equal(created.status, 200);
    const c = created.body;
    assert.equal(c.name, 'Sports');
    assert.equal(c.active, true);
    assert.equal(c.position, 0);
    assert.equal(c.createdBy, server.ctx.operatorUserId);
    assert.equal(c.updatedBy, null);
    assert.equal(c.createdAt, c.updatedAt);
    const other = (await admin('/admin/categories', { name: 'Hidden', position: 3, active: false })).body;
    assert.deepEqual([other.position, other.active], [3, false]);
    for (const body of [{}, { name: '' }, { name: 'x', position: -1 }, { name: 'x', active: 'maybe' }]) expectError(await admin('/admin/categories', body), 400, 'VALIDATION_FAILED');
    // PostgreSQL text cannot hold U+0000: a 400 before it reaches the database (was a 500).
    expectError(await admin('/admin/categories', { name: 'nul\u0000byte' }), 400, 'VALIDATION_FAILED');
  });

  it('creates tags with unique slugs (409) and well-formed slugs (400)', async () => {
    const tag = await admin('/admin/tags', { slug: 'elections-2028', label: 'Elections 2028', type: 'topic' });
    assert.equal(tag.status, 200);
    assert.deepEqual(Object.keys(tag.body).sort(), ['id', 'label', 'slug', 'type']);
    expectError(await admin('/admin/tags', { slug: 'elections-2028', label: 'Again', type: 'topic' }), 409, 'CONFLICT');
    for (const slug of ['Elections', 'a b', '-x', '']) expectError(await admin('/admin/tags', { slug, label: 'x', type: 'x' }), 400, 'VALIDATION_FAILED');
    expectError(await admin('/admin/tags', { slug: 'no-label', type: 'x' }), 400, 'VALIDATION_FAILED');
  });

  it('lists every category by position then name, inactive ones too, and every tag by slug', async () => {
    const run = crypto.randomUUID().slice(0, 8);
    const made = [];
    for (const [name, position, active] of [[`${run} b`, 7, true], [`${run} a`, 7, false], [`${run} z`, 6, true]] as const) made.push((await admin('/admin/categories', { name, position, active })).body);
    const categories = (await get(server.api('/admin/categories'), server.adminHeaders)).body;
    assert.deepEqual(categories.filter((c: { name: string }) => c.name.startsWith(run)), [made[2], made[1], made[0]]);
    const positions = categories.map((c: { position: number }) => c.position);
    assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
    for (const slug of [`${run}-y`, `${run}-x`]) await admin('/admin/tags', { slug, label: slug, type: 'topic' });
    const tags = (await get(server.api('/admin/tags'), server.adminHeaders)).body;
    assert.deepEqual(tags.filter((t: { slug: string }) => t.slug.startsWith(run)).map((t: { slug: string }) => t.slug), [`${run}-x`, `${run}-y`]);
    assert.deepEqual(Object.keys(tags[0]).sort(), ['id', 'label', 'slug', 'type']);
  });

  it('creates a DRAFT event with DRAFT markets, defaults, and null settlement ids', async () => {
    const created = await admin('/admin/events', {
      name: 'Who wins the cup?', description: 'Final on Sunday', icon: 'https://example.com/cup.png', negRisk: true,
      endDate: '2099-06-01T00:00:00.000Z', reward: '5', proposalBond: '100.5', orderFeeRateBps: 20, passiveOrderFeeRateBps: 5,
      metadata: { color: 'blue' }, feeBips: 15,
      markets: [{ name: 'Team A' }, { name: 'Team B', outcome1: 'Up', outcome2: 'Down', tickSize: '0.001', orderFeeRateBps: 40, displayTimezone: 'Europe/Paris', description: 'B' }],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const e = created.body;
    assert.equal(e.eventStatus, 'DRAFT');
    assert.equal(e.slug, 'who-wins-the-cup');
    assert.equal(e.single, false);
    assert.equal(e.negRisk, true);
    assert.equal(e.isInitialized, false);
    assert.equal(e.createdBy, server.ctx.operatorUserId);
    assert.equal(e.reward, '5');
    assert.equal(e.proposalBond, '100.5');
    assert.equal(e.liveness, 7200);
    assert.equal(e.feeBips, 15);
    assert.deepEqual(e.metadata, { color: 'blue' });
    assert.equal(e.marketId, '');
    assert.equal(e.endDate, '2099-06-01T00:00:00.000Z');
    const [a, b] = e.markets;
    assert.equal(a.status, 'DRAFT');
    assert.equal(a.slug, 'team-a');
    assert.equal(a.negRisk, true);
    assert.deepEqual([a.tokenId1, a.tokenId2, a.conditionId, a.questionId], [null, null, null, null]);
    assert.deepEqual([a.outcome1, a.outcome2, a.tickSize, a.orderFeeRateBps, a.passiveOrderFeeRateBps, a.speedBumpDelayMs], ['Yes', 'No', '0.01', 20, 5, 0]);
    assert.deepEqual([b.outcome1, b.outcome2, b.tickSize, b.orderFeeRateBps, b.passiveOrderFeeRateBps], ['Up', 'Down', '0.001', 40, 5]);
    assert.equal(b.displayTimezone, 'Europe/Paris');
    assert.equal(a.icon, 'https://example.com/cup.png', 'markets inherit the event icon');
    assert.equal(a.endDate, '2099-06-01T00:00:00.000Z', 'markets inherit the event end date');
    assert.equal(a.isInitialized, false);
  });

  it('generates unique slugs and refuses a given slug that is taken', async () => {
    const first = (await admin('/admin/events', eventInput({ name: 'Same name' }))).body;
    const second = (await admin('/admin/events', eventInput({ name: 'Same name' }))).body;
    assert.equal(first.slug, 'same-name');
    assert.equal(second.slug, 'same-name-2');
    assert.equal(second.markets[0].slug, 'same-name-2', 'market slugs are their own namespace');
    expectError(await admin('/admin/events', { ...eventInput(), slug: 'same-name' }), 409, 'CONFLICT');
    expectError(await admin('/admin/events', { ...eventInput(), slug: 'Not A Slug' }), 400, 'VALIDATION_FAILED');
    const twins = await admin('/admin/events', { name: 'Twins', description: '', markets: [{ name: 'x', slug: 'twin' }, { name: 'y', slug: 'twin' }] });
    expectError(twins, 409, 'CONFLICT');
    const dup = await admin('/admin/events', { name: 'Dup names', description: '', markets: [{ name: 'Same' }, { name: 'Same' }] });
    assert.deepEqual(dup.body.markets.map((m: { slug: string }) => m.slug), ['same', 'same-2']);
  });

  it('generates a slug for each of several creates at once, none refused', async () => {
    const created = await Promise.all(Array.from({ length: 8 }, () => admin('/admin/events', { name: 'Raced name', description: '', markets: [{ name: 'Raced market' }] })));
    for (const response of created) assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(new Set(created.map((r) => r.body.slug)).size, 8);
    assert.equal(new Set(created.map((r) => r.body.markets[0].slug)).size, 8);
  });

  /** An object `depth` levels deep, the innermost holding a number. */
  const nested = (depth: number): Record<string, unknown> => {
    let value: Record<string, unknown> = { leaf: 1 };
    for (let level = 2; level < depth; level++) value = { a: value };
    return value;
  };

  it('refuses unknown category and tag ids and malformed input with 400', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await admin('/admin/events', { ...eventInput(), categories: [unknown] }), 400, 'VALIDATION_FAILED');
    expectError(await admin('/admin/events', { ...eventInput(), tags: [unknown] }), 400, 'VALIDATION_FAILED');
    const bad: Array<Record<string, unknown>> = [
      { ...eventInput(), markets: [] },
      { ...eventInput(), markets: undefined },
      { ...eventInput(), name: '' },
      { ...eventInput(), description: undefined },
      { ...eventInput(), reward: '1.0000001' },
      { ...eventInput(), reward: '-1' },
      { ...eventInput(), proposalBond: 'ten' },
      // Beyond a bigint column: refused, not a database error.
      { ...eventInput(), reward: '100000000000000' },
      { ...eventInput(), proposalBond: '9223372036854.775808' },
      { ...eventInput(), orderFeeRateBps: 10_001 },
      { ...eventInput(), endDate: 'soon' },
      { ...eventInput(), startDate: '2099-01-02T00:00:00Z', endDate: '2099-01-01T00:00:00Z' },
      { ...eventInput(), categories: ['nope'] },
      { name: 'x', description: '', markets: [{ name: 'm', tickSize: '0.05' }] },
      { name: 'x', description: '', markets: [{ name: 'm', speedBumpDelayMs: -1 }] },
      { name: 'x', description: '', markets: [{ name: 'm', displayTimezone: 'Mars/Base' }] },
      { name: 'x', description: '', markets: [{ name: '' }] },
      // Metadata nested deeper than 32 levels (thousands of them once wedged the embedded database).
      { ...eventInput(), metadata: nested(33) },
    ];
    for (const body of bad) expectError(await admin('/admin/events', body), 400, 'VALIDATION_FAILED');
    // Deeper than JSON.stringify can write (this process's too): the body as text.
    const depth = 5_000;
    const deep = JSON.stringify({ ...eventInput(), metadata: 'DEEP' }).replace('"DEEP"', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    const deepAnswer = await fetch(server.api('/admin/events'), { method: 'POST', headers: { ...server.adminHeaders, 'content-type': 'application/json' }, body: deep });
    assert.deepEqual([deepAnswer.status, ((await deepAnswer.json()) as { code: string }).code], [400, 'VALIDATION_FAILED']);
    const deepest = await admin('/admin/events', { ...eventInput(), metadata: nested(32) });
    assert.equal(deepest.status, 200, JSON.stringify(deepest.body));
    assert.deepEqual(deepest.body.metadata, nested(32));
    expectError(await post(server.api('/admin/events'), undefined, { ...server.adminHeaders, 'content-type': 'application/json' }), 400, 'VALIDATION_FAILED');
    const raw = await fetch(server.api('/admin/events'), { method: 'POST', headers: server.adminHeaders, body: '{not json' });
    assert.equal(raw.status, 400);
  });

  it('adds DRAFT markets to an event and keeps single in step', async () => {
    const event = await createDraftEvent(server);
    assert.equal(event.single, true);
    const added = await admin(`/admin/events/${event.id}/markets`, { name: 'Second market', questionIndex: 1 });
    assert.equal(added.status, 200);
    assert.equal(added.body.status, 'DRAFT');
    assert.equal(added.body.eventId, event.id);
    assert.equal(added.body.questionIndex, 1);
    const read = (await get(server.api(`/events/${event.id}`), server.adminHeaders)).body;
    assert.equal(read.single, false);
    assert.deepEqual(read.markets.map((m: { id: string }) => m.id), [event.markets[0]!.id, added.body.id]);
    expectError(await admin('/admin/events/00000000-0000-4000-8000-000000000000/markets', { name: 'x' }), 404, 'NOT_FOUND');
    expectError(await admin('/admin/events/not-a-uuid/markets', { name: 'x' }), 400, 'VALIDATION_FAILED');
    expectError(await admin(`/admin/events/${event.id}/markets`, { name: 'x', slug: event.markets[0]!.slug }), 409, 'CONFLICT');
  });

  it('publishes: event and markets ACTIVE with derived settlement ids; again publishes only new drafts', async () => {
    const event = await createDraftEvent(server, { markets: 2 });
    const published = await admin(`/admin/events/${event.id}/publish`);
    assert.equal(published.status, 200);
    const e = published.body;
    assert.equal(e.eventStatus, 'ACTIVE');
    assert.equal(e.isInitialized, true);
    assert.match(e.marketId, /^0x[0-9a-f]{64}$/);
    // On a chain the operator prepared the conditions as their oracle, and the position ids are
    // ConditionalTokens' own (src/catalogue/markets-on-chain.ts).
    const oracle = server.ctx.chain.operator?.address ?? server.ctx.config.oracleAddress;
    const derive = server.ctx.chain.deployed ? deriveChainMarketIds : deriveMarketIds;
    for (const m of e.markets) {
      const ids = derive({ marketUuid: m.id, oracle, collateral: server.ctx.config.collateralAddress });
      assert.deepEqual([m.status, m.isInitialized, m.isRegistered], ['ACTIVE', true, true]);
      assert.deepEqual([m.conditionId, m.questionId, m.tokenId1, m.tokenId2], [ids.conditionId, ids.questionId, ids.tokenId1, ids.tokenId2]);
      assert.match(m.transactionHash, /^0x[0-9a-f]{64}$/);
    }
    const again = await admin(`/admin/events/${event.id}/publish`);
    assert.deepEqual(again.body.markets, e.markets, 'publishing twice changes nothing');
    const later = (await admin(`/admin/events/${event.id}/markets`, { name: 'Third' })).body;
    const third = (await admin(`/admin/events/${event.id}/publish`)).body.markets.find((m: { id: string }) => m.id === later.id);
    assert.equal(third.status, 'ACTIVE');
    assert.notEqual(third.tokenId1, null);
    expectError(await admin('/admin/events/00000000-0000-4000-8000-000000000000/publish'), 404, 'NOT_FOUND');
    expectError(await admin('/admin/events/xyz/publish'), 400, 'VALIDATION_FAILED');
  });

  it('patches a market and leaves unsent fields unchanged', async () => {
    const event = await createDraftEvent(server);
    await admin(`/admin/events/${event.id}/publish`);
    const id = event.markets[0]!.id;
    const edit = (body: unknown) => patch(server.api(`/admin/markets/${id}`), body, server.adminHeaders);
    const paused = await edit({ isPaused: true, speedBumpDelayMs: 500 });
    assert.equal(paused.status, 200);
    assert.deepEqual([paused.body.isPaused, paused.body.speedBumpDelayMs, paused.body.hidden, paused.body.tickSize], [true, 500, false, '0.01']);
    const repriced = (await edit({ tickSize: '0.001', orderFeeRateBps: 25, passiveOrderFeeRateBps: 0, hidden: true })).body;
    assert.deepEqual([repriced.isPaused, repriced.tickSize, repriced.orderFeeRateBps, repriced.passiveOrderFeeRateBps, repriced.hidden], [true, '0.001', 25, 0, true]);
    assert.deepEqual((await edit({})).body.tickSize, '0.001');
    assert.equal((await get(server.api(`/markets/${id}`))).body.isPaused, true);
    for (const body of [{ tickSize: '0.5' }, { speedBumpDelayMs: -5 }, { orderFeeRateBps: 20_000 }, { isPaused: 'yes' }]) {
      expectError(await edit(body), 400, 'VALIDATION_FAILED');
    }
    expectError(await patch(server.api('/admin/markets/00000000-0000-4000-8000-000000000000'), { hidden: true }, server.adminHeaders), 404, 'NOT_FOUND');
    expectError(await patch(server.api('/admin/markets/00000000-0000-4000-8000-000000000000'), {}, server.adminHeaders), 404, 'NOT_FOUND');
  });
});
