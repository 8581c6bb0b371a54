import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { within } from '../../src/core/within.ts';
import { signedRequest } from '../helpers/auth-client.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.ts';
import { get } from '../helpers/http.ts';
import { newTrader, orderBody, type Trader } from '../helpers/trader.ts';
import { apiKeyHandshake, connectInbox, REDIS_URL, type Inbox, type Received } from '../realtime/helpers.ts';

const skip = await severalNodesSkip();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The engine's node tells every node's subscribers what a durable record changed through Redis. A
 * leader that dies after a record is durable and before its events reached Redis (here: the
 * connection its fan-out publishes on stalls, then it is killed) took them with it; the node that
 * takes the engine over followed the journal, knows which records the old leader was heard
 * announcing, and announces the rest (EXTENSIONS.md section 12: the `/user` feed carries the
 * matching updates). A clean handover has nothing to announce again.
 */
describe('events of records the dead leader never announced', { skip, timeout: 120_000 }, () => {
  let cluster: SeveralNodes;
  let leaderRedis: TcpCut;
  let leader: ProcessServer;
  let standby: ProcessServer;
  let third: ProcessServer;
  const feeds: Inbox[] = [];
  let trader: Trader;
  let tokenId: string;

  before(async () => {
    const redis = new URL(REDIS_URL);
    leaderRedis = await tcpCut(redis.hostname, Number(redis.port || 6379));
    cluster = await startSeveralNodes(0, { SIGNATURE_WORKERS: '0', FAILOVER_TIMEOUT_MS: '2000' });
    leader = await cluster.start({ REDIS_URL: `redis://127.0.0.1:${leaderRedis.port}${redis.pathname}` });
    standby = await cluster.start();
  });
  after(async () => {
    for (const feed of feeds) feed.close();
    // Its Redis may be stalled still (a stop would wait for it).
    await leader?.crash();
    await cluster?.close();
    await leaderRedis?.close();
  });

  /** A `/user` feed of the trader on `node`, and every message it received. */
  async function feedOn(node: ProcessServer): Promise<{ feed: Inbox; received: Received[] }> {
    const feed = await connectInbox(node.url, '/user', await apiKeyHandshake(node, trader.creds));
    feeds.push(feed);
    const received: Received[] = [];
    feed.socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
    return { feed, received };
  }

  async function updateOf(feed: Inbox, orderId: string, withinMs: number): Promise<Received> {
    const found = (async () => {
      for (;;) {
        const message = await feed.next();
        if (message.event === 'order-update' && message.payload.order.id === orderId) return message;
      }
    })();
    return within(found, withinMs, () => {
      throw new Error(`no order-update of ${orderId} within ${withinMs} ms`);
    });
  }

  const placements = (received: Received[], id: string) => received.filter((m) => m.event === 'order-update' && m.payload.order.id === id).length;
  const buy = async (node: ProcessServer, price: string) => signedRequest(node, trader.creds, 'POST', '/orders', await orderBody(node, trader, { tokenId, side: 'BUY', size: '5', price }));

  it('are announced by the node that takes over, and the ones it heard are not announced again', async () => {
    const { markets } = await createPublishedEvent(leader);
    tokenId = markets[0]!.tokenId1;
    trader = await newTrader(standby, { fund: '100' });
    const { feed, received } = await feedOn(standby);

    // Heard: the leader announced it through Redis, the standby's socket got it.
    const heard = await buy(standby, '0.3');
    assert.equal(heard.status, 200, JSON.stringify(heard.body));
    const heardUpdate = await updateOf(feed, heard.body.id, 10_000);
    assert.equal(heardUpdate.payload.type, 'PLACEMENT');

    // Durable, answered, and never announced: nothing the leader sends reaches Redis any more.
    leaderRedis.stall('pmx:real-time-fan-out-publisher');
    const lost = await buy(standby, '0.31');
    assert.equal(lost.status, 200, JSON.stringify(lost.body));
    await sleep(500);
    assert.equal(placements(received, lost.body.id), 0, 'the stalled leader announced the order');
    await leader.crash();

    const update = await updateOf(feed, lost.body.id, 20_000);
    assert.equal(update.payload.type, 'PLACEMENT');
    // As it would have gone out: the feed's shape, the order as the API shows it (nothing changed it since).
    assert.deepEqual(Object.keys(update.payload.order).sort(), Object.keys(heardUpdate.payload.order).sort());
    const { marketInfo: _, ...shown } = (await trader.call('GET', `/orders/${lost.body.id}`)).body;
    assert.deepEqual(update.payload.order, shown);
    // The engine's new node leads and its own events follow.
    const next = await buy(standby, '0.32');
    assert.equal(next.status, 200, JSON.stringify(next.body));
    await updateOf(feed, next.body.id, 10_000);
    assert.deepEqual([placements(received, heard.body.id), placements(received, lost.body.id), placements(received, next.body.id)], [1, 1, 1]);
  });

  it('a clean handover announces nothing again', async () => {
    third = await cluster.start();
    const { feed, received } = await feedOn(third);
    const before = await buy(third, '0.33');
    assert.equal(before.status, 200, JSON.stringify(before.body));
    await updateOf(feed, before.body.id, 10_000);

    // The engine's node stops cleanly: its last announcements reach Redis before the lease is free.
    await standby.stop();
    for (let attempt = 0; (await get(`${third.url}/readyz`)).body.role !== 'leader'; attempt++) {
      assert.ok(attempt < 100, 'the third node never took the engine over');
      await sleep(100);
    }
    const after = await buy(third, '0.34');
    assert.equal(after.status, 200, JSON.stringify(after.body));
    await updateOf(feed, after.body.id, 10_000);
    assert.deepEqual([placements(received, before.body.id), placements(received, after.body.id)], [1, 1]);
  });
});
