import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedEvent } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectTrade, newTrader, type Trader } from '../helpers/trader.ts';

/**
 * GET /trades, GET /trades/activity and the holders route over trades made through the engine:
 * four confirmed trades, two of them in the same millisecond, one below the activity floor.
 */
describe('market data: trades, trade activity, holders', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let carol: Trader;
  let multi: PublishedEvent;
  let single: PublishedEvent;
  const feed: { eventId: string | null; notionalUsd: number; activity: any }[] = [];
  const trades = (query = '') => get(server.api(`/trades${query}`));
  const activity = (query = '') => get(server.api(`/trades/activity${query}`));
  const advance = (advanceMs: number) => post(server.api('/admin/clock'), { advanceMs }, server.adminHeaders);
  const settle = () => server.ctx.trading.engine.settle();
  /** A trade's status in the tables alone, as a chain that confirmed a later match first leaves an earlier one. */
  const status = (id: string, to: 'MINED' | 'CONFIRMED') => server.ctx.store.db.updateTable('trades').set({ status: to }).where('id', '=', id).execute();

  before(async () => {
    server = await startTestServer({ TRADE_ACTIVITY_MIN_USD: '1' });
    server.ctx.events.subscribe('trade-activity', (payload) => feed.push(payload as never));
    [alice, bob, carol] = await Promise.all([newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' })]);
    assert.equal((await alice.call('PATCH', '/account', { displayName: `alice_${Date.now() % 1e6}`, avatarUrl: 'https://example.com/a.png' })).status, 200);
    assert.equal((await carol.call('PATCH', '/account', { displayName: `carol_${Date.now() % 1e6}`, avatarUrl: 'https://example.com/c.png', anonymous: true })).status, 200);
    multi = await createPublishedEvent(server, { markets: 2 });
    single = await createPublishedEvent(server, { markets: 1 });
    const [m1, m2] = multi.markets as [PublishedEvent['markets'][0], PublishedEvent['markets'][0]];
    const m3 = single.markets[0]!;
    // 1. A MINT: Bob takes token 2 at 0.4 (notional 4).
    await expectTrade(server, alice, bob, { tokenId: m1.tokenId1, side: 'BUY', price: '0.6', size: '10' }, { tokenId: m1.tokenId2, side: 'BUY', price: '0.45', size: '10' });
    // Bob sells tokens this MINT gave him: on a chain (TEST_CHAIN) he holds them once it is mined.
    await settle();
    await advance(2_000);
    // 2. and 3., in the same millisecond: Bob sells 4 token 2 to Alice at 0.5; anonymous Carol takes token 2 of m3 at 0.7.
    await expectTrade(server, alice, bob, { tokenId: m1.tokenId2, side: 'BUY', price: '0.5', size: '4' }, { tokenId: m1.tokenId2, side: 'SELL', price: '0.5', size: '4' });
    await expectTrade(server, alice, carol, { tokenId: m3.tokenId1, side: 'BUY', price: '0.3', size: '10' }, { tokenId: m3.tokenId2, side: 'BUY', price: '0.7', size: '10' });
    await advance(1_000);
    // 4. Below the $1 floor: Bob takes 1 token 2 of m2 at 0.1.
    await expectTrade(server, alice, bob, { tokenId: m2.tokenId1, side: 'BUY', price: '0.9', size: '1' }, { tokenId: m2.tokenId2, side: 'BUY', price: '0.1', size: '1' });
    await settle();
  });
  after(async () => {
    await server?.close();
  });

  it('GET /trades lists every trade newest first with the taker token, side and price', async () => {
    const { body } = await trades();
    assert.equal(body.hasMore, false);
    assert.equal(body.data.length, 4);
    assert.ok(body.data.every((t: any) => t.status === 'CONFIRMED'));
    const first = body.data[3];
    assert.equal(first.market, multi.markets[0]!.id);
    assert.equal(first.tokenId, multi.markets[0]!.tokenId2);
    assert.deepEqual([first.price, first.size, first.side], ['0.4', '10', 0]);
    assert.deepEqual([first.taker, first.maker], [bob.proxyWallet.toLowerCase(), alice.proxyWallet.toLowerCase()]);
    assert.match(first.txHash, /^0x[0-9a-f]{64}$/);
    assert.equal(typeof first.matchedAt, 'number');
    assert.ok(first.matchedAt < 1e11, 'Unix seconds');
    assert.ok(first.confirmedAt >= first.matchedAt);
    const matchedAts = body.data.map((t: any) => t.matchedAt);
    assert.deepEqual(matchedAts, [...matchedAts].sort((a: number, b: number) => b - a));
    // Ids sort as the journal made them, so the two trades of one millisecond are listed newest first too.
    assert.deepEqual(body.data.map((t: any) => t.price), ['0.1', '0.7', '0.5', '0.4']);
  });

  it('GET /trades filters by id, market, taker, maker, and user (which overrides both)', async () => {
    const all = (await trades()).body.data;
    assert.deepEqual((await trades(`?id=${all[2].id}`)).body.data, [all[2]]);
    assert.equal((await trades(`?market=${multi.markets[0]!.id}`)).body.data.length, 2);
    assert.deepEqual((await trades(`?market=${randomUUID()}`)).body, { data: [], hasMore: false });
    const bobWallet = bob.proxyWallet;
    assert.equal((await trades(`?taker=${bobWallet}`)).body.data.length, 3);
    assert.equal((await trades(`?maker=${bobWallet}`)).body.data.length, 0);
    assert.equal((await trades(`?maker=${alice.proxyWallet}`)).body.data.length, 4);
    assert.equal((await trades(`?taker=${bobWallet}&maker=${alice.proxyWallet}`)).body.data.length, 3);
    assert.equal((await trades(`?user=${carol.proxyWallet}&taker=${bobWallet}`)).body.data.length, 1);
    assert.equal((await trades(`?user=${bobWallet.toUpperCase().replace('0X', '0x')}`)).body.data.length, 3);
  });

  it('GET /trades pages with limit, before and beforeId, each trade exactly once; after is exclusive', async () => {
    const all = (await trades()).body.data;
    const limited = (await trades('?limit=2')).body;
    assert.deepEqual([limited.data.length, limited.hasMore], [2, true]);
    const seen: string[] = [];
    let query = '?limit=1';
    for (;;) {
      const page = (await trades(query)).body;
      seen.push(...page.data.map((t: any) => t.id));
      if (!page.hasMore) break;
      const last = page.data.at(-1);
      query = `?limit=1&before=${last.matchedAt}&beforeId=${last.id}`;
    }
    assert.deepEqual(seen, all.map((t: any) => t.id));
    const oldest = all[3];
    assert.equal((await trades(`?before=${oldest.matchedAt}`)).body.data.length, 0);
    assert.deepEqual((await trades(`?after=${oldest.matchedAt}`)).body.data.map((t: any) => t.id), all.slice(0, 3).map((t: any) => t.id));
  });

  it('GET /trades rejects bad input with 400', async () => {
    for (const query of ['?limit=0', '?limit=501', '?market=nope', '?taker=0x12', '?user=abc', `?beforeId=${randomUUID()}`, '?before=-1', '?after=x']) {
      expectError(await trades(query), 400, 'VALIDATION_FAILED');
    }
    assert.equal((await trades('?limit=500')).status, 200);
  });

  it('GET /trades/activity shows confirmed trades at or above the floor, enriched, microseconds', async () => {
    const { body } = await activity();
    assert.equal(body.hasMore, false);
    assert.equal(body.data.length, 3);
    const raw = (await trades()).body.data;
    const oldest = body.data[2];
    assert.deepEqual(oldest, {
      id: raw[3].id,
      matchedAt: oldest.matchedAt,
      confirmedAt: oldest.confirmedAt,
      userId: bob.userId,
      displayName: null,
      avatarUrl: null,
      side: 'bought',
      sideRaw: 0,
      outcome: 'Side_B',
      notionalUsd: 4,
      price: '0.400000',
      size: '10.000000',
      tokenId: multi.markets[0]!.tokenId2,
      marketId: multi.markets[0]!.id,
      marketName: multi.markets[0]!.name,
      marketDisplayName: null,
      eventId: multi.event.id,
      eventSlug: multi.event.slug,
      eventName: multi.event.name,
      isMultiMarket: true,
    });
    assert.equal(Math.floor(oldest.matchedAt / 1e6), raw[3].matchedAt);
    const sold = body.data.find((row: any) => row.sideRaw === 1);
    assert.deepEqual([sold.side, sold.price, sold.size, sold.notionalUsd, sold.displayName], ['sold', '0.500000', '4.000000', 2, null]);
  });

  it('an anonymous taker shows as Anonymous with no avatar; a named one with name and avatar', async () => {
    const { body } = await activity(`?eventId=${single.event.id}`);
    assert.equal(body.data.length, 1);
    const row = body.data[0];
    assert.deepEqual([row.userId, row.displayName, row.avatarUrl, row.anonymous, row.isMultiMarket, row.notionalUsd], [carol.userId, 'Anonymous', null, true, false, 7]);
    assert.equal('anonymous' in (await activity()).body.data[2], false);
  });

  it('minAmount raises the floor but never lowers it; eventId filters; unknown ids match nothing', async () => {
    assert.equal((await activity('?minAmount=5')).body.data.length, 1);
    assert.equal((await activity('?minAmount=2.5')).body.data.length, 2);
    assert.equal((await activity('?minAmount=0')).body.data.length, 3);
    assert.equal((await activity(`?eventId=${multi.event.id}`)).body.data.length, 2);
    assert.deepEqual((await activity(`?eventId=${randomUUID()}`)).body, { data: [], hasMore: false });
  });

  it('scrollback with before and beforeId returns each row once (through a tie); after catches up', async () => {
    const all = (await activity()).body.data;
    assert.equal(all[0].matchedAt, all[1].matchedAt, 'trades 2 and 3 share a millisecond');
    const seen: string[] = [];
    let query = '?limit=1';
    for (;;) {
      const page = (await activity(query)).body;
      seen.push(...page.data.map((t: any) => t.id));
      if (!page.hasMore) break;
      const last = page.data.at(-1);
      query = `?limit=1&before=${last.matchedAt}&beforeId=${last.id}`;
    }
    assert.deepEqual(seen, all.map((t: any) => t.id));
    assert.deepEqual((await activity(`?after=${all[2].matchedAt}`)).body.data.map((t: any) => t.id), [all[0].id, all[1].id]);
    assert.deepEqual((await activity(`?before=${all[0].matchedAt}`)).body.data.map((t: any) => t.id), [all[2].id]);
  });

  it('GET /trades/activity shows a confirmed trade once every trade matched before it has settled', async () => {
    // A chain confirms trades as their blocks come, not in match order: here trade 1, then trade 2
    // or 3 (matched in one millisecond), is left mined and not confirmed, as the tables hold it
    // meanwhile. A poll with `after` must not see a later match first, or it would never ask for
    // the earlier one again.
    const all = (await activity()).body.data;
    const [third, second, first] = all.map((t: any) => t.id);
    const shown = async () => (await activity()).body.data.map((t: any) => t.id);
    try {
      await status(first, 'MINED');
      assert.deepEqual(await shown(), []);
      await status(first, 'CONFIRMED');
      await status(second, 'MINED');
      assert.deepEqual(await shown(), [first], 'the trade matched in the same millisecond waits for it too');
      await status(third, 'MINED');
      await status(second, 'CONFIRMED');
      assert.deepEqual(await shown(), [first]);
    } finally {
      await status(second, 'CONFIRMED');
      await status(third, 'CONFIRMED');
      await status(first, 'CONFIRMED');
    }
    assert.deepEqual(await shown(), [third, second, first]);
  });

  it('GET /trades/activity rejects bad input with 400', async () => {
    for (const query of ['?limit=0', '?limit=101', '?before=1&after=1', `?beforeId=${randomUUID()}`, '?eventId=x', '?minAmount=-1', '?minAmount=abc']) {
      expectError(await activity(query), 400, 'VALIDATION_FAILED');
    }
  });

  it('publishes one trade-activity per confirmed trade, equal to the REST row', async () => {
    const rows = (await activity('?minAmount=0')).body.data;
    assert.equal(feed.length, 4, 'the feed carries the trade below the floor too; the realtime module filters');
    for (const row of rows) assert.deepEqual(feed.find((f) => f.activity.id === row.id)?.activity, row);
    assert.deepEqual(feed.map((f) => f.notionalUsd), [4, 2, 7, 0.1], 'in match order, the two trades of one millisecond included');
    assert.equal(feed.find((f) => f.notionalUsd === 7)?.eventId, single.event.id);
  });

  /** Alice and Bob mint 10 of `market` at 0.5, settled and announced, and the clock moves on: the trade's id. */
  async function mintSettled(market: PublishedEvent['markets'][0]): Promise<string> {
    await expectTrade(server, alice, bob, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '10' }, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '10' });
    await settle();
    await server.ctx.trading.engine.announced();
    await advance(2_000);
    return (await trades(`?market=${market.id}`)).body.data[0].id;
  }
  const announced = () => feed.map((f) => f.activity.id);

  it('publishes a trade-activity when its REST row can be read: a trade confirmed ahead of an earlier match waits for it', async () => {
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const x = await mintSettled(market);
    assert.equal(announced().at(-1), x);
    // The tables hold x mined, as a chain that confirmed the next match first leaves it.
    await status(x, 'MINED');
    let y: string;
    try {
      y = await mintSettled(market);
      assert.equal(announced().includes(y), false, 'held while an earlier match is unsettled');
      assert.equal((await activity()).body.data.some((t: any) => t.id === y), false);
    } finally {
      await status(x, 'CONFIRMED');
    }
    const z = await mintSettled(market);
    assert.deepEqual(announced().slice(-2), [y, z], 'released by the next settlement, in match order');
    assert.deepEqual((await activity()).body.data.slice(0, 3).map((t: any) => t.id), [z, y, x]);
  });

  it('announces a held trade after the engine stopped and started again, as a node that takes the engine over does', async () => {
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const x = await mintSettled(market);
    await status(x, 'MINED');
    let y: string;
    try {
      y = await mintSettled(market);
      assert.equal(announced().includes(y), false, 'held while an earlier match is unsettled');
      // A step down and a takeover: the engine that leads next knows only what the tables hold.
      await server.ctx.trading.engine.stop();
      await server.ctx.trading.engine.start();
    } finally {
      await status(x, 'CONFIRMED');
    }
    const z = await mintSettled(market);
    assert.deepEqual(announced().slice(-2), [y, z], 'the held trade goes out with the next settlement, in match order');
  });

  it('GET /markets/{id_or_slug}/holders ranks holders per outcome, never full wallets', async () => {
    const m1 = multi.markets[0]!;
    const { body } = await get(server.api(`/markets/${m1.slug}/holders`));
    assert.equal(body.marketId, m1.id);
    assert.deepEqual([body.outcome1.label, body.outcome1.tokenId, body.outcome2.tokenId], [m1.outcome1, m1.tokenId1, m1.tokenId2]);
    assert.deepEqual(body.outcome1.holders.map((h: any) => [h.userId, h.shares, h.rank]), [[alice.userId, 10, 1]]);
    assert.deepEqual(body.outcome2.holders.map((h: any) => [h.userId, h.shares, h.rank]), [[bob.userId, 6, 1], [alice.userId, 4, 2]]);
    const [bobRow, aliceRow] = body.outcome2.holders;
    assert.equal(bobRow.name, null);
    assert.equal(bobRow.walletShort, `${bob.proxyWallet.toLowerCase().slice(0, 6)}…${bob.proxyWallet.toLowerCase().slice(-4)}`);
    assert.deepEqual([aliceRow.walletShort, aliceRow.avatarUrl, 'anonymous' in aliceRow], [null, 'https://example.com/a.png', false]);
    assert.ok(!JSON.stringify(body).toLowerCase().includes(bob.proxyWallet.toLowerCase()));
  });

  it('holders: anonymous users, limit, 400 and 404', async () => {
    const m3 = single.markets[0]!;
    const { body } = await get(server.api(`/markets/${m3.id}/holders?limit=1`));
    assert.deepEqual(body.outcome2.holders, [{ userId: carol.userId, name: 'Anonymous', anonymous: true, avatarUrl: null, walletShort: null, shares: 10, rank: 1 }]);
    const m1 = multi.markets[0]!;
    assert.equal((await get(server.api(`/markets/${m1.id}/holders`))).body.outcome2.holders.length, 2);
    assert.deepEqual((await get(server.api(`/markets/${m1.id}/holders?limit=1`))).body.outcome2.holders.map((h: any) => h.userId), [bob.userId]);
    for (const limit of ['0', '101', 'x']) expectError(await get(server.api(`/markets/${m3.id}/holders?limit=${limit}`)), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api(`/markets/${randomUUID()}/holders`)), 404, 'NOT_FOUND');
    expectError(await get(server.api('/markets/no-such-market/holders')), 404, 'NOT_FOUND');
  });
  it('GET /events/{id}/positions: positions per user by current value at the latest price', async () => {
    const [m1, m2] = multi.markets as [PublishedEvent['markets'][0], PublishedEvent['markets'][0]];
    const users = [alice.userId, bob.userId, carol.userId, alice.userId.toUpperCase()].join(',');
    const { status, body } = await get(server.api(`/events/${multi.event.id}/positions?users=${users}`));
    assert.equal(status, 200, JSON.stringify(body));
    const summary = body.map((u: any) => [u.userId, u.positions.map((p: any) => [p.market_uuid, p.tokenId, p.amount, p.current, p.outcomeIndex])]);
    assert.deepEqual(summary, [
      [alice.userId, [[m1.id, m1.tokenId1, '10', '5', 0], [m1.id, m1.tokenId2, '4', '2', 1], [m2.id, m2.tokenId1, '1', '0.9', 0]]],
      [bob.userId, [[m1.id, m1.tokenId2, '6', '3', 1], [m2.id, m2.tokenId2, '1', '0.1', 1]]],
    ]);
    const first = body[0].positions[0];
    assert.deepEqual([first.title, first.slug, first.outcome, first.displayName, first.status, first.conditionId], [m1.name, m1.slug, m1.outcome1, null, 'ACTIVE', m1.conditionId]);
    assert.deepEqual((await get(server.api(`/events/${single.event.id}/positions?users=${bob.userId}`))).body, []);
  });

  it('GET /events/{id}/positions: an anonymous user is shown only to itself and the operator', async () => {
    const path = `/events/${multi.event.id}/positions?users=${alice.userId},${bob.userId}`;
    assert.equal((await bob.call('PATCH', '/account', { anonymous: true })).status, 200);
    try {
      const shown = async (headers?: Record<string, string>) => (await get(server.api(path), headers)).body.map((u: any) => u.userId);
      assert.deepEqual(await shown(), [alice.userId]);
      assert.deepEqual((await alice.call('GET', `/events/${multi.event.id}/positions?users=${alice.userId},${bob.userId}`)).body.map((u: any) => u.userId), [alice.userId]);
      assert.deepEqual((await bob.call('GET', `/events/${multi.event.id}/positions?users=${alice.userId},${bob.userId}`)).body.map((u: any) => u.userId), [alice.userId, bob.userId]);
      assert.deepEqual(await shown(server.adminHeaders), [alice.userId, bob.userId]);
    } finally {
      assert.equal((await bob.call('PATCH', '/account', { anonymous: false })).status, 200);
    }
  });

  it('GET /events/{id}/positions: users rules, 400 and 404', async () => {
    const path = `/events/${multi.event.id}/positions`;
    const many = Array.from({ length: 51 }, () => randomUUID()).join(',');
    const fifty = Array.from({ length: 50 }, (): string => randomUUID()).concat(alice.userId).join(',');
    for (const query of ['', '?users=', `?users=${alice.userId}&users=${bob.userId}`, `?users[]=${alice.userId}`, `?users=${many}`, '?users=nope', `?users=${alice.userId},`]) {
      expectError(await get(server.api(`${path}${query}`)), 400, 'VALIDATION_FAILED');
    }
    expectError(await get(server.api(`/events/${multi.event.id}/positions?users=${fifty}`)), 400, 'VALIDATION_FAILED');
    assert.equal((await get(server.api(`${path}?users=${[alice.userId, alice.userId].join(',')}`))).body.length, 1);
    expectError(await get(server.api(`/events/${randomUUID()}/positions?users=${alice.userId}`)), 404, 'NOT_FOUND');
    expectError(await get(server.api(`/events/${multi.event.slug}/positions?users=${alice.userId}`)), 400, 'VALIDATION_FAILED');
  });
});
