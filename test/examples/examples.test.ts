import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { ExchangeClient } from '../../src/client/index.ts';
import { adminClient, publishedMarkets, traderClient } from '../client/helpers.ts';
import { killPrograms, runProgram } from '../helpers/program.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

describe('examples/ against a real server, each as its own process', { skip: storeIndependent('the examples'), timeout: 180_000 }, () => {
  let server: TestServer;
  let admin: ExchangeClient;
  let taker: ExchangeClient;

  /** A new wallet with collateral, for an example to sign in with. */
  async function fundedWallet(amount: string): Promise<string> {
    const key = generatePrivateKey();
    await admin.admin.credit(privateKeyToAccount(key).address, amount);
    return key;
  }

  before(async () => {
    server = await startTestServer();
    admin = adminClient(server);
    taker = await traderClient(server, '1000');
  });
  after(async () => {
    killPrograms();
    await server.close();
  });

  it('market maker: quotes both sides around 0.5, leans up a tick when its ask is lifted, cancels on stop', async () => {
    const { markets: [market] } = await publishedMarkets(admin);
    const maker = runProgram('examples/market-maker.ts', [], { PMX_URL: server.url, PMX_PRIVATE_KEY: await fundedWallet('100'), MARKET: market!.id, STEPS: '1' });
    await maker.line(/^quoting 0\.48 \/ 0\.52$/);
    const levels = async () => {
      const book = await taker.book.get(market!.tokenId1);
      return [book.bids.map((l) => [l.price, l.size]), book.asks.map((l) => [l.price, l.size])];
    };
    assert.deepEqual(await levels(), [[['0.48', '10']], [['0.52', '10']]]);

    const lifted = await taker.orders.place({ tokenId: market!.tokenId1, side: 'BUY', price: '0.52', size: '10', type: 'FAK' });
    assert.deepEqual([lifted.status, lifted.matchedAmount], ['EXECUTED', 10]);
    await maker.line(/^quoting 0\.49 \/ 0\.53$/);
    await maker.exit();
    assert.deepEqual(await levels(), [[], []], 'stopping cancels the quotes');
  });

  it("taker bot: takes the best ask, then the best bid, for its size, naming the outcome as its market does", async () => {
    const { markets: [market] } = await publishedMarkets(admin, { outcomes: ['Up', 'Down'] });
    const maker = await traderClient(server, '100');
    await maker.orders.placeMany([
      { tokenId: market!.tokenId1, side: 'BUY', price: '0.4', size: '10' },
      { tokenId: market!.tokenId2, side: 'BUY', price: '0.4', size: '10' },
    ]);
    const bot = runProgram('examples/taker-bot.ts', [], { PMX_URL: server.url, PMX_PRIVATE_KEY: await fundedWallet('100'), MARKETS: market!.id, ROUNDS: '2', SIDES: 'BUY,SELL', SIZE: '4', PAUSE_MS: '0' });
    await bot.exit();
    assert.equal(bot.lines.length, 2, bot.lines.join('\n'));
    assert.match(bot.lines[0]!, /^BUY Up 4 @ 0\.6 in .* \(EXECUTED\)$/);
    assert.match(bot.lines[1]!, /^SELL Up 4 @ 0\.4 in .* \(EXECUTED\)$/);
    const book = await taker.book.get(market!.tokenId1);
    assert.deepEqual([book.bids[0], book.asks[0]].map((l) => [l!.price, l!.size]), [['0.4', '6'], ['0.6', '6']]);
  });

  it("trade follower: prints an event's trades as they are confirmed, naming the outcome traded as its market does, and stops at COUNT", async () => {
    const { event, markets: [market] } = await publishedMarkets(admin, { outcomes: ['Up', 'Down'] });
    const maker = await traderClient(server, '100');
    const follower = runProgram('examples/trade-follower.ts', [], { PMX_URL: server.url, EVENT: event.id, COUNT: '2' });
    await follower.line(/^following event /);
    await maker.orders.place({ tokenId: market!.tokenId1, side: 'BUY', price: '0.3', size: '20' });
    await taker.orders.place({ tokenId: market!.tokenId2, side: 'BUY', price: '0.7', size: '5', type: 'FAK' });
    await taker.orders.place({ tokenId: market!.tokenId2, side: 'BUY', price: '0.7', size: '3', type: 'FAK' });
    await follower.exit();
    const trades = follower.lines.slice(1).map((line) => line.replace(/^\S+\s+\S+ /, ''));
    assert.deepEqual(trades.sort(), ['bought 3.000000 Down @ 0.700000 ($2.10)  Market 1', 'bought 5.000000 Down @ 0.700000 ($3.50)  Market 1']);
  });
});
