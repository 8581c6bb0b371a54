import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, type Log, parseEventLogs } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { ABIS, type ExchangeChain, type Market, type MatchArgs, matchOf, ONE, type OrderParams, startExchangeChain } from '../helpers/exchange-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/**
 * matchOrdersBatch: several matches in one transaction settle exactly as the same matches sent one
 * by one (same balances, same events in the same order), and the batch is all or nothing, under the
 * same operator and pause rules as matchOrders.
 */
describe('matchOrdersBatch', { skip: storeIndependent('the chain') }, () => {
  let chain: ExchangeChain;
  let market: Market;
  let traders: HDAccount[];
  const FEE_BPS = 100n;

  before(async () => {
    chain = await startExchangeChain();
    market = await chain.createMarket();
    traders = [3, 4, 5, 6, 7].map((i) => chain.anvil.account(i));
    for (const trader of traders) await chain.fundTrader(trader, market, 1_000n * ONE);
  });
  after(() => chain?.stop());

  const order = (signer: HDAccount, tokenId: bigint, side: 'BUY' | 'SELL', priceMicros: bigint, size: bigint, overrides: Partial<OrderParams> = {}) =>
    chain.signOrder({ signer, tokenId, side, priceMicros, size: size * ONE, feeRateBps: FEE_BPS, ...overrides });

  /** A taker against one maker, both at the maker's price (its complement for MINT and MERGE), the maker filled fully. */
  async function pair(taker: HDAccount, maker: HDAccount, kind: 'COMPLEMENTARY' | 'MINT' | 'MERGE', priceMicros: bigint, size: bigint): Promise<MatchArgs> {
    const takerSide = kind === 'MERGE' ? 'SELL' : 'BUY';
    const makerSide = kind === 'COMPLEMENTARY' ? 'SELL' : takerSide;
    const makerToken = kind === 'COMPLEMENTARY' ? market.yes : market.no;
    const takerPrice = kind === 'COMPLEMENTARY' ? priceMicros : ONE - priceMicros;
    const takerOrder = await order(taker, market.yes, takerSide, takerPrice, size);
    const makerOrder = await order(maker, makerToken, makerSide, priceMicros, size);
    return matchOf(takerOrder, [makerOrder]);
  }

  /** Every balance the matches can touch: each trader's wallet's, the fee receiver's, ConditionalTokens' lock and the exchange's. */
  async function balances() {
    const { contracts, feeReceiver } = chain;
    const wallets = await Promise.all(traders.map((trader) => chain.walletOf(trader.address)));
    const addresses: Address[] = [...wallets, feeReceiver, contracts.conditionalTokens, contracts.exchange];
    return Promise.all(addresses.map(async (address) => [address, await chain.collateralOf(address), await chain.tokensOf(address, market.yes), await chain.tokensOf(address, market.no)]));
  }

  function decoded(logs: Log[]) {
    return parseEventLogs({ abi: ABIS.exchange, logs }).map(({ eventName, args }) => ({ eventName, args }));
  }

  it('settles COMPLEMENTARY, MINT and MERGE matches, and a resting order filled across two of them, as the same matches sent one by one', async () => {
    const [a, b, c, d, e] = traders as [HDAccount, HDAccount, HDAccount, HDAccount, HDAccount];
    const resting = await order(e, market.yes, 'SELL', 520_000n, 30n);
    const takeResting = async (taker: HDAccount, size: bigint): Promise<MatchArgs> => {
      const takerOrder = await order(taker, market.yes, 'BUY', 520_000n, size);
      return matchOf(takerOrder, [resting], { makers: [size * ONE] });
    };
    const mixed = await order(d, market.yes, 'BUY', 700_000n, 30n);
    const mixedMakers = [await order(a, market.yes, 'SELL', 650_000n, 10n), await order(b, market.no, 'BUY', 320_000n, 20n)];
    const matches: MatchArgs[] = [
      await pair(a, b, 'COMPLEMENTARY', 400_000n, 50n),
      await pair(c, d, 'MINT', 380_000n, 25n),
      await takeResting(a, 10n),
      await pair(b, c, 'MERGE', 430_000n, 40n),
      matchOf(mixed, mixedMakers, { taker: 6_500_000n + 13_600_000n }),
      await takeResting(c, 20n),
    ];

    // The same orders both ways, so the same order hashes: sent one by one, then back to the
    // snapshot and sent as one batch.
    const start = await balances();
    const snapshot = await chain.anvil.testClient.snapshot();
    const oneByOneLogs: Log[] = [];
    for (const { takerOrder, makerOrders, takerFillAmount, makerFillAmounts } of matches) {
      oneByOneLogs.push(...(await chain.match(takerOrder, [...makerOrders], takerFillAmount, [...makerFillAmounts])).logs);
    }
    const oneByOne = await balances();
    assert.notDeepEqual(oneByOne, start, 'the matches moved balances');
    await chain.anvil.testClient.revert({ id: snapshot });
    assert.deepEqual(await balances(), start);

    const receipt = await chain.matchBatch(matches);
    assert.deepEqual(await balances(), oneByOne);
    assert.deepEqual(decoded(receipt.logs), decoded(oneByOneLogs));
    assert.equal(decoded(receipt.logs).filter((event) => event.eventName === 'OrdersMatched').length, matches.length);
    assert.equal(await chain.read(chain.contracts.exchange, ABIS.exchange, 'remainingOf', [resting]), 0n, 'the resting order filled 10 then 20');
  });

  it('reverts the whole batch with the error of its bad match, leaving the good ones unfilled', async () => {
    const [a, b, c, d] = traders as [HDAccount, HDAccount, HDAccount, HDAccount];
    const good = await pair(a, b, 'COMPLEMENTARY', 400_000n, 5n);
    const expired = await pair(c, d, 'MINT', 400_000n, 5n);
    const bad: MatchArgs = { ...expired, makerOrders: [await order(d, market.no, 'BUY', 400_000n, 5n, { expiration: 1n })] };
    const later = await pair(b, c, 'MERGE', 400_000n, 5n);
    assert.equal(await chain.batchRevert([good, bad, later]), 'OrderExpired');
    assert.equal(await chain.batchRevert([good, later]), undefined);

    const balancesBefore = await balances();
    const hash = await chain.anvil.walletClient(chain.operator).writeContract({
      address: chain.contracts.exchange,
      abi: ABIS.exchange,
      functionName: 'matchOrdersBatch',
      args: [[good, bad, later]],
      chain: chain.anvil.chain,
      gas: 5_000_000n,
    });
    assert.equal((await chain.publicClient.waitForTransactionReceipt({ hash })).status, 'reverted');
    assert.deepEqual(await balances(), balancesBefore);
    assert.equal(await chain.read(chain.contracts.exchange, ABIS.exchange, 'remainingOf', [good.takerOrder]), good.takerOrder.makerAmount, 'the match before the bad one did not fill');
  });

  it('lets only operators send a batch, and only while trading is not paused', async () => {
    const [a, b] = traders as [HDAccount, HDAccount];
    const batch = [await pair(a, b, 'COMPLEMENTARY', 400_000n, 5n), await pair(b, a, 'MINT', 300_000n, 5n)];
    assert.equal(await chain.batchRevert(batch, a), 'NotOperator');
    assert.equal(await chain.batchRevert(batch, chain.admin), 'NotOperator', 'an admin is not an operator');
    await chain.send(chain.admin, chain.contracts.exchange, ABIS.exchange, 'pauseTrading', []);
    assert.equal(await chain.batchRevert(batch), 'TradingIsPaused');
    await chain.send(chain.admin, chain.contracts.exchange, ABIS.exchange, 'unpauseTrading', []);
    assert.equal(await chain.batchRevert(batch), undefined);
  });
});
