import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { parseUnits } from '../../src/core/money.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { bearer } from '../helpers/auth-client.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { resolveMarket } from '../helpers/resolution.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, expectTrade, newTrader, placeOrder, type OrderSpec, type Trader } from '../helpers/trader.ts';

/**
 * GET /markets/user-positions and /markets/value over real trading, checked against a hand
 * calculation to the base unit. Fees: taker 1%, maker 0.5% of min(p, 1 − p) × size.
 *
 * m1: (1) Alice's BUY token1 10 @ 0.6 rests; Bob takes with BUY token2 @ 0.45: a MINT at 0.6/0.4.
 *       Alice t1: 10 for 6 + 0.02 fee = 6.02. Bob t2: 10 for 4 + 0.04 = 4.04.
 *     (2) Alice's BUY token2 4 @ 0.5 rests; Bob sells 4 into it. Bob gets 2 − 0.02 = 1.98 for
 *       4.04 × 4/10 = 1.616 of basis: realised 0.364, left 6 for 2.424. Alice t2: 4 for 2.01.
 *     (3) Alice splits 5: t1 15 for 8.52, t2 9 for 4.51.
 *     (4) Alice merges 3: t1 loses 1.704 of basis for 1.5 (−0.204), 12 for 6.816;
 *       t2 loses floor(4.51 × 3/9) = 1.503333 for 1.5 (−0.003333), 6 for 3.006667.
 *     (5) Carol's BUY token1 2 @ 0.55 rests; Alice sells 2 into it: 1.1 − 0.009 = 1.091 for
 *       6.816 × 2/12 = 1.136 (−0.045); t1 10 for 5.68. Carol t1: 2 for 1.1 + 0.0045.
 *     Latest: t1 0.55 (last trade), t2 0.45 (its complement).
 * m2: Bob splits 1: 1 of each for 0.5; no trade and no book, so latest 0.5.
 */
describe('portfolio: user positions and value', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let carol: Trader;
  let m1: PublishedMarket;
  let m2: PublishedMarket;
  let eventId: string;
  const advance = (advanceMs: number) => post(server.api('/admin/clock'), { advanceMs }, server.adminHeaders);
  const order = (spec: OrderSpec): OrderSpec => ({ ...spec, feeRateBps: 100 });
  const positions = (t: Trader, query = '') => t.call('GET', `/markets/user-positions${query}`);
  const summary = (rows: any[]) => rows.map((r) => [r.market_uuid, r.tokenId, r.amount, r.acquisitionPrice, r.latest, r.current, r.initial, r.return]);

  async function trade(maker: Trader, taker: Trader, makerSpec: OrderSpec, takerSpec: OrderSpec) {
    await expectTrade(server, maker, taker, order(makerSpec), order(takerSpec));
    await server.ctx.trading.engine.settle();
    await advance(1_000);
  }

  before(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error' });
    [alice, bob, carol] = await Promise.all([newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' })]);
    const published = await createPublishedEvent(server, { markets: 2, orderFeeRateBps: 100, passiveOrderFeeRateBps: 50 });
    eventId = published.event.id;
    [m1, m2] = published.markets as [PublishedMarket, PublishedMarket];
    await trade(alice, bob, { tokenId: m1.tokenId1, side: 'BUY', price: '0.6', size: '10' }, { tokenId: m1.tokenId2, side: 'BUY', price: '0.45', size: '10' });
    await trade(alice, bob, { tokenId: m1.tokenId2, side: 'BUY', price: '0.5', size: '4' }, { tokenId: m1.tokenId2, side: 'SELL', price: '0.5', size: '4' });
    assert.equal((await alice.call('POST', `/markets/${m1.id}/split`, { amount: '5' })).status, 200);
    // A merge takes what both tokens have available: a resting SELL of 6 of her 9 token 2 leaves 3 to merge.
    const held = await placeOrder(server, alice, { tokenId: m1.tokenId2, side: 'SELL', price: '0.99', size: '6', feeRateBps: 100 });
    assert.equal(held.status, 200, JSON.stringify(held.body));
    const merged = await alice.call('POST', '/markets/merge-positions/batch', { marketIds: [m1.id] });
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.equal((await alice.call('POST', `/orders/${held.body.id}/cancel`)).status, 200);
    await advance(1_000);
    await trade(carol, alice, { tokenId: m1.tokenId1, side: 'BUY', price: '0.55', size: '2' }, { tokenId: m1.tokenId1, side: 'SELL', price: '0.55', size: '2' });
    assert.equal((await bob.call('POST', `/markets/${m2.id}/split`, { amount: '1' })).status, 200);
  });
  after(async () => {
    await server?.close();
  });

  it('values every holding to the base unit, by latest price descending by default', async () => {
    const { status, body } = await positions(alice);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual([body.first, body.last, body.limit, body.total], [1, 2, 10, 2]);
    assert.deepEqual(summary(body.data), [
      [m1.id, m1.tokenId1, '10', '0.568', '0.55', '5.5', '5.68', '-0.18'],
      // initial is amount × acquisitionPrice (EXTENSIONS.md 11): 6 × 0.501111, under the exact basis 3.006667.
      [m1.id, m1.tokenId2, '6', '0.501111', '0.45', '2.7', '3.006666', '-0.306666'],
    ]);
    assert.deepEqual(summary((await positions(bob)).body.data), [
      [m2.id, m2.tokenId1, '1', '0.5', '0.5', '0.5', '0.5', '0'],
      [m2.id, m2.tokenId2, '1', '0.5', '0.5', '0.5', '0.5', '0'],
      [m1.id, m1.tokenId2, '6', '0.404', '0.45', '2.7', '2.424', '0.276'],
    ]);
    assert.deepEqual(summary((await positions(carol)).body.data), [[m1.id, m1.tokenId1, '2', '0.55225', '0.55', '1.1', '1.1045', '-0.0045']]);
    // What a client may recompute from the strings: initial = amount × acquisitionPrice, current = amount × latest.
    for (const row of [...body.data, ...(await positions(bob)).body.data]) {
      const [amount, acquisition, latest] = [row.amount, row.acquisitionPrice, row.latest].map((v: string) => parseUnits(v)!) as [bigint, bigint, bigint];
      assert.deepEqual([parseUnits(row.initial), parseUnits(row.current)], [(amount * acquisition) / 1_000_000n, (amount * latest) / 1_000_000n], JSON.stringify(row));
    }
    await expectAuditClean(server);
  });

  it('shows the same amounts and values as GET /events/{id}/positions', async () => {
    const { status, body } = await get(server.api(`/events/${eventId}/positions?users=${alice.userId},${bob.userId}`));
    assert.equal(status, 200, JSON.stringify(body));
    for (const [trader, entry] of [[alice, body.find((u: any) => u.userId === alice.userId)], [bob, body.find((u: any) => u.userId === bob.userId)]] as const) {
      const rows = (list: any[]) => list.map((r: any) => [r.tokenId, r.amount, r.current].join(' ')).sort();
      assert.deepEqual(rows(entry.positions), rows((await positions(trader)).body.data));
    }
  });

  it('carries the market, event and fee fields of each position', async () => {
    const row = (await positions(alice)).body.data[1];
    assert.deepEqual(
      [row.displayName, row.title, row.slug, row.outcome, row.outcomeIndex, row.eventId, row.isMultiMarket, row.isSeriesLayout, row.status, row.conditionId, row.orderFeeRateBps, row.passiveOrderFeeRateBps, row.isDisputed, row.isSettled],
      [null, m1.name, m1.slug, m1.outcome2, 1, eventId, true, false, 'ACTIVE', m1.conditionId, 100, 50, false, false],
    );
    // No proposal, no resolution: those fields are left out, not faked.
    for (const field of ['proposedResolvedTo', 'proposedAt', 'liveness', 'resolvedTo']) assert.ok(!(field in row), field);
  });

  it('filters by market, event, title and status, sorts and pages', async () => {
    const tokens = async (query: string) => {
      const { status, body } = await positions(bob, query);
      assert.equal(status, 200, JSON.stringify(body));
      return body.data.map((r: any) => r.tokenId);
    };
    assert.deepEqual(await tokens(`?id=${m1.id}`), [m1.tokenId2]);
    assert.deepEqual((await tokens(`?eventId=${eventId}`)).length, 3);
    assert.deepEqual(await tokens(`?eventId=${randomUUID()}`), []);
    assert.deepEqual(await tokens(`?title=${encodeURIComponent(m2.name.toUpperCase())}`), [m2.tokenId1, m2.tokenId2]);
    assert.deepEqual(await tokens('?status=RESOLVED'), []);
    assert.equal((await tokens('?status=ACTIVE')).length, 3);
    assert.deepEqual((await tokens('?sortBy=current&order=ASC'))[2], m1.tokenId2);
    assert.deepEqual((await tokens('?sortBy=initial'))[0], m1.tokenId2);
    assert.deepEqual((await tokens('?sortBy=return&order=DESC'))[0], m1.tokenId2);
    const page = await positions(bob, '?limit=2&page=2');
    assert.deepEqual([page.body.first, page.body.last, page.body.limit, page.body.total, page.body.data.length], [3, 3, 2, 3, 1]);
    const empty = await positions(bob, '?limit=2&page=9');
    assert.deepEqual([empty.body.first, empty.body.last, empty.body.total, empty.body.data], [0, 0, 3, []]);
  });

  it('values positions for the caller, any user by address or proxy, and chosen markets', async () => {
    const value = async (t: Trader, query = '') => {
      const { status, body } = await t.call('GET', `/markets/value${query}`);
      assert.equal(status, 200, JSON.stringify(body));
      return body;
    };
    assert.deepEqual(await value(alice), { user: alice.address, value: 8.2 });
    assert.deepEqual(await value(alice, `?user=${bob.address.toLowerCase()}`), { user: bob.address.toLowerCase(), value: 3.7 });
    // Asked by proxy wallet, the answer echoes it: it never tells who signs for that wallet.
    assert.deepEqual(await value(alice, `?user=${bob.proxyWallet}`), { user: bob.proxyWallet, value: 3.7 });
    assert.deepEqual(await value(bob, `?markets=${m2.id}`), { user: bob.address, value: 1 });
    assert.deepEqual(await value(bob, `?markets=${m2.id}&markets=${m1.id}`), { user: bob.address, value: 3.7 });
    assert.deepEqual(await value(bob, `?markets=${m1.id},${randomUUID()}`), { user: bob.address, value: 2.7 });
    const stranger = `0x${'ab'.repeat(20)}`;
    assert.deepEqual(await value(bob, `?user=${stranger}`), { user: stranger, value: 0 });
  });

  it('closes positions on a redeem at what each token paid (after the reads above: it resolves m2)', async () => {
    // m2 resolves YES: token 1 pays 1, token 2 nothing.
    await resolveMarket(server, m2.id, 'YES');
    assert.equal((await bob.call('POST', '/markets/redeem-positions/batch', { marketIds: [m2.id] })).status, 200);
    assert.deepEqual(summary((await positions(bob)).body.data), [[m1.id, m1.tokenId2, '6', '0.404', '0.45', '2.7', '2.424', '0.276']]);
    assert.equal((await bob.call('PATCH', '/account', { displayName: 'bob_redeems' })).status, 200);
    const closed = (await get(server.api('/profiles/by-name/bob_redeems/positions?status=closed'))).body;
    assert.deepEqual(closed.map((p: any) => [p.id, p.avg, p.bet, p.exit, p.pnl, p.pnlPct]).sort(), [
      [m2.tokenId1, 50, '0.5', 100, '0.5', 100],
      [m2.tokenId2, 50, '0.5', 0, '-0.5', -100],
    ].sort());
    // Bob's realised: 0.364 on m1, +0.5 − 0.5 on m2; unrealised 0.276 on what he still holds.
    assert.equal((await get(server.api('/profiles/by-name/bob_redeems/summary'))).body.allTimePnl, '0.64');
    await expectAuditClean(server);
  });

  it('shows the oracle proposal of a market once there is one', async () => {
    const proposed = await post(server.api(`/admin/markets/${m1.id}/oracle/propose`), { outcome: 'NO' }, server.adminHeaders);
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    const row = (await positions(carol)).body.data[0];
    assert.deepEqual([row.proposedResolvedTo, row.proposedAt, row.liveness, row.status], ['NO', Math.floor(Date.parse(proposed.body.proposedAt) / 1000), 7200, 'ACTIVE']);
  });

  it('folds a position again in sequence order when a transaction commits after a later-numbered one', async () => {
    // A journal transaction numbered before everything, committing now: Bob split 10 of m1 first.
    // In sequence order his 4 sold came out of 20 held for 9.04, so they realised 1.98 − 1.808.
    const db = server.ctx.store.db;
    const wallet = bob.proxyWallet.toLowerCase();
    await db.transaction().execute(async (tx) => {
      await sql`INSERT INTO ledger_transactions (seq, tx_hash, kind, ref, created_at) VALUES (-1, ${`0x${'ab'.repeat(32)}`}, 'SPLIT', 'split:late', now())`.execute(tx);
      await sql`INSERT INTO ledger_entries (tx_seq, idx, account, asset, amount, reason) VALUES
        (-1, 0, ${wallet}, ${m1.tokenId1}, 10000000, 'MINT'), (-1, 1, ${wallet}, ${m1.tokenId2}, 10000000, 'MINT')`.execute(tx);
    });
    const rows = summary((await positions(bob, `?id=${m1.id}&sortBy=initial`)).body.data);
    assert.deepEqual(rows, [
      [m1.id, m1.tokenId2, '16', '0.452', '0.45', '7.2', '7.232', '-0.032'],
      [m1.id, m1.tokenId1, '10', '0.5', '0.55', '5.5', '5', '0.5'],
    ]);
    const stored = await db.selectFrom('positions').select('realized_pnl').where('account', '=', wallet).where('token_id', '=', m1.tokenId2).executeTakeFirstOrThrow();
    assert.equal(stored.realized_pnl, '172000');
  });

  it('requires API-key HMAC', async () => {
    for (const path of ['/markets/user-positions', '/markets/value']) {
      expectError(await get(server.api(path)), 401, 'UNAUTHORIZED');
      expectError(await get(server.api(path), bearer(alice.session.token)), 401, 'UNAUTHORIZED');
      const headers = { 'svc-api-key': alice.creds.apiKey, 'svc-passphrase': alice.creds.passphrase, 'svc-timestamp': String(Date.now()), 'svc-signature': '00'.repeat(32) };
      expectError(await get(server.api(path), headers), 401, 'UNAUTHORIZED');
    }
  });

  it('rejects bad query parameters with 400', async () => {
    for (const query of ['?limit=0', '?limit=101', '?page=0', '?page=1000001', '?title=a%00b', '?sortBy=size', '?order=UP', '?status=OPEN', '?id=nope', '?eventId=1']) {
      expectError(await positions(alice, query), 400, 'VALIDATION_FAILED');
    }
    for (const query of ['?user=0x12', '?markets=nope', `?markets=${m1.id},x`]) {
      expectError(await alice.call('GET', `/markets/value${query}`), 400, 'VALIDATION_FAILED');
    }
  });
});
