import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { newTrader, placeOrder, type Trader } from '../helpers/trader.ts';

/**
 * GET /trades?user= reads the taker side and the maker side of a wallet separately and merges
 * them (migration 0014's wallet indexes): the merge must keep the (second, id) order and the
 * cursor must still return every trade once. Alice and Bob take turns as taker and maker, some
 * trades in the same second.
 */
describe('market data: trades by wallet', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let carol: Trader;
  const trades = (query: string) => get(server.api(`/trades${query}`));

  before(async () => {
    server = await startTestServer();
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    [alice, bob, carol] = await Promise.all([newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' })]);
    const mint = async (maker: Trader, taker: Trader) => {
      assert.equal((await placeOrder(server, maker, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '1' })).status, 200);
      assert.equal((await placeOrder(server, taker, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '1' })).body.status, 'EXECUTED');
    };
    for (const [maker, taker] of [[alice, bob], [bob, alice], [carol, bob], [alice, carol], [bob, alice], [alice, bob]] as const) {
      await mint(maker, taker);
      await mint(taker, maker);
      await post(server.api('/admin/clock'), { advanceMs: 1_000 }, server.adminHeaders);
    }
    // Settled before the reads: a trade mined between two reads would differ only in status.
    await server.ctx.trading.engine.settle();
  });
  after(async () => {
    await server?.close();
  });

  it('user= is the taker side plus the maker side, newest first, in (second, id) order', async () => {
    const all = (await trades('?limit=500')).body.data;
    for (const wallet of [alice.proxyWallet, bob.proxyWallet, carol.proxyWallet]) {
      const lower = wallet.toLowerCase();
      const mine = all.filter((t: any) => t.taker === lower || t.maker === lower);
      assert.deepEqual((await trades(`?user=${wallet}&limit=500`)).body.data, mine);
      const sides = [...(await trades(`?taker=${wallet}&limit=500`)).body.data, ...(await trades(`?maker=${wallet}&limit=500`)).body.data];
      assert.deepEqual(sides.map((t: any) => t.id).sort(), mine.map((t: any) => t.id).sort());
    }
    assert.equal(all.length, 12);
    assert.deepEqual(all, [...all].sort((a: any, b: any) => b.matchedAt - a.matchedAt || (a.id < b.id ? 1 : -1)));
  });

  it('pages through one wallet with before and beforeId, each trade exactly once, also at limit 1', async () => {
    const expected = (await trades(`?user=${bob.proxyWallet}&limit=500`)).body.data.map((t: any) => t.id);
    for (const limit of [1, 2, 5]) {
      const seen: string[] = [];
      let query = `?user=${bob.proxyWallet}&limit=${limit}`;
      for (let pages = 0; pages < 20; pages++) {
        const page = (await trades(query)).body;
        seen.push(...page.data.map((t: any) => t.id));
        if (!page.hasMore) break;
        const last = page.data.at(-1);
        query = `?user=${bob.proxyWallet}&limit=${limit}&before=${last.matchedAt}&beforeId=${last.id}`;
      }
      assert.deepEqual(seen, expected);
    }
  });
});
