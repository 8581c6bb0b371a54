import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OpenInboxes } from '../helpers/open-inboxes.ts';
import { connectInbox, refusedConnection, startRealtimeNode, testVerifier, tokenId, type RealtimeNode } from './helpers.ts';

const ALICE = 'a11ce000-0000-4000-8000-000000000001';
const BOB = 'b0b00000-0000-4000-8000-000000000002';
const CAROL = 'ca201000-0000-4000-8000-000000000003';

const order = (id: string) => ({ id, status: 'PENDING' });
const trade = (id: string, status = 'MATCHED') => ({ id, status });
const claim = (claimId: string) => ({ claimId, state: 'dispatched', amountUsdc: '5', timestamp: 1_700_000_000_000 });

describe('/user namespace', { timeout: 20_000 }, () => {
  let node: RealtimeNode;
  const inboxes = new OpenInboxes();
  const userClient = (userId: string) => inboxes.connect(node.url, '/user', { token: `token-of-${userId}` });

  before(async () => {
    node = await startRealtimeNode({
      handshake: {
        // The test verifier, plus a token that makes it fail the way a lost database would.
        async verify(auth, connectionId) {
          if ((auth as { token?: unknown }).token === 'crash') throw new Error('database connection lost at 10.0.0.7');
          return testVerifier.verify(auth, connectionId);
        },
      },
    });
  });
  after(async () => {
    inboxes.closeAll();
    await node.close();
  });

  it('accepts a handshake the verifier accepts', async () => {
    const inbox = await userClient(ALICE);
    assert.equal(inbox.socket.connected, true);
  });

  const refused: [string, Record<string, unknown> | undefined][] = [
    ['no auth at all', undefined],
    ['an empty auth object', {}],
    ['a wrong token', { token: 'someone-else' }],
    ['API-key fields the verifier refuses', { apiKey: 'k', passphrase: 'p', timestamp: '1', signature: 's' }],
  ];
  for (const [name, auth] of refused) {
    it(`refuses ${name} with a connect error carrying code UNAUTHORIZED`, async () => {
      const error = await refusedConnection(node.url, '/user', auth);
      assert.equal(error.message, 'invalid session token');
      assert.deepEqual(error.data, { code: 'UNAUTHORIZED' });
    });
  }

  it('refuses with a generic message when the verifier fails unexpectedly, and logs the details', async () => {
    const error = await refusedConnection(node.url, '/user', { token: 'crash' });
    assert.equal(error.message, 'authentication failed');
    assert.deepEqual(error.data, { code: 'UNAUTHORIZED' });
    assert.ok(node.logger.entries.some((entry) => entry.level === 'error' && entry.message.includes('/user handshake')));
  });

  it('sends order-update {type, order} to its user only', async () => {
    const alice = await userClient(ALICE);
    const bob = await userClient(BOB);
    node.events.publish('order-update', { userId: BOB, type: 'PLACEMENT', order: order('o1') });
    node.events.publish('order-update', { userId: ALICE, type: 'CANCELLATION', order: order('o2') });
    assert.deepEqual(await alice.expect('order-update'), { type: 'CANCELLATION', order: order('o2') });
    assert.deepEqual(await bob.expect('order-update'), { type: 'PLACEMENT', order: order('o1') });
  });

  it('sends trade-update to every party of the trade, once each, and to no one else', async () => {
    const alice = await userClient(ALICE);
    const bob = await userClient(BOB);
    const carol = await userClient(CAROL);
    node.events.publish('trade-update', { userIds: [ALICE, BOB], trade: trade('t1') });
    node.events.publish('trade-update', { userIds: [ALICE, ALICE], trade: trade('t2') });
    node.events.publish('trade-update', { userIds: [], trade: trade('t3') });
    node.events.publish('trade-update', { userIds: [CAROL], trade: trade('t4', 'CONFIRMED') });
    node.events.publish('trade-update', { userIds: [BOB], trade: trade('t5') });
    assert.deepEqual(await alice.expect('trade-update'), trade('t1'));
    assert.deepEqual(await alice.expect('trade-update'), trade('t2'));
    assert.deepEqual(await bob.expect('trade-update'), trade('t1'));
    assert.deepEqual(await bob.expect('trade-update'), trade('t5'));
    assert.deepEqual(await carol.expect('trade-update'), trade('t4', 'CONFIRMED'));
    // Nothing else reached Alice: the next event she receives is this one.
    node.events.publish('order-update', { userId: ALICE, type: 'UPDATE', order: order('o3') });
    assert.equal((await alice.next()).event, 'order-update');
  });

  it('sends user-reward-claim-update to its user only', async () => {
    const alice = await userClient(ALICE);
    const bob = await userClient(BOB);
    node.events.publish('reward-claim-update', { userId: ALICE, update: claim('c1') });
    node.events.publish('reward-claim-update', { userId: BOB, update: claim('c2') });
    assert.deepEqual(await bob.expect('user-reward-claim-update'), claim('c2'));
    assert.deepEqual(await alice.expect('user-reward-claim-update'), claim('c1'));
  });

  it('reaches every connection of a user', async () => {
    const first = await userClient(BOB);
    const second = await userClient(BOB);
    node.events.publish('order-update', { userId: BOB, type: 'UPDATE', order: order('o4') });
    assert.deepEqual(await first.expect('order-update'), { type: 'UPDATE', order: order('o4') });
    assert.deepEqual(await second.expect('order-update'), { type: 'UPDATE', order: order('o4') });
  });

  it('keeps user events off the public namespace and market events off /user', async () => {
    const token = tokenId(7);
    node.books.addToken(token);
    const alice = await userClient(ALICE);
    const publicClient = await inboxes.connect(node.url);
    publicClient.emit('trade-activity-connect');
    // Answered after the request before it, so both subscriptions hold from here on.
    publicClient.emit('orderbook-market-connect', [token]);
    await publicClient.expect('orderbook');
    node.events.publish('order-update', { userId: ALICE, type: 'PLACEMENT', order: order('o5') });
    node.books.change(token, [{ price: '0.5', side: 'buy', size: '1' }]);
    node.events.publish('trade-activity', { eventId: null, notionalUsd: 100, activity: { id: 'x' } });
    node.events.publish('order-update', { userId: ALICE, type: 'UPDATE', order: order('o6') });
    assert.deepEqual(await alice.expect('order-update'), { type: 'PLACEMENT', order: order('o5') });
    assert.deepEqual(await alice.expect('order-update'), { type: 'UPDATE', order: order('o6') });
    assert.equal((await publicClient.expect('orderbook-price-change')).asset_id, token);
    assert.deepEqual(await publicClient.expect('trade-activity'), { id: 'x' });
  });
});

describe('a failing fan-out', { timeout: 20_000 }, () => {
  it('is logged and never thrown back into the publisher', async () => {
    const node = await startRealtimeNode();
    try {
      const alice = await connectInbox(node.url, '/user', { token: `token-of-${ALICE}` });
      // A payload Socket.IO cannot serialise makes the emit throw inside the bus listener.
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      assert.doesNotThrow(() => node.events.publish('order-update', { userId: ALICE, type: 'UPDATE', order: circular }));
      assert.ok(node.logger.entries.some((entry) => entry.level === 'error' && entry.message === 'real-time fan-out failed'));
      node.events.publish('order-update', { userId: ALICE, type: 'UPDATE', order: order('after') });
      assert.deepEqual(await alice.expect('order-update'), { type: 'UPDATE', order: order('after') });
      alice.close();
    } finally {
      await node.close();
    }
  });
});
