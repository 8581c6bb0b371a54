import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, decodeEventLog, getAddress, http, type Hex, type PublicClient } from 'viem';
import { MAKERS_PER_MATCH_PART } from '../../src/engine/state/match-parts.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectSettledOnChain, tradesOf } from '../helpers/chain-settlement.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { expectAuditClean, newTrader, orderBody, placeOrder, type Trader } from '../helpers/trader.ts';

const MAKERS = 3 * MAKERS_PER_MATCH_PART;
/** The settlement sender's bound on a transaction's calldata (its maxCalldataBytes default), under a public node's 128 KiB. */
const MAX_CALLDATA_BYTES = 120_000;
const exchangeAbi = loadArtifact('PmxExchange').abi;

/**
 * A taker that sweeps more resting orders than one transaction can settle: 300 unsigned maker
 * fills are 164 KB of calldata as one `matchOrders`, above the 128 KiB a geth-based node takes into
 * its pool, so on a public chain that call could never settle, and it held up every match queued
 * behind it. It settles in parts of at most MAKERS_PER_MATCH_PART makers
 * (src/engine/state/match-parts.ts), each once.
 */
describe('a match too large for one transaction (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
  let server: TestServer;
  let client: PublicClient;
  let market: PublishedMarket;
  let maker: Trader;
  let taker: Trader;

  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded', RATE_LIMIT_ORDERS: 'off' });
    client = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) }) as PublicClient;
    market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    [maker, taker] = [await newTrader(server, { fund: '150' }), await newTrader(server, { fund: '200' })];
  });
  after(async () => {
    await server?.close();
  });

  /** The exchange's events of a mined transaction, decoded. */
  async function exchangeEvents(txHash: Hex) {
    const receipt = await client.getTransactionReceipt({ hash: txHash });
    assert.equal(receipt.status, 'success');
    return receipt.logs
      .filter((log) => getAddress(log.address) === getAddress(server.ctx.chain.deployed!.exchange))
      .map((log) => decodeEventLog({ abi: exchangeAbi, data: log.data, topics: log.topics }) as unknown as { eventName: string; args: Record<string, unknown> });
  }

  it(`settles a taker's sweep of ${MAKERS} resting orders in parts of ${MAKERS_PER_MATCH_PART}, every fill once, the wallets equal to the ledger`, { timeout: 180_000 }, async () => {
    // 300 bids of one token, unsigned (the maker's key trades its wallet), 50 to a request.
    for (let batch = 0; batch < MAKERS / 50; batch++) {
      const orders = await Promise.all(Array.from({ length: 50 }, () => orderBody(server, maker, { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '1', signed: false })));
      const placed = await maker.call('POST', '/orders/batch', { orders });
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
    }
    // A bid for the other token at 0.6 crosses all of them: 300 MINT fills.
    const sweep = await placeOrder(server, taker, { tokenId: market.tokenId2, side: 'BUY', price: '0.6', size: String(MAKERS) });
    assert.equal(sweep.body.status, 'EXECUTED', JSON.stringify(sweep.body));
    await server.ctx.trading.engine.settle();

    const trades = await tradesOf(server, taker);
    assert.equal(trades.length, MAKERS);
    const transactions = [...new Set(trades.map((trade) => trade.txHash as Hex))];
    const parts = new Map<bigint, number>();
    let makerFills = 0;
    for (const txHash of transactions) {
      const { input } = await client.getTransaction({ hash: txHash });
      assert.ok((input.length - 2) / 2 <= MAX_CALLDATA_BYTES, `a settlement transaction of ${(input.length - 2) / 2} bytes`);
      for (const event of await exchangeEvents(txHash)) {
        if (event.eventName === 'OrderFilled' && getAddress(String(event.args.taker)) !== getAddress(server.ctx.chain.deployed!.exchange)) makerFills++;
        if (event.eventName === 'OrdersMatchedPart') parts.set(event.args.part as bigint, (parts.get(event.args.part as bigint) ?? 0) + 1);
      }
    }
    assert.equal(makerFills, MAKERS, 'every maker filled once on chain');
    assert.deepEqual([...parts.entries()].sort(), [[1n, 1], [2n, 1]], 'parts 1 and 2 each settled once (part 0 says nothing)');
    await expectSettledOnChain(server, client, market, [maker, taker]);
    await expectAuditClean(server);
  });
});
