import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import fc from 'fast-check';
import type { LevelChange, OrderbookPriceChange } from '../../src/contract/realtime.ts';
import { applyLevelChange, bookHash, connectInbox, levels, REDIS_URL, redisReachable, startRealtimeNode, tokenId, type Inbox, type RealtimeNode } from './helpers.ts';

const levelChange: fc.Arbitrary<LevelChange> = fc.record({
  price: fc.integer({ min: 1, max: 20 }).map((ticks) => (ticks / 100).toFixed(2)),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  size: fc.oneof(fc.constant('0'), fc.integer({ min: 1, max: 1000 }).map(String)),
});

/** Book changes as the engine publishes them: each one lists one to three level changes. */
const bookChanges = fc.array(fc.array(levelChange, { minLength: 1, maxLength: 3 }), { maxLength: 30 });

const redisSkip = (await redisReachable(REDIS_URL)) ? false : `Redis unreachable at ${REDIS_URL} (set REDIS_TEST_URL): the relayed snapshots are not tested`;

/**
 * One node whose books publish the changes, or two through Redis: the changes published on node A,
 * the subscriber on node B, which holds no books and relays node A's snapshots.
 */
const setups: { name: string; skip: string | false; start(): Promise<{ source: RealtimeNode; subscriberNode: RealtimeNode; nodes: RealtimeNode[] }> }[] = [
  {
    name: 'one node',
    skip: false,
    async start() {
      const node = await startRealtimeNode();
      return { source: node, subscriberNode: node, nodes: [node] };
    },
  },
  {
    name: 'a subscriber on a node that relays the books of another',
    skip: redisSkip,
    async start() {
      // A random key keeps this cluster apart from any other test run sharing the Redis.
      const redisKey = `test#${randomUUID()}`;
      const source = await startRealtimeNode({ redisUrl: REDIS_URL, redisKey });
      const relaying = await startRealtimeNode({ redisUrl: REDIS_URL, redisKey, relayBooks: true });
      return { source, subscriberNode: relaying, nodes: [source, relaying] };
    },
  },
];

for (const setup of setups) describe(`snapshot plus stream equals the source book (${setup.name})`, { skip: setup.skip, timeout: 60_000 }, () => {
  let node: RealtimeNode;
  let subscriberUrl: string;
  let nodes: RealtimeNode[] = [];
  let nextToken = Number.parseInt(randomUUID().slice(0, 8), 16);

  before(async () => {
    const started = await setup.start();
    node = started.source;
    subscriberUrl = started.subscriberNode.url;
    nodes = started.nodes;
  });
  after(async () => {
    for (const started of nodes) await started.close();
  });

  it('whenever the subscription lands among the changes, the seq is contiguous and the applied book equals the final book', async () => {
    await fc.assert(
      fc.asyncProperty(bookChanges, fc.nat(), async (changes, split) => {
        // A fresh connection and token per run, so a failing run cannot leak into the next one
        // (or into the shrinking of its counterexample).
        const inbox = await connectInbox(subscriberUrl);
        try {
          await subscribeWhilePublishing(inbox, changes, split);
        } finally {
          inbox.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  async function subscribeWhilePublishing(inbox: Inbox, changes: LevelChange[][], split: number): Promise<void> {
    const token = tokenId(++nextToken);
    node.books.addToken(token);
    const before = split % (changes.length + 1);
    for (const change of changes.slice(0, before)) node.books.change(token, change);

    // The subscription reaches the server at some point while the rest is being published,
    // one change per event-loop turn, as the engine publishes its frames.
    inbox.emit('orderbook-market-connect', [token]);
    const publishing = (async () => {
      for (const change of changes.slice(before)) {
        await nextTurn();
        node.books.change(token, change);
      }
    })();

    const snapshot = await inbox.expect('orderbook');
    assert.equal(snapshot.asset_id, token);
    const bids = new Map(snapshot.bids.map((level) => [level.price, level.size]));
    const asks = new Map(snapshot.asks.map((level) => [level.price, level.size]));
    let seq = snapshot.seq;

    // Once everything is published, asking again ends the stream with a fresh snapshot: every
    // change sent before it is in the inbox ahead of it, and nothing is waited for that may never come.
    await publishing;
    inbox.emit('orderbook-market-connect', [token]);
    for (let message = await inbox.next(); message.event !== 'orderbook'; message = await inbox.next()) {
      assert.equal(message.event, 'orderbook-price-change');
      const update = message.payload as OrderbookPriceChange;
      assert.equal(update.seq, seq + 1, 'seq is contiguous from the snapshot');
      for (const change of update.changes) applyLevelChange(change.side === 'buy' ? bids : asks, change);
      assert.equal(update.hash, bookHash(update.market, token, levels(bids, 'buy'), levels(asks, 'sell')), 'the hash is the hash of the applied book');
      seq = update.seq;
    }

    const final = node.books.snapshot(token)!;
    assert.equal(seq, changes.length);
    assert.equal(seq, final.seq);
    assert.deepEqual(levels(bids, 'buy'), final.bids);
    assert.deepEqual(levels(asks, 'sell'), final.asks);
  }
});
