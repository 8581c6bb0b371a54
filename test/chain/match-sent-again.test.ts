import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSettlementSender, type FillEvent, type SenderOptions } from '../../src/settlement/chain/sender/index.ts';
import { earlierSettlement } from '../../src/engine/chain-settlement/earlier-settlement.ts';
import { encodeMatches, SETTLEMENT_ABI } from '../../src/engine/chain-settlement/chain-settlement.ts';
import type { MatchFill } from '../../src/engine/chain-settlement/match-call.ts';
import { ABIS, type ExchangeChain, type Market, ONE, startExchangeChain } from '../helpers/exchange-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { waitFor } from './sender/harness.ts';

/**
 * A match the exchange already settled, sent again: what a settlement sender does after it took a
 * mined transaction for lost (its receipt nowhere, its nonce used) and put its matches in a new
 * one. The contract refuses the match's taker a second time (`TakerAlreadyMatched`) even where
 * both orders still have room for the fill, and the engine's sender then reports the match mined
 * in the transaction that settled it, rather than failed (which would cancel the taker's order
 * and return reservations the chain already spent).
 */
describe('a match sent again after it settled (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
  let chain: ExchangeChain;
  let market: Market;

  before(async () => {
    chain = await startExchangeChain();
    market = await chain.createMarket();
    for (const index of [3, 4]) await chain.fundTrader(chain.anvil.account(index), market, 100n * ONE);
  });
  after(() => chain?.stop());

  /** A buyer's order of 20 YES at 0.50 taking 10 of a seller's 30: both keep room for the same fill again. */
  async function settledMatch(): Promise<{ fill: MatchFill; txHash: `0x${string}` }> {
    const [seller, buyer] = [chain.anvil.account(3), chain.anvil.account(4)];
    const taker = await chain.signOrder({ signer: buyer, tokenId: market.yes, side: 'BUY', priceMicros: 500_000n, size: 20n * ONE });
    const maker = await chain.signOrder({ signer: seller, tokenId: market.yes, side: 'SELL', priceMicros: 500_000n, size: 30n * ONE });
    const receipt = await chain.match(taker, [maker], 5n * ONE, [10n * ONE]);
    const hashOf = (order: typeof taker) => chain.read<`0x${string}`>(chain.contracts.exchange, ABIS.exchange, 'hashOrder', [order]);
    const [takerHash, makerHash] = [await hashOf(taker), await hashOf(maker)];
    const fill: MatchFill = {
      id: takerHash, takerHash, tradeIds: [`trade-of-${takerHash}`], negRisk: false,
      call: { takerOrder: taker, makerOrders: [maker], takerFillAmount: 5n * ONE, makerFillAmounts: [10n * ONE], makerFeeRatesBps: [maker.feeRateBps], part: 0n },
      orderIdByHash: new Map([[takerHash, 'taker'], [makerHash, 'maker']]), orderIdsByWallet: new Map(),
    };
    return { fill, txHash: receipt.transactionHash };
  }

  async function sendAgain(fill: MatchFill, overrides: Partial<SenderOptions<MatchFill>>): Promise<FillEvent<MatchFill>> {
    const events: FillEvent<MatchFill>[] = [];
    const sender = createSettlementSender<MatchFill>({
      client: chain.publicClient, account: chain.operator, abi: SETTLEMENT_ABI, encode: (batch) => ({ to: chain.contracts.exchange, data: encodeMatches(batch) }),
      onEvent: (event) => events.push(event), persist: () => {}, pollIntervalMs: 20, onError: () => {}, ...overrides,
    });
    try {
      await sender.start();
      sender.submit([fill]);
      await waitFor('the match mined or failed', () => events.some((e) => e.type === 'mined' || e.type === 'failed'));
      return events.find((e) => e.type === 'mined' || e.type === 'failed')!;
    } finally {
      await sender.stop();
    }
  }

  it('is reported mined in the transaction that settled it, and nothing moves twice', async () => {
    const { fill, txHash } = await settledMatch();
    const buyerWallet = await chain.walletOf(chain.anvil.account(4).address);
    const tokensBefore = await chain.tokensOf(buyerWallet, market.yes);
    const event = await sendAgain(fill, earlierSettlement(chain.publicClient, chain.contracts.exchange));
    assert.equal(event.type, 'mined');
    assert.equal(event.type === 'mined' && event.txHash, txHash);
    assert.equal(await chain.tokensOf(buyerWallet, market.yes), tokensBefore, 'the buyer got its tokens once');
  });

  it('without the lookup the sender could only call it failed', async () => {
    const { fill } = await settledMatch();
    const event = await sendAgain(fill, {});
    assert.equal(event.type, 'failed');
    assert.equal(event.type === 'failed' && event.reason.name, 'TakerAlreadyMatched');
  });
});
