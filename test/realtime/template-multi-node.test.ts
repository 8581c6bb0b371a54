import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get, post } from '../helpers/http.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { newTrader, placeOrder } from '../helpers/trader.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';

const skip = await severalNodesSkip();

const QUARTER_MS = 900_000;

/**
 * Two server processes on one PostgreSQL, both ticking the same template at the same moments (each
 * with its manual clock set to the same time): every period gets exactly one market, whichever node
 * wins, and the engine node trades markets the other node published.
 */
describe('a template ticked by two nodes at once', { skip, timeout: 180_000 }, () => {
  let cluster: SeveralNodes;
  let nodeA: ProcessServer;
  let nodeB: ProcessServer;

  before(async () => {
    cluster = await startSeveralNodes(2, { CLOCK: 'manual' });
    [nodeA, nodeB] = cluster.nodes as [ProcessServer, ProcessServer];
  });
  after(async () => {
    await cluster?.close();
  });

  it('publishes each period once, with no gap, across both nodes', async () => {
    const now = (await get(nodeA.api('/exchange'))).body.serverTime as number;
    const start = Math.ceil((Date.now() + 3_600_000) / QUARTER_MS) * QUARTER_MS;
    assert.ok(start > now);
    const created = await post(nodeA.api('/admin/templates'), {
      name: 'BTC quarter hours', slug: 'btc-quarter-hours', description: 'd', pair: 'BTC/USD', period: '15m', firstStart: new Date(start).toISOString(), lead: 2,
    }, nodeA.adminHeaders);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const setBoth = async (ms: number) => {
      const answers = await Promise.all([nodeA, nodeB].map((node) => post(node.api('/admin/clock'), { now: new Date(ms).toISOString() }, node.adminHeaders)));
      for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    };
    for (let k = 0; k < 6; k++) await setBoth(start + k * QUARTER_MS);

    const event = (await get(nodeB.api(`/events/${created.body.eventId}?marketScope=ALL`), nodeB.adminHeaders)).body;
    const starts = event.markets.map((m: { startDate: string }) => Date.parse(m.startDate)).sort((a: number, b: number) => a - b);
    assert.deepEqual(starts, Array.from({ length: 8 }, (_, k) => start + k * QUARTER_MS));
    assert.ok(event.markets.every((m: { status: string }) => m.status === 'ACTIVE'));

    // Whichever node created it, the engine node trades it.
    const current = event.markets.find((m: { startDate: string }) => Date.parse(m.startDate) === start + 5 * QUARTER_MS);
    const trader = await newTrader(nodeA, { fund: '100' });
    const order = await placeOrder(nodeA, trader, { tokenId: current.tokenId1, side: 'BUY', price: '0.4', size: '5' });
    assert.equal(order.status, 200, JSON.stringify(order.body));
  });
});
