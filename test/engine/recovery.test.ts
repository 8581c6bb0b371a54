import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { durableStore } from '../helpers/database.ts';
import { get } from '../helpers/http.ts';
import { startProcessServer, type ProcessServer } from '../helpers/process-server.ts';
import { newTrader, orderBody, type Trader } from '../helpers/trader.ts';
import { BUILT_CLI, ensureBuild } from '../helpers/build.ts';

/** Every open order of a user, from the API. */
async function openOrders(trader: Trader): Promise<{ id: string; tokenId: string; side: number; price: number; amount: number; matchedAmount: number }[]> {
  const rows = [];
  for (const status of ['PENDING', 'EXECUTING']) rows.push(...(await trader.call('GET', `/orders?status=${status}`)).body);
  return rows;
}

/** The token-1 book an independent reader rebuilds from the open orders (display units, 2 decimals). */
function bookFromOrders(orders: Awaited<ReturnType<typeof openOrders>>, tokenId1: string): { bids: Map<string, number>; asks: Map<string, number> } {
  const bids = new Map<string, number>();
  const asks = new Map<string, number>();
  for (const order of orders) {
    const remaining = Math.round((order.amount - order.matchedAmount) * 1e6);
    const onToken1 = order.tokenId === tokenId1;
    const price = onToken1 ? order.price : 1 - order.price;
    const isBid = onToken1 === (order.side === 0);
    const side = isBid ? bids : asks;
    const key = price.toFixed(2);
    side.set(key, (side.get(key) ?? 0) + remaining);
  }
  return { bids, asks };
}

const levelsOf = (levels: { price: string; size: string }[]) => new Map(levels.map((l) => [Number(l.price).toFixed(2), Math.round(Number(l.size) * 1e6)]));

describe('recovery: kill -9 in the middle of order flow loses nothing acknowledged', () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ env, cleanup } = await durableStore('pmx-recovery-'));
    // On PostgreSQL the killed node's lease would stay live for 72 s, longer than a start may take:
    // the restarted node, on the same host and port, must take it over at once.
    env.FAILOVER_TIMEOUT_MS = '120000';
  });
  after(async () => cleanup());

  it('keeps acknowledged orders and fills, rebuilds the books exactly, and the audit passes', { timeout: 180_000 }, async () => {
    let server: ProcessServer = await startProcessServer(env);
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const traders = [await newTrader(server, { fund: '100000' }), await newTrader(server, { fund: '100000' })];
    const bodies = await Promise.all(
      Array.from({ length: 120 }, (_, i) => {
        const trader = traders[i % 2]!;
        const buyYes = i % 4 < 2;
        const price = (0.4 + ((i * 7) % 20) / 100).toFixed(2);
        return orderBody(server, trader, { tokenId: buyYes ? market.tokenId1 : market.tokenId2, side: 'BUY', price, size: String(1 + (i % 5)), signed: i % 3 === 0 }).then((body) => ({ trader, body }));
      }),
    );

    const acknowledged: { trader: Trader; id: string; matchedAmount: number }[] = [];
    const answers: number[] = [];
    let crashed: Promise<void> | undefined;
    await Promise.all(
      bodies.map(async ({ trader, body }) => {
        const response = await trader.call('POST', '/orders', body).catch(() => undefined);
        // A kill -9 answers nothing: every answer that arrives is an acknowledgement (signed or not).
        if (response !== undefined) answers.push(response.status);
        if (response?.status === 200) acknowledged.push({ trader, id: response.body.id, matchedAmount: response.body.matchedAmount });
        if (acknowledged.length === 60 && !crashed) crashed = server.crash();
      }),
    );
    await crashed;
    assert.deepEqual(answers.filter((status) => status !== 200), [], 'every order answered before the crash was acknowledged');
    assert.ok(acknowledged.length >= 60, `only ${acknowledged.length} orders were acknowledged before the crash`);

    server = await startProcessServer(env, server.port);
    try {
      for (const ack of acknowledged) {
        const order = await ack.trader.call('GET', `/orders/${ack.id}`);
        assert.equal(order.status, 200, `acknowledged order ${ack.id} is gone after the crash`);
        assert.ok(order.body.matchedAmount >= ack.matchedAmount, `order ${ack.id} lost fills`);
      }
      const open = [...(await openOrders(traders[0]!)), ...(await openOrders(traders[1]!))];
      const expected = bookFromOrders(open, market.tokenId1);
      const book = (await get(server.api(`/order-book/book?token_id=${market.tokenId1}`))).body;
      assert.deepEqual(levelsOf(book.bids), expected.bids);
      assert.deepEqual(levelsOf(book.asks), expected.asks);
    } finally {
      await server.stop();
    }

    ensureBuild();
    const audit = spawnSync(process.execPath, [BUILT_CLI, 'audit'], { env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
    assert.equal(audit.status, 0, `audit failed:\n${audit.stdout}\n${audit.stderr}`);
  });
});
