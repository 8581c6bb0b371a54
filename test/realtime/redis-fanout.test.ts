import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { AppError } from '../../src/contract/errors.ts';
import { OpenInboxes } from '../helpers/open-inboxes.ts';
import { REDIS_URL, redisReachable, startRealtimeNode, TIMESTAMP_MS, tokenId, type RealtimeNode } from './helpers.ts';


const reachable = await redisReachable(REDIS_URL);
const skip = reachable ? false : `Redis unreachable at ${REDIS_URL} (set REDIS_TEST_URL): the multi-node fan-out is not tested`;

describe('multi-node fan-out through Redis', { skip, timeout: 30_000 }, () => {
  let nodeA: RealtimeNode;
  let nodeB: RealtimeNode;
  const inboxes = new OpenInboxes();
  const client = (node: RealtimeNode, namespace = '/', auth?: Record<string, unknown>) => inboxes.connect(node.url, namespace, auth);
  // Random ids keep this cluster's rooms apart from any other test run sharing the Redis.
  const token = tokenId(Number.parseInt(randomUUID().slice(0, 8), 16));
  const market = `0x${randomUUID().replace(/-/g, '')}${'0'.repeat(32)}`;

  before(async () => {
    nodeA = await startRealtimeNode({ redisUrl: REDIS_URL });
    nodeB = await startRealtimeNode({ redisUrl: REDIS_URL });
    nodeA.books.addToken(token, market);
    nodeB.books.addToken(token, market);
  });
  after(async () => {
    inboxes.closeAll();
    await nodeA?.close();
    await nodeB?.close();
  });

  it('delivers a book change published on node A to subscribers on both nodes, exactly once each', async () => {
    const onA = await client(nodeA);
    const onB = await client(nodeB);
    for (const inbox of [onA, onB]) {
      inbox.emit('orderbook-market-connect', [token]);
      assert.equal((await inbox.expect('orderbook')).seq, 0);
    }
    nodeA.books.change(token, [{ price: '0.5', side: 'buy', size: '10' }]);
    nodeA.books.change(token, [{ price: '0.5', side: 'buy', size: '0' }]);
    nodeA.events.publish('last-trade-price', { marketId: market, assetId: token, price: '0.5', side: 'sell', timestampMs: 2 });
    for (const inbox of [onA, onB]) {
      // Seq 1, seq 2, then the price: a duplicate would come between them.
      assert.equal((await inbox.expect('orderbook-price-change')).seq, 1);
      assert.equal((await inbox.expect('orderbook-price-change')).seq, 2);
      assert.equal((await inbox.expect('last-trade-price')).timestamp, 2);
    }
  });

  it('delivers last-trade-price and trade-activity published on node B to a client on node A', async () => {
    const onA = await client(nodeA);
    onA.emit('trade-activity-connect');
    onA.emit('orderbook-market-connect', [token]);
    await onA.expect('orderbook');
    nodeB.events.publish('last-trade-price', { marketId: market, assetId: token, price: '0.5', side: 'buy', timestampMs: 1 });
    nodeB.events.publish('trade-activity', { eventId: null, notionalUsd: 5, activity: { id: 'ta-1' } });
    nodeB.events.publish('trade-activity', { eventId: null, notionalUsd: 5, activity: { id: 'ta-2' } });
    assert.deepEqual(await onA.expect('last-trade-price'), { market, asset_id: token, price: '0.5', side: 'buy', timestamp: 1 });
    assert.deepEqual(await onA.expect('trade-activity'), { id: 'ta-1' });
    assert.deepEqual(await onA.expect('trade-activity'), { id: 'ta-2' });
  });

  it('delivers a user event published on node A to that user on node B only, exactly once', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const aliceOnB = await client(nodeB, '/user', { token: `token-of-${alice}` });
    const bobOnA = await client(nodeA, '/user', { token: `token-of-${bob}` });
    nodeA.events.publish('order-update', { userId: alice, type: 'PLACEMENT', order: { id: 'o1' } });
    nodeA.events.publish('trade-update', { userIds: [alice, bob], trade: { id: 't1' } });
    nodeA.events.publish('reward-claim-update', { userId: alice, update: { claimId: 'c1' } });
    assert.deepEqual(await aliceOnB.expect('order-update'), { type: 'PLACEMENT', order: { id: 'o1' } });
    assert.deepEqual(await aliceOnB.expect('trade-update'), { id: 't1' });
    assert.deepEqual(await aliceOnB.expect('user-reward-claim-update'), { claimId: 'c1' });
    assert.deepEqual(await bobOnA.expect('trade-update'), { id: 't1' });
    nodeA.events.publish('order-update', { userId: bob, type: 'UPDATE', order: { id: 'o2' } });
    assert.deepEqual(await bobOnA.expect('order-update'), { type: 'UPDATE', order: { id: 'o2' } });
  });

  it('closing one node leaves the other serving its clients', async () => {
    const nodeC = await startRealtimeNode({ redisUrl: REDIS_URL });
    const onC = await client(nodeC);
    const disconnected = new Promise((resolve) => onC.socket.once('disconnect', resolve));
    await nodeC.close();
    assert.equal(await disconnected, 'io server disconnect');
    const onB = await client(nodeB);
    onB.emit('orderbook-market-connect', [token]);
    await onB.expect('orderbook');
    nodeA.books.change(token, [{ price: '0.6', side: 'sell', size: '1' }]);
    assert.equal((await onB.expect('orderbook-price-change')).asset_id, token);
  });
});

describe('a Redis that cannot be reached at boot', () => {
  it('makes attachRealtime fail with a message naming it', async () => {
    await assert.rejects(startRealtimeNode({ redisUrl: 'redis://127.0.0.1:1' }), /cannot reach Redis for the real-time fan-out/);
  });
});

describe('books relayed from the node that holds them', { skip, timeout: 30_000 }, () => {
  const inboxes = new OpenInboxes();
  const nodes: RealtimeNode[] = [];
  const start = async (options: Parameters<typeof startRealtimeNode>[0]): Promise<RealtimeNode> => {
    const node = await startRealtimeNode(options);
    nodes.push(node);
    return node;
  };
  const client = (node: RealtimeNode) => inboxes.connect(node.url);
  after(async () => {
    inboxes.closeAll();
    for (const node of nodes) await node.close();
  });

  it('answers a subscription to unknown tokens on the relaying node with NOT_FOUND naming them, and REST-style fetches with undefined', async () => {
    const redisKey = `test#${randomUUID()}`;
    const source = await start({ redisUrl: REDIS_URL, redisKey });
    const relaying = await start({ redisUrl: REDIS_URL, redisKey, relayBooks: true });
    const known = tokenId(1);
    const unknown = tokenId(2);
    source.books.addToken(known);
    source.books.change(known, [{ price: '0.4', side: 'buy', size: '7' }]);
    const onB = await client(relaying);
    onB.emit('orderbook-market-connect', [known, unknown]);
    assert.deepEqual(await onB.expect('subscription-error'), { event: 'orderbook-market-connect', code: 'NOT_FOUND', message: 'unknown token ids', tokenIds: [unknown] });
    onB.emit('orderbook-market-connect', [known]);
    assert.deepEqual(await onB.expect('orderbook'), { ...source.books.snapshot(known)!, timestamp: TIMESTAMP_MS });
    assert.equal(await relaying.relay!.fetch(unknown), undefined);
    assert.deepEqual(await relaying.relay!.fetch(known), { snapshot: source.books.snapshot(known), lastTrade: null });
  });

  it('refuses with SERVICE_UNAVAILABLE when no node holds the books, and the connection stays usable', async () => {
    const relaying = await start({ redisUrl: REDIS_URL, redisKey: `test#${randomUUID()}`, relayBooks: true });
    const token = tokenId(3);
    const onB = await client(relaying);
    onB.emit('orderbook-market-connect', [token]);
    const refusal = await onB.expect('subscription-error');
    assert.deepEqual([refusal.code, refusal.tokenIds], ['SERVICE_UNAVAILABLE', [token]]);
    onB.emit('orderbook-market-connect', 'not an array');
    assert.equal((await onB.expect('subscription-error')).code, 'VALIDATION_FAILED');
    await assert.rejects(relaying.relay!.fetch(token), (error: AppError) => error.statusCode === 503 && error.code === 'SERVICE_UNAVAILABLE');
  });
});
