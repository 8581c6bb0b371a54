/**
 * Several nodes without a single point of failure (EXTENSIONS.md section 12), with real processes
 * on one PostgreSQL and one Redis: the node running the engine is killed over and over under
 * order flow sent to every node, frozen and thawed, and watched from a follower's book feed.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import { auditExchange } from '../../src/cli/audit-exchange.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { get, type JsonResponse } from '../helpers/http.ts';
import { hmacHeaders, signedRequest } from '../helpers/auth-client.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { newTrader, orderBody, type Trader } from '../helpers/trader.ts';
import { applyLevelChange, connectInbox, levels, type Inbox } from '../realtime/helpers.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';

const skip = await severalNodesSkip();

const FAILOVER_TIMEOUT_MS = 2_000;
const KILLS = Number(process.env.FAILOVER_KILLS ?? 20);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A read as a client makes it: a 503 (a node whose tables are still catching up with the journal
 * past the reads' bound, EXTENSIONS.md section 12) is asked again after its Retry-After, for at
 * most 30 s. Answers other than 503 are the test's to judge.
 */
async function served(read: () => Promise<JsonResponse>): Promise<JsonResponse> {
  const until = Date.now() + 30_000;
  for (;;) {
    const answer = await read();
    if (answer.status !== 503 || Date.now() > until) return answer;
    await sleep(1_000 * Number(answer.headers.get('retry-after') ?? 1));
  }
}

/** An order this test was answered 2xx for, and what the answers said. */
interface Acknowledged {
  id: string;
  trader: Trader;
  matchedAmount: number;
  /** A cancel of it was answered 2xx (or it was answered CANCELLED, a FOK or FAK rest). */
  cancelled: boolean;
  /** Last seen neither PENDING nor EXECUTING: nothing left to cancel. */
  closed: boolean;
  /** Checked after a takeover already (later checks look at a sample of these). */
  checked: boolean;
}

describe('three nodes on one PostgreSQL and one Redis', { skip, timeout: 20 * 60_000 }, () => {
  let cluster: SeveralNodes;
  let store: Store;
  let market: PublishedMarket;
  let traders: Trader[];
  /** The three nodes, running or not: a node restarted takes the place of the one it replaces. */
  const nodes: ProcessServer[] = [];
  const acknowledged = new Map<string, Acknowledged>();
  const inboxes: Inbox[] = [];

  before(async () => {
    cluster = await startSeveralNodes(3, { FAILOVER_TIMEOUT_MS: String(FAILOVER_TIMEOUT_MS), SIGNATURE_WORKERS: '0' });
    nodes.push(...cluster.nodes);
    store = await openStore({ databaseUrl: cluster.env.DATABASE_URL, dataDir: 'memory://' });
    market = (await createPublishedEvent(nodes[0]!)).markets[0]!;
    traders = await Promise.all(nodes.map((node) => newTrader(node, { fund: '1000000' })));
  });
  after(async () => {
    for (const inbox of inboxes) inbox.close();
    await store?.close();
    await cluster?.close();
  });

  /** GET /readyz of a node: its role when ready, undefined when not ready or not answering. */
  const roleOf = async (node: ProcessServer): Promise<string | undefined> => {
    const answer = await fetch(`${node.url}/readyz`, { signal: AbortSignal.timeout(1_000) }).then((r) => (r.ok ? r.json() : undefined), () => undefined);
    return (answer as { role?: string } | undefined)?.role;
  };

  /** The node whose /readyz says leader, once exactly one does. */
  async function leader(candidates: ProcessServer[]): Promise<ProcessServer> {
    for (let attempt = 0; attempt < 300; attempt++) {
      const roles = await Promise.all(candidates.map(roleOf));
      const leaders = candidates.filter((_, i) => roles[i] === 'leader');
      if (leaders.length === 1) return leaders[0]!;
      await sleep(50);
    }
    throw new Error('no single leader among the nodes');
  }

  /** A resting BUY far from the others' prices (no trade), or one that crosses the book. */
  async function place(node: ProcessServer, trader: Trader, crossing: boolean): Promise<Acknowledged | undefined> {
    const token = randomInt(2) === 0 ? market.tokenId1 : market.tokenId2;
    const price = crossing ? (0.6 + randomInt(5) / 100).toFixed(2) : (0.3 + randomInt(10) / 100).toFixed(2);
    // The node may be killed at any moment: any request to it may fail, the order is then not placed.
    const body = await orderBody(node, trader, { tokenId: token, side: 'BUY', price, size: String(1 + randomInt(5)), signed: randomInt(4) === 0 }).catch(() => undefined);
    const answer = body && (await signedRequest(node, trader.creds, 'POST', '/orders', body).catch(() => undefined));
    if (answer?.status !== 200) return undefined;
    const cancelled = answer.body.status === 'CANCELLED';
    const ack: Acknowledged = { id: answer.body.id, trader, matchedAmount: answer.body.matchedAmount, cancelled, closed: cancelled || answer.body.status === 'EXECUTED', checked: false };
    acknowledged.set(ack.id, ack);
    return ack;
  }

  /** A split of one unit, or a merge of everything mergeable back: balances moved through the engine's node. */
  async function moveBalances(node: ProcessServer, trader: Trader): Promise<void> {
    const [path, body] = randomInt(2) === 0 ? [`/markets/${market.id}/split`, { amount: '1' }] : ['/markets/merge-positions/batch', { marketIds: [market.id] }];
    await signedRequest(node, trader.creds, 'POST', path, body).catch(() => undefined);
  }

  async function cancel(node: ProcessServer, ack: Acknowledged): Promise<void> {
    const answer = await signedRequest(node, ack.trader.creds, 'POST', `/orders/${ack.id}/cancel`).catch(() => undefined);
    if (answer?.status === 200) ack.cancelled = ack.closed = true;
  }

  /**
   * Order flow through every running node until `stop` resolves, each trader one command at a
   * time, about 20 a second: places (1 in 10 crossing) and cancels of its open orders, nearly as
   * many, so the books stay a few hundred orders deep over the whole run; 1 in 20 is a split or
   * a merge instead, which the engine's node makes in its batches too.
   */
  async function orderFlow(running: () => ProcessServer[], stop: Promise<void>): Promise<void> {
    let stopped = false;
    void stop.then(() => (stopped = true));
    await Promise.all(traders.map(async (trader) => {
      while (!stopped) {
        const targets = running();
        const node = targets[randomInt(targets.length)]!;
        const open = [...acknowledged.values()].filter((a) => a.trader === trader && !a.closed);
        const dice = randomInt(100);
        if (dice < 5) await moveBalances(node, trader);
        else if (open.length > 0 && dice < 50) await cancel(node, open[randomInt(open.length)]!);
        else await place(node, trader, randomInt(10) === 0);
        await sleep(50);
      }
    }));
  }

  /**
   * Every order and cancel acknowledged since the last check is there (and a sample of the older
   * ones, checked before), and every node's book is exactly the open orders.
   */
  async function expectNothingLost(running: ProcessServer[]): Promise<void> {
    const older = [...acknowledged.values()].filter((ack) => ack.checked);
    const sample = [...acknowledged.values()].filter((ack) => !ack.checked || randomInt(older.length) < 50);
    for (const ack of sample) {
      const node = running[randomInt(running.length)]!;
      const answer = await served(() => signedRequest(node, ack.trader.creds, 'GET', `/orders/${ack.id}`));
      assert.equal(answer.status, 200, `acknowledged order ${ack.id} exists`);
      assert.ok(answer.body.matchedAmount >= ack.matchedAmount, `fills of ${ack.id} kept`);
      if (ack.cancelled) assert.equal(answer.body.status, 'CANCELLED', `cancel of ${ack.id} kept`);
      ack.matchedAmount = answer.body.matchedAmount;
      ack.closed = answer.body.status !== 'PENDING' && answer.body.status !== 'EXECUTING';
      ack.checked = true;
    }
    const expected = await bookOfOpenOrders(running[0]!);
    for (const node of running) {
      const book = (await served(() => get(node.api(`/order-book/book?token_id=${market.tokenId1}`)))).body;
      const levelsOf = (side: { price: string; size: string }[]) => side.map(({ price, size }) => ({ price, size }));
      assert.deepEqual({ bids: levelsOf(book.bids), asks: levelsOf(book.asks) }, expected, `the book on ${node.url} is the open orders`);
    }
  }

  /** Token 1's book as the open orders make it: BUY token 2 at q is an ask at 1 − q. */
  async function bookOfOpenOrders(node: ProcessServer): Promise<{ bids: { price: string; size: string }[]; asks: { price: string; size: string }[] }> {
    const bids = new Map<string, string>();
    const asks = new Map<string, string>();
    const add = (side: Map<string, string>, priceMicros: number, sizeMicros: number) => {
      const price = String(priceMicros / 1e6);
      side.set(price, String((Math.round(Number(side.get(price) ?? 0) * 1e6) + sizeMicros) / 1e6));
    };
    for (const trader of traders) {
      for (const order of await openOrders(node, trader)) {
        const remaining = Math.round((order.amount - order.matchedAmount) * 1e6);
        const price = Number(order.priceUint);
        const onToken1 = order.tokenId === market.tokenId1;
        if (onToken1 === (order.side === 0)) add(bids, onToken1 ? price : 1e6 - price, remaining);
        else add(asks, onToken1 ? price : 1e6 - price, remaining);
      }
    }
    return { bids: levels(bids, 'buy'), asks: levels(asks, 'sell') };
  }

  interface OpenOrder { tokenId: string; side: number; priceUint: string; amount: number; matchedAmount: number }

  /** Every open order of the trader (PENDING or EXECUTING), page by page. */
  async function openOrders(node: ProcessServer, trader: Trader): Promise<OpenOrder[]> {
    const orders: OpenOrder[] = [];
    let cursor: string | null = null;
    do {
      const page = (await served(() => signedRequest(node, trader.creds, 'GET', `/orders/paginated?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`))).body as { data: OpenOrder[]; nextCursor: string | null };
      orders.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    return orders;
  }

  /** The ledger audit, read in one snapshot of the database. */
  async function expectAuditClean(): Promise<void> {
    const report = await auditExchange(store.db);
    assert.ok(report.ok, `ledger audit: ${JSON.stringify(report.violations, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }

  it(`keeps every acknowledged order, cancel and fill across ${KILLS} kills of the engine's node, and serves orders again within the failover timeout`, async () => {
    const running = new Set(nodes);
    const restarts: Promise<void>[] = [];
    const recoveryMs: number[] = [];
    for (let kill = 1; kill <= KILLS; kill++) {
      // Two nodes at least: a restarting node joins before the next kill if it must.
      if (running.size < 2) await Promise.all(restarts.splice(0));
      const victim = await leader([...running]);
      let endFlow!: () => void;
      const flow = orderFlow(() => [...running], new Promise<void>((resolve) => (endFlow = resolve)));
      await sleep(200 + randomInt(400));
      running.delete(victim);
      const killedAt = performance.now();
      await victim.crash();
      const survivor = [...running][randomInt(running.size)]!;
      while (!(await place(survivor, traders[kill % traders.length]!, false))) await sleep(25);
      recoveryMs.push(performance.now() - killedAt);
      endFlow();
      await flow;
      await expectNothingLost([...running]);
      if (kill % 5 === 0) await expectAuditClean();
      const index = nodes.indexOf(victim);
      restarts.push(cluster.start({}, victim.port).then((node) => {
        nodes[index] = node;
        running.add(node);
      }));
    }
    await Promise.all(restarts);
    await expectNothingLost([...running]);
    await expectAuditClean();
    const sorted = [...recoveryMs].sort((a, b) => a - b);
    const p50 = sorted[Math.floor(sorted.length / 2)]!;
    console.log(`kill -9 of the engine's node to the first acknowledged order, ${KILLS} kills, FAILOVER_TIMEOUT_MS=${FAILOVER_TIMEOUT_MS}: p50 ${p50.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`);
    assert.ok(acknowledged.size >= 2 * KILLS, 'orders flowed through the kills, not only the probes after them');
  });

  it('a frozen engine node that thaws after a takeover writes nothing and passes commands on', async () => {
    const frozen = await leader(nodes);
    const others = nodes.filter((node) => node !== frozen);
    frozen.pause();
    try {
      const successor = await leader(others);
      // A command that reaches the frozen node while it is frozen (it sits in the socket buffer).
      const trader = traders[0]!;
      const body = JSON.stringify(await orderBody(successor, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.31', size: '1', signed: false }));
      const exchange = (await get(successor.api('/exchange'))).body;
      const headers = { ...hmacHeaders(trader.creds, 'POST', '/api/v1/orders', body, { timestampMs: exchange.serverTime }), 'content-type': 'application/json' };
      const sentWhileFrozen = fetch(frozen.api('/orders'), { method: 'POST', headers, body });
      assert.ok(await place(successor, trader, false), 'the successor takes orders');
      frozen.resume();
      const answer = await sentWhileFrozen;
      const answered = (await answer.json()) as { id?: string; code?: string };
      if (answer.status === 200) {
        // Passed on to the successor: it has the order.
        assert.equal((await signedRequest(successor, trader.creds, 'GET', `/orders/${answered.id}`)).status, 200);
        acknowledged.set(answered.id!, { id: answered.id!, trader, matchedAmount: 0, cancelled: false, closed: false, checked: false });
      } else {
        assert.deepEqual([answer.status, answered.code, answer.headers.has('retry-after')], [503, 'SERVICE_UNAVAILABLE', true]);
      }
      for (let i = 0; i < 100 && (await roleOf(frozen)) !== 'follower'; i++) await sleep(50);
      assert.equal(await roleOf(frozen), 'follower');
      // A client retries a 503 with Retry-After (the deposed node may still be catching up on the journal).
      let passedOn: Acknowledged | undefined;
      for (let i = 0; i < 20 && !passedOn; i++) {
        passedOn = await place(frozen, trader, false);
        if (!passedOn) await sleep(250);
      }
      assert.ok(passedOn, 'the thawed node passes orders on');
      const metrics = await (await fetch(`${frozen.url}/metrics`)).text();
      assert.match(metrics, /^pmx_engine_leader 0$/m);
      assert.match(metrics, /^pmx_engine_leadership_changes [1-9]/m, 'it had the engine, and lost it');
      assert.match(metrics, /^pmx_forwarded_commands_total\{outcome="answered"\} [1-9]/m);
      await expectNothingLost(nodes);
      await expectAuditClean();
    } finally {
      frozen.resume();
    }
  });

  it("a follower passes balance moves to the engine's node, which makes them in its batches", async () => {
    const engineNode = await leader(nodes);
    const follower = nodes.find((node) => node !== engineNode)!;
    const trader = traders[2]!;
    const passedOn = async () => Number((await (await fetch(`${follower.url}/metrics`)).text()).match(/^pmx_forwarded_commands_total\{outcome="answered"\} (\d+)$/m)?.[1] ?? 0);
    const tokens = async () => {
      const balance = (await signedRequest(engineNode, trader.creds, 'GET', '/account/balance')).body as { tokens: { tokenId: string; balance: string }[] };
      return balance.tokens.find((t) => t.tokenId === market.tokenId1)?.balance ?? '0';
    };
    const before = { passedOn: await passedOn(), tokens: Number(await tokens()) };
    const split = await signedRequest(follower, trader.creds, 'POST', `/markets/${market.id}/split`, { amount: '2' });
    assert.equal(split.status, 200, JSON.stringify(split.body));
    assert.equal(Number(await tokens()), before.tokens + 2, 'read on the engine node at once');
    const tooMuch = await signedRequest(follower, trader.creds, 'POST', `/markets/${market.id}/split`, { amount: '1000000000' });
    assert.deepEqual([tooMuch.status, tooMuch.body.code], [400, 'INSUFFICIENT_BALANCE'], 'the engine node refuses it alone; nothing moved');
    assert.equal(Number(await tokens()), before.tokens + 2);
    assert.equal(await passedOn(), before.passedOn + 2);
    await expectAuditClean();
  });

  it("what the engine's node answered, a follower's reads show at once: the order, its reservation, and a cancel", async () => {
    const engineNode = await leader(nodes);
    const follower = nodes.find((node) => node !== engineNode)!;
    const trader = traders[1]!;
    const lockedMicros = async () => Math.round(Number(((await signedRequest(follower, trader.creds, 'GET', '/account/balance')).body as { collateral: { locked: string } }).collateral.locked) * 1e6);
    // Read your writes across nodes (EXTENSIONS.md section 12): a read sent to another node right
    // after the answer reads the tables, which must already hold what was answered.
    for (let i = 0; i < 10; i++) {
      const lockedBefore = await lockedMicros();
      const body = await orderBody(engineNode, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.05', size: '2' });
      const placed = await signedRequest(engineNode, trader.creds, 'POST', '/orders', body);
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
      const read = await signedRequest(follower, trader.creds, 'GET', `/orders/${placed.body.id}`);
      assert.deepEqual([read.status, read.body.status], [200, 'PENDING'], `order ${i} on the follower`);
      assert.equal(await lockedMicros(), lockedBefore + 100_000, `the reservation of order ${i} on the follower`);
      const cancelled = await signedRequest(engineNode, trader.creds, 'POST', `/orders/${placed.body.id}/cancel`);
      assert.equal(cancelled.body.status, 'CANCELLED');
      assert.equal((await signedRequest(follower, trader.creds, 'GET', `/orders/${placed.body.id}`)).body.status, 'CANCELLED', `cancel ${i} on the follower`);
    }
  });

  it("a book subscriber on a follower sees the takeover as a fresh snapshot, and its book follows the new engine's changes", async () => {
    const engineNode = await leader(nodes);
    const follower = nodes.find((node) => node !== engineNode)!;
    const feed = await connectInbox(follower.url);
    inboxes.push(feed);
    feed.emit('orderbook-market-connect', [market.tokenId1]);
    await feed.expect('orderbook');

    const index = nodes.indexOf(engineNode);
    await engineNode.crash();
    let resync = await feed.next();
    while (resync.event !== 'orderbook') resync = await feed.next();
    const bids = new Map<string, string>(resync.payload.bids.map((l: { price: string; size: string }) => [l.price, l.size]));
    const asks = new Map<string, string>(resync.payload.asks.map((l: { price: string; size: string }) => [l.price, l.size]));

    // The snapshot goes out before the new engine takes its first command: until then, 503s.
    const survivors = nodes.filter((node) => node !== engineNode);
    while (!(await place(survivors[0]!, traders[1]!, false))) await sleep(25);
    // The order may trade with one the tests before left resting: its last trade price can come
    // first, since book changes go out in frames (BOOK_FRAME_MS).
    let next = await feed.next();
    while (next.event === 'last-trade-price') next = await feed.next();
    assert.equal(next.event, 'orderbook-price-change', JSON.stringify(next));
    const change = next.payload;
    assert.equal(change.seq, resync.payload.seq + 1, 'the new engine continues from the snapshot');
    for (const level of change.changes) applyLevelChange(level.side === 'buy' ? bids : asks, level);
    const rest = (await get(follower.api(`/order-book/book?token_id=${market.tokenId1}`))).body;
    const priceAndSize = (side: { price: string; size: string }[]) => side.map(({ price, size }) => ({ price, size }));
    assert.deepEqual({ bids: levels(bids, 'buy'), asks: levels(asks, 'sell'), hash: change.hash }, { bids: priceAndSize(rest.bids), asks: priceAndSize(rest.asks), hash: rest.hash });
    nodes[index] = await cluster.start({}, engineNode.port);
  });
});
