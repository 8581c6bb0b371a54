/**
 * Market makers' safety across nodes (EXTENSIONS.md sections 12 and 15), with real processes on
 * one PostgreSQL and one Redis: the deadlines are engine state, so they hold when the engine's
 * node dies with the maker, and a follower's cancel-on-disconnect sockets reach the engine's node.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { signedRequest } from '../helpers/auth-client.ts';
import { killPrograms, runProgram } from '../helpers/program.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { newTrader, orderBody, type Trader } from '../helpers/trader.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';

const skip = await severalNodesSkip();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("market makers' safety on several nodes", { skip, timeout: 180_000 }, () => {
  let cluster: SeveralNodes;
  let market: PublishedMarket;
  let nodes: ProcessServer[];

  before(async () => {
    cluster = await startSeveralNodes(2, { FAILOVER_TIMEOUT_MS: '2000', SIGNATURE_WORKERS: '0' });
    nodes = cluster.nodes;
    market = (await createPublishedEvent(nodes[0]!)).markets[0]!;
  });
  after(async () => {
    killPrograms();
    await cluster?.close();
  });

  const roleOf = async (node: ProcessServer) => {
    const answer = await fetch(`${node.url}/readyz`, { signal: AbortSignal.timeout(1_000) }).then((r) => (r.ok ? r.json() : undefined), () => undefined);
    return (answer as { role?: string } | undefined)?.role;
  };
  /** The leader and a follower among `live` (by default the last two nodes started), once their /readyz agree. */
  async function roles(live = nodes.slice(-2)): Promise<{ leader: ProcessServer; follower: ProcessServer }> {
    for (let attempt = 0; attempt < 300; attempt++) {
      const seen = await Promise.all(live.map(roleOf));
      if (seen.filter((role) => role === 'leader').length === 1 && seen.every((role) => role === 'leader' || role === 'follower')) {
        return { leader: live[seen.indexOf('leader')]!, follower: live[seen.indexOf('follower')]! };
      }
      await sleep(50);
    }
    throw new Error('no single leader among the live nodes');
  }

  /** A maker on `node` with two resting sells far from any taker. */
  async function makerWithQuotes(node: ProcessServer): Promise<{ maker: Trader; ids: string[] }> {
    const maker = await newTrader(node, { fund: '100' });
    assert.equal((await maker.call('POST', `/markets/${market.id}/split`, { amount: '10' })).status, 200);
    return { maker, ids: await quotes(node, maker) };
  }

  async function quotes(node: ProcessServer, maker: Trader): Promise<string[]> {
    const ids: string[] = [];
    for (const price of ['0.95', '0.96']) {
      const placed = await signedRequest(node, maker.creds, 'POST', '/orders', await orderBody(node, maker, { tokenId: market.tokenId1, side: 'SELL', price, size: '1' }));
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
      ids.push(placed.body.id);
    }
    return ids;
  }

  /** Polls `node` until every order is CANCELLED; the milliseconds since `sinceMs`. */
  async function cancelledAfter(node: ProcessServer, maker: Trader, ids: string[], sinceMs: number, withinMs: number): Promise<number> {
    for (;;) {
      const statuses = await Promise.all(ids.map(async (id) => (await signedRequest(node, maker.creds, 'GET', `/orders/${id}`).catch(() => undefined))?.body?.status));
      if (statuses.every((s) => s === 'CANCELLED')) return Date.now() - sinceMs;
      if (Date.now() - sinceMs > withinMs) assert.fail(`not cancelled within ${withinMs} ms: ${statuses}`);
      await sleep(50);
    }
  }

  const guard = (node: ProcessServer, maker: Trader, extra: Record<string, string>) =>
    runProgram('test/helpers/maker-program.ts', [], { PMX_URL: node.url, PMX_API_KEY: JSON.stringify(maker.creds), ...extra });

  it('the maker and the engine’s node killed at once: the heartbeat still cancels within timeoutMs + 1 s, on the node that took over', async () => {
    const { leader, follower } = await roles();
    const { maker, ids } = await makerWithQuotes(follower);
    const program = guard(follower, maker, { PMX_HEARTBEAT_MS: '5000' });
    await program.line(/guarding/);
    await sleep(1_000);
    const killedAt = Date.now();
    await Promise.all([program.crash(), leader.crash()]);
    const tookMs = await cancelledAfter(follower, maker, ids, killedAt, 8_000);
    assert.ok(tookMs <= 6_000, `cancelled ${tookMs} ms after the kills`);
    assert.equal(await roleOf(follower), 'leader');
  });

  it('a cancel-on-disconnect socket held by a follower: dropped, its orders go after the grace, through the engine’s node', async () => {
    await cluster.start();
    const { follower } = await roles();
    const { maker, ids } = await makerWithQuotes(follower);
    const program = guard(follower, maker, { PMX_CANCEL_ON_DISCONNECT: '1' });
    await program.line(/guarding/);
    await sleep(3_000);
    const live = await Promise.all(ids.map(async (id) => (await signedRequest(follower, maker.creds, 'GET', `/orders/${id}`)).body.status));
    assert.deepEqual(live, ['PENDING', 'PENDING'], 'kept while the socket lives');
    const killedAt = Date.now();
    await program.crash();
    const tookMs = await cancelledAfter(follower, maker, ids, killedAt, 4_000);
    assert.ok(tookMs >= 1_900, `cancelled ${tookMs} ms after the drop, not before its grace`);
  });

  it('the engine’s node killed: live cancel-on-disconnect sockets on the surviving nodes are named again, and their orders stay', async () => {
    await cluster.start();
    const live = nodes.slice(-3);
    const { leader } = await roles(live);
    const guarded = await Promise.all(live.filter((node) => node !== leader).map(async (node) => {
      const { maker, ids } = await makerWithQuotes(node);
      const program = guard(node, maker, { PMX_CANCEL_ON_DISCONNECT: '1' });
      await program.line(/guarding/);
      return { node, maker, ids };
    }));
    await leader.crash();
    // The takeover (about 0.7 × FAILOVER_TIMEOUT_MS), the 10 s its present nodes have to name their sockets again, and a margin.
    await sleep(13_000);
    for (const { node, maker, ids } of guarded) {
      const statuses = await Promise.all(ids.map(async (id) => (await signedRequest(node, maker.creds, 'GET', `/orders/${id}`)).body.status));
      assert.deepEqual(statuses, ['PENDING', 'PENDING'], `the socket on ${node.url} still lives`);
    }
  });

  it('a follower holding a cancel-on-disconnect socket killed with -9: the engine’s node counts the socket dropped, and the key’s next socket guards again', async () => {
    // The two nodes the test above left.
    const { leader, follower } = await roles();
    const { maker, ids } = await makerWithQuotes(follower);
    const program = guard(follower, maker, { PMX_CANCEL_ON_DISCONNECT: '1' });
    await program.line(/guarding/);
    const killedAt = Date.now();
    await follower.crash();
    await program.crash();
    // Noticed within a second (cluster/node-departures.ts), then the 2 s grace, and a margin.
    const tookMs = await cancelledAfter(leader, maker, ids, killedAt, 8_000);
    assert.ok(tookMs >= 1_900, `cancelled ${tookMs} ms after the kill, not before the grace`);
    // The dead node's socket is not left counting as a live one of the key.
    const more = await quotes(leader, maker);
    const again = guard(leader, maker, { PMX_CANCEL_ON_DISCONNECT: '1' });
    await again.line(/guarding/);
    const droppedAt = Date.now();
    await again.crash();
    await cancelledAfter(leader, maker, more, droppedAt, 6_000);
  });
});
