import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { signedRequest } from '../helpers/auth-client.ts';
import { createDraftEvent, createPublishedEvent, patchMarket, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { closeAudited, expectAuditClean, newTrader, placeOrder, type OrderSpec, type Trader } from '../helpers/trader.ts';

interface BatchMerge {
  txHash: string;
  included: string[];
  excluded: Array<{ marketId: string; reason: string }>;
}

/**
 * GET /markets/mergeable-positions and POST /markets/merge-positions/batch on positions made by
 * real trading. Alice: on m1 a split of 10 with 4 YES offered in a resting SELL (so 6 can merge);
 * on m2 5 YES bought in a MINT against Bob, then a split of 3 (so 3 can merge); on m3 only YES.
 * No fees, so every balance below is a hand calculation.
 */
describe('portfolio: mergeable positions and batch merge', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let m1: PublishedMarket;
  let m2: PublishedMarket;
  let m3: PublishedMarket;
  let sellOrderId: string;

  const mergeable = async (trader: Trader) => {
    const response = await trader.call('GET', '/markets/mergeable-positions');
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as Array<Record<string, string>>;
  };
  const merge = async (trader: Trader, marketIds: string[]) => {
    const response = await trader.call('POST', '/markets/merge-positions/batch', { marketIds });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as BatchMerge;
  };
  const split = async (trader: Trader, market: PublishedMarket, amount: string) => {
    const response = await trader.call('POST', `/markets/${market.id}/split`, { amount });
    assert.equal(response.status, 200, JSON.stringify(response.body));
  };
  /** Collateral balance and each token's balance/locked, from GET /account/balance. */
  const holdings = async (trader: Trader) => {
    const body = (await trader.call('GET', '/account/balance')).body;
    const tokens: Record<string, string> = {};
    for (const t of body.tokens as Array<{ tokenId: string; balance: string; locked: string }>) tokens[t.tokenId] = `${t.balance}/${t.locked}`;
    return { collateral: body.collateral.balance as string, tokens };
  };
  async function mint(buyer1: Trader, buyer2: Trader, market: PublishedMarket, price1: string, size: string) {
    assert.equal((await placeOrder(server, buyer1, { tokenId: market.tokenId1, side: 'BUY', price: price1, size })).status, 200);
    const complement = (1 - Number(price1)).toFixed(2);
    const taken = await placeOrder(server, buyer2, { tokenId: market.tokenId2, side: 'BUY', price: complement, size });
    assert.equal(taken.body.status, 'EXECUTED', JSON.stringify(taken.body));
  }

  before(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error' });
    [alice, bob] = await Promise.all([newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' })]);
    [m1, m2, m3] = (await createPublishedEvent(server, { markets: 3 })).markets as [PublishedMarket, PublishedMarket, PublishedMarket];
    await split(alice, m1, '10');
    const sell: OrderSpec = { tokenId: m1.tokenId1, side: 'SELL', price: '0.6', size: '4' };
    const placed = await placeOrder(server, alice, sell);
    assert.equal(placed.body.status, 'PENDING', JSON.stringify(placed.body));
    sellOrderId = placed.body.id;
    await mint(alice, bob, m2, '0.4', '5');
    await split(alice, m2, '3');
    await mint(alice, bob, m3, '0.5', '2');
    await server.ctx.trading.engine.settle();
  });
  after(() => closeAudited(server));

  it('lists the active markets where both outcomes are available, in the MergeablePosition shape', async () => {
    const list = await mergeable(alice);
    assert.deepEqual(list.map((p) => p.marketId).sort(), [m1.id, m2.id].sort());
    const one = list.find((p) => p.marketId === m2.id)!;
    assert.deepEqual(one, {
      marketId: m2.id, onchainMarketId: one.onchainMarketId, conditionId: m2.conditionId, tokenId1: m2.tokenId1, tokenId2: m2.tokenId2, slug: m2.slug, name: m2.name,
    });
    assert.equal(typeof one.onchainMarketId, 'string');
    // Bob holds only NO tokens (m2, m3): nothing to merge.
    assert.deepEqual(await mergeable(bob), []);
  });

  it('merges every included market in one transaction, the smaller available balance of each, leaving reserved tokens alone', async () => {
    assert.deepEqual(await holdings(alice), {
      collateral: '984',
      tokens: { [m1.tokenId1]: '10/4', [m1.tokenId2]: '10/0', [m2.tokenId1]: '8/0', [m2.tokenId2]: '3/0', [m3.tokenId1]: '2/0' },
    });
    const unknown = randomUUID();
    const draft = (await createDraftEvent(server)).markets[0]!.id;
    const result = await merge(alice, [m1.id, unknown, m2.id, m3.id, draft]);
    assert.match(result.txHash, /^0x[0-9a-f]{64}$/);
    assert.deepEqual(result.included, [m1.id, m2.id]);
    assert.deepEqual(result.excluded, [
      { marketId: unknown, reason: 'not-mergeable' },
      { marketId: draft, reason: 'not-mergeable' },
      { marketId: m3.id, reason: 'only-one-side' },
    ]);
    // 6 sets of m1 (4 YES stay reserved by the SELL) and 3 of m2 come back as 9 collateral.
    assert.deepEqual(await holdings(alice), {
      collateral: '993',
      tokens: { [m1.tokenId1]: '4/4', [m1.tokenId2]: '4/0', [m2.tokenId1]: '5/0', [m3.tokenId1]: '2/0' },
    });
    assert.equal((await alice.call('GET', `/orders/${sellOrderId}`)).body.status, 'PENDING');
    await expectAuditClean(server);

    // Both merges are MERGE activity rows of the one transaction, in each market's activity too.
    const activity = (await alice.call('GET', '/markets/user-activity?types=MERGE')).body;
    assert.deepEqual(activity.data.map((r: any) => [r.type, r.id, r.amount, r.price, r.hash]).sort(), [
      ['MERGE', m1.id, 6, '1', result.txHash],
      ['MERGE', m2.id, 3, '1', result.txHash],
    ].sort());
    const ofMarket = (await get(server.api(`/markets/activity/${m1.id}?type=MERGE`))).body.data;
    assert.deepEqual(ofMarket.map((r: any) => [r.proxy_address, r.amount, r.hash]), [[alice.proxyWallet.toLowerCase(), 6, result.txHash]]);
    // Cursor pages of one row each still reach both rows of the one transaction.
    const walked: any[] = [];
    let cursor: string | null = '';
    for (let pages = 0; cursor !== null && pages < 100; pages++) {
      const page: any = (await get(server.api(`/markets/activity?limit=1&cursor=${encodeURIComponent(cursor)}`))).body;
      walked.push(...page.data);
      cursor = page.nextCursor;
    }
    assert.equal(cursor, null);
    assert.deepEqual(walked.filter((r) => r.hash === result.txHash).map((r) => r.id).sort(), [m1.id, m2.id].sort());

    // Nothing is left to merge; the reserved YES still fill the SELL.
    assert.deepEqual(await mergeable(alice), []);
    const again = await merge(alice, [m1.id, m2.id]);
    assert.deepEqual(again, { txHash: '', included: [], excluded: [{ marketId: m1.id, reason: 'only-one-side' }, { marketId: m2.id, reason: 'only-one-side' }] });
    const taken = await placeOrder(server, bob, { tokenId: m1.tokenId1, side: 'BUY', price: '0.6', size: '4' });
    assert.equal(taken.body.status, 'EXECUTED', JSON.stringify(taken.body));
    await server.ctx.trading.engine.settle();
    assert.equal((await alice.call('GET', `/orders/${sellOrderId}`)).body.status, 'EXECUTED');
    assert.equal((await holdings(alice)).collateral, '995.4');
    await expectAuditClean(server);
  });

  it('releases tokens to merge once the order reserving them is cancelled', async () => {
    const carol = await newTrader(server, { fund: '10' });
    await split(carol, m3, '5');
    const placed = await placeOrder(server, carol, { tokenId: m3.tokenId2, side: 'SELL', price: '0.9', size: '5' });
    assert.equal(placed.body.status, 'PENDING', JSON.stringify(placed.body));
    assert.deepEqual(await mergeable(carol), []);
    assert.deepEqual((await merge(carol, [m3.id])).excluded, [{ marketId: m3.id, reason: 'only-one-side' }]);
    assert.equal((await carol.call('POST', `/orders/${placed.body.id}/cancel`)).status, 200);
    assert.deepEqual((await mergeable(carol)).map((p) => p.marketId), [m3.id]);
    assert.deepEqual((await merge(carol, [m3.id])).included, [m3.id]);
    assert.deepEqual(await holdings(carol), { collateral: '10', tokens: {} });
  });

  it('pays once when the same positions are merged concurrently', async () => {
    const dave = await newTrader(server, { fund: '7' });
    await split(dave, m1, '7');
    const storm = await Promise.all(Array.from({ length: 6 }, () => merge(dave, [m1.id])));
    assert.equal(storm.filter((r) => r.included.length === 1).length, 1, JSON.stringify(storm));
    for (const r of storm.filter((x) => x.included.length === 0)) assert.deepEqual(r, { txHash: '', included: [], excluded: [{ marketId: m1.id, reason: 'only-one-side' }] });
    assert.deepEqual(await holdings(dave), { collateral: '7', tokens: {} });
    await expectAuditClean(server);
  });

  it('still merges on a paused market, never on a resolved one', async () => {
    const erin = await newTrader(server, { fund: '10' });
    const paused = (await createPublishedEvent(server)).markets[0]!;
    await split(erin, paused, '2');
    await patchMarket(server, paused.id, { isPaused: true });
    const resolved = (await createPublishedEvent(server, { liveness: 600 })).markets[0]!;
    await split(erin, resolved, '3');
    const proposed = await post(server.api(`/admin/markets/${resolved.id}/oracle/propose`), { outcome: 'YES' }, server.adminHeaders);
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    assert.equal((await post(server.api('/admin/clock'), { advanceMs: 600_000 }, server.adminHeaders)).status, 200);
    assert.equal((await get(server.api(`/markets/${resolved.id}/resolution`))).body.finalOutcome, 'YES');
    assert.deepEqual((await mergeable(erin)).map((p) => p.marketId), [paused.id]);
    const result = await merge(erin, [resolved.id, paused.id]);
    assert.deepEqual([result.included, result.excluded], [[paused.id], [{ marketId: resolved.id, reason: 'not-mergeable' }]]);
    assert.deepEqual(await holdings(erin), { collateral: '7', tokens: { [resolved.tokenId1]: '3/0', [resolved.tokenId2]: '3/0' } });
  });

  it('takes 1 to POSITION_BATCH_MAX (50) unique ids; unknown ones are excluded, not errors', async () => {
    const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
    const fifty = ids(50);
    const result = await merge(alice, fifty);
    assert.deepEqual(result, { txHash: '', included: [], excluded: fifty.map((marketId) => ({ marketId, reason: 'not-mergeable' })) });
    const batch = (body: unknown) => alice.call('POST', '/markets/merge-positions/batch', body);
    expectError(await batch({ marketIds: ids(51) }), 400, 'VALIDATION_FAILED');
    expectError(await batch({ marketIds: ids(201) }), 400, 'VALIDATION_FAILED');
    expectError(await batch({ marketIds: [] }), 400, 'VALIDATION_FAILED');
    expectError(await batch({ marketIds: [m1.id, m1.id] }), 400, 'VALIDATION_FAILED');
    expectError(await batch({ marketIds: [m1.id, m1.id.toUpperCase()] }), 400, 'VALIDATION_FAILED');
    expectError(await batch({ marketIds: ['not-a-uuid'] }), 400, 'VALIDATION_FAILED');
    expectError(await batch({}), 400, 'VALIDATION_FAILED');
  });

  it('needs API-key HMAC: missing, a JWT, or a bad signature is 401; nobody merges another user\'s tokens', async () => {
    for (const [method, path] of [['GET', '/markets/mergeable-positions'], ['POST', '/markets/merge-positions/batch']] as const) {
      const body = method === 'POST' ? { marketIds: [m2.id] } : undefined;
      const send = (headers?: Record<string, string>) => (method === 'GET' ? get(server.api(path), headers) : post(server.api(path), body, headers));
      expectError(await send(), 401, 'UNAUTHORIZED');
      expectError(await send({ authorization: `Bearer ${alice.session.token}` }), 401, 'UNAUTHORIZED');
      expectError(await signedRequest(server, { ...alice.creds, secret: `${alice.creds.secret}x` }, method, path, body), 401, 'UNAUTHORIZED');
    }
    const before = await holdings(alice);
    assert.deepEqual((await merge(bob, [m2.id])).excluded, [{ marketId: m2.id, reason: 'only-one-side' }]);
    assert.deepEqual(await holdings(alice), before);
  });
});
