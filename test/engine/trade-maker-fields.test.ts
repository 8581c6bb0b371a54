import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as m0018 from '../../src/store/migrations/0018_trade_maker_fields.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { newTrader, placeOrder } from '../helpers/trader.ts';

describe("trades store the maker's side, token and price", () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  // The tables are the journal's projection: read them once they hold every record answered.
  const makerColumns = async () => {
    await server.ctx.trading.engine.tablesHoldAll();
    return server.ctx.store.db.selectFrom('trades as t').innerJoin('orders as o', 'o.id', 't.maker_order_id')
      .select(['t.kind', 't.maker_side', 't.maker_token_id', 't.maker_price_micros', 'o.side as order_side', 'o.token_id as order_token_id'])
      .orderBy('t.seq').execute();
  };

  it('as the engine filled them (MINT, TRANSFER, MERGE), and the migration backfills the same values', async () => {
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const alice = await newTrader(server, { fund: '1000' });
    const bob = await newTrader(server, { fund: '1000' });
    // MINT: alice rests BUY token 1 at 0.6, bob buys token 2: alice's price is 0.6, bob's 0.4.
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '10' });
    await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.45', size: '10' });
    // The minted tokens are theirs to sell once the trade is mined.
    await server.ctx.trading.engine.settle();
    // TRANSFER: alice rests SELL token 1 at 0.7, bob buys it.
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'SELL', price: '0.7', size: '4' });
    await placeOrder(server, bob, { tokenId: market.tokenId1, side: 'BUY', price: '0.75', size: '4' });
    // MERGE: alice rests SELL token 1 at 0.5, bob sells token 2.
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'SELL', price: '0.5', size: '2' });
    await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'SELL', price: '0.5', size: '2' });
    await server.ctx.trading.engine.settle();

    const recorded = await makerColumns();
    assert.deepEqual(recorded.map((r) => [r.kind, r.maker_side, r.maker_token_id, String(r.maker_price_micros)]), [
      ['MINT', 0, market.tokenId1, '600000'],
      ['TRANSFER', 1, market.tokenId1, '700000'],
      ['MERGE', 1, market.tokenId1, '500000'],
    ]);
    for (const r of recorded) assert.deepEqual([r.maker_side, r.maker_token_id], [r.order_side, r.order_token_id]);

    await m0018.down(server.ctx.store.db as never);
    await m0018.up(server.ctx.store.db as never);
    assert.deepEqual(await makerColumns(), recorded);
  });
});
