import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signedRequest } from '../helpers/auth-client.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';
import { newTrader, placeOrder } from '../helpers/trader.ts';

const skip = await severalNodesSkip();

/**
 * A token that never traded is valued at its book's midpoint (SPEC.md 4.3 `latest`), on a node
 * that follows the journal as on the engine's node: a standby's state holds the books.
 */
describe("a follower's latest prices", { skip, timeout: 60_000 }, () => {
  let cluster: SeveralNodes;
  let leader: ProcessServer;
  let follower: ProcessServer;

  before(async () => {
    cluster = await startSeveralNodes(2, { SIGNATURE_WORKERS: '0' });
    [leader, follower] = cluster.nodes as [ProcessServer, ProcessServer];
  });
  after(async () => { await cluster?.close(); });

  it('value a token that never traded at its midpoint, as the engine node does', async () => {
    const { markets } = await createPublishedEvent(leader);
    const market = markets[0]!;
    const trader = await newTrader(follower, { fund: '100' });
    const split = await trader.call('POST', `/markets/${market.id}/split`, { amount: '10' });
    assert.equal(split.status, 200, JSON.stringify(split.body));
    for (const [side, price] of [['BUY', '0.6'], ['SELL', '0.7']] as const) {
      const placed = await placeOrder(follower, trader, { tokenId: market.tokenId1, side, price, size: '2' });
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
    }
    const latest = async (node: ProcessServer) => {
      const answer = await signedRequest(node, trader.creds, 'GET', '/markets/user-positions');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return Object.fromEntries(answer.body.data.map((p: { tokenId: string; latest: string }) => [p.tokenId, p.latest]));
    };
    // Token 2's book is token 1's seen from the other side: bid 0.3, ask 0.4.
    const expected = { [market.tokenId1]: '0.65', [market.tokenId2]: '0.35' };
    assert.deepEqual(await latest(leader), expected);
    assert.deepEqual(await latest(follower), expected);
  });
});
