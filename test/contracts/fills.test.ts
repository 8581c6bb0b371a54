import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, type Log, parseEventLogs } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { feeBaseUnits } from '../../src/core/book/fees.ts';
import { ABIS, type ExchangeChain, type Market, ONE, type SignedOrder, startExchangeChain } from '../helpers/exchange-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/**
 * The three fill types of matchOrders with several makers, partial fills over two transactions,
 * and fees: every party's collateral and tokens move exactly as the server's ledger moves them
 * (src/settlement/embedded/postings.ts), with fees from src/core/book/fees.ts, and nothing is
 * created or lost: collateral summed over the parties, the fee receiver and ConditionalTokens'
 * lock is unchanged, and the lock grows or shrinks by exactly the sets minted or merged.
 */
describe('matchOrders fills', { skip: storeIndependent('the chain') }, () => {
  let chain: ExchangeChain;
  let market: Market;
  let traders: HDAccount[];
  /** Where each trader's assets are: its proxy wallet, whatever type its orders are signed as. */
  const walletOf = new Map<Address, Address>();
  const TAKER_BPS = 200n;
  const MAKER_BPS = 100n;

  before(async () => {
    chain = await startExchangeChain();
    market = await chain.createMarket();
    traders = [3, 4, 5, 6, 7].map((i) => chain.anvil.account(i));
    for (const trader of traders) {
      await chain.fundTrader(trader, market, 1_000n * ONE);
      walletOf.set(trader.address, await chain.walletOf(trader.address));
    }
  });
  after(() => chain?.stop());

  interface Party {
    readonly address: Address;
    readonly tokenId: bigint;
    readonly side: 'BUY' | 'SELL';
    readonly priceMicros: bigint;
    readonly size: bigint;
    readonly feeBps: bigint;
  }

  /** What the server's ledger does to a party of one fill: [collateral delta, token delta, fee]. */
  function ledgerMove(party: Party): { collateral: bigint; tokens: bigint; fee: bigint } {
    const cost = (party.priceMicros * party.size) / ONE;
    const fee = feeBaseUnits(Number(party.feeBps), Number(party.priceMicros), party.size);
    return party.side === 'BUY' ? { collateral: -(cost + fee), tokens: party.size, fee } : { collateral: cost - fee, tokens: -party.size, fee };
  }

  async function snapshot(addresses: Address[]) {
    const rows = await Promise.all(
      addresses.map(async (address) => ({
        address,
        collateral: await chain.collateralOf(address),
        yes: await chain.tokensOf(address, market.yes),
        no: await chain.tokensOf(address, market.no),
      })),
    );
    return new Map(rows.map((row) => [row.address, row]));
  }

  /**
   * Matches `taker` against makers at their own prices and checks every balance against the
   * ledger's moves, the fee receiver, the lock, and that the exchange keeps nothing.
   */
  async function matchAndCheck(taker: { order: SignedOrder; party: Omit<Party, 'size' | 'priceMicros'> }, makers: Array<{ order: SignedOrder; party: Party; fill: bigint }>) {
    const { contracts, feeReceiver } = chain;
    const watched = [...new Set([taker.party.address, ...makers.map((m) => m.party.address), feeReceiver, contracts.conditionalTokens, contracts.exchange])];
    const before = await snapshot(watched);
    const expected = new Map(watched.map((address) => [address, { collateral: 0n, yes: 0n, no: 0n }]));
    const add = (address: Address, tokenId: bigint, move: { collateral: bigint; tokens: bigint }) => {
      const row = expected.get(address)!;
      row.collateral += move.collateral;
      if (tokenId === market.yes) row.yes += move.tokens;
      else row.no += move.tokens;
    };
    let takerFill = 0n;
    let fees = 0n;
    let lock = 0n;
    for (const maker of makers) {
      const makerMove = ledgerMove(maker.party);
      add(maker.party.address, maker.party.tokenId, makerMove);
      const sameToken = maker.party.tokenId === taker.party.tokenId;
      const takerPrice = sameToken ? maker.party.priceMicros : ONE - maker.party.priceMicros;
      const takerMove = ledgerMove({ ...taker.party, priceMicros: takerPrice, size: maker.party.size });
      add(taker.party.address, taker.party.tokenId, takerMove);
      fees += makerMove.fee + takerMove.fee;
      const takerCost = (takerPrice * maker.party.size) / ONE;
      takerFill += taker.party.side === 'BUY' ? takerCost : maker.party.size;
      if (!sameToken) lock += taker.party.side === 'BUY' ? maker.party.size : -maker.party.size;
    }
    expected.get(feeReceiver)!.collateral += fees;
    expected.get(contracts.conditionalTokens)!.collateral += lock;

    const receipt = await chain.match(taker.order, makers.map((m) => m.order), takerFill, makers.map((m) => m.fill));
    const after = await snapshot(watched);
    for (const address of watched) {
      const moved = { collateral: after.get(address)!.collateral - before.get(address)!.collateral, yes: after.get(address)!.yes - before.get(address)!.yes, no: after.get(address)!.no - before.get(address)!.no };
      assert.deepEqual(moved, expected.get(address), `balances of ${address}`);
    }
    const sum = (snap: typeof before) => [...snap.values()].reduce((total, row) => total + row.collateral, 0n);
    assert.equal(sum(after), sum(before), 'collateral is conserved');
    assert.ok(fees > 0n, 'the case charges fees');
    checkFillEvents(receipt.logs, makers.length, takerFill, fees);
  }

  /** One OrderFilled per maker and one for the taker, whose fees add up to the fees paid, then OrdersMatched. */
  function checkFillEvents(logs: Log[], makers: number, takerFill: bigint, fees: bigint): void {
    const events = parseEventLogs({ abi: ABIS.exchange, logs }) as unknown as Array<{ eventName: string; args: Record<string, unknown> }>;
    const filled = events.filter((event) => event.eventName === 'OrderFilled');
    assert.equal(filled.length, makers + 1);
    assert.equal(filled.reduce((total, event) => total + (event.args.fee as bigint), 0n), fees);
    const matched = events.filter((event) => event.eventName === 'OrdersMatched');
    assert.equal(matched.length, 1);
    assert.equal(matched[0]!.args.makerAmountFilled, takerFill);
  }

  function party(trader: HDAccount, tokenId: bigint, side: 'BUY' | 'SELL', priceMicros: bigint, size: bigint, feeBps: bigint): Party {
    return { address: walletOf.get(trader.address)!, tokenId, side, priceMicros, size, feeBps };
  }

  /** Makers sign as their wallet (type 1), takers as themselves (type 0): both settle from the wallet. */
  async function maker(trader: HDAccount, tokenId: bigint, side: 'BUY' | 'SELL', priceMicros: bigint, size: bigint) {
    const order = await chain.signOrder({ signer: trader, tokenId, side, priceMicros, size, feeRateBps: MAKER_BPS, signatureType: 1 });
    const fill = side === 'BUY' ? (priceMicros * size) / ONE : size;
    return { order, party: party(trader, tokenId, side, priceMicros, size, MAKER_BPS), fill };
  }

  async function taker(trader: HDAccount, tokenId: bigint, side: 'BUY' | 'SELL', limitMicros: bigint, size: bigint) {
    const order = await chain.signOrder({ signer: trader, tokenId, side, priceMicros: limitMicros, size, feeRateBps: TAKER_BPS });
    return { order, party: { address: walletOf.get(trader.address)!, tokenId, side, feeBps: TAKER_BPS } };
  }

  /** [trader index, YES or NO, side, price in micros, size in whole tokens] */
  type Leg = [number, 'YES' | 'NO', 'BUY' | 'SELL', bigint, bigint];
  const CASES: Array<{ name: string; taker: Leg; makers: Leg[] }> = [
    { name: 'COMPLEMENTARY: a buyer takes two sellers of its token, each at its own price', taker: [2, 'YES', 'BUY', 450_000n, 150n], makers: [[0, 'YES', 'SELL', 400_000n, 100n], [1, 'YES', 'SELL', 420_000n, 50n]] },
    { name: 'COMPLEMENTARY: a seller takes two buyers of its token', taker: [0, 'NO', 'SELL', 300_000n, 30n], makers: [[1, 'NO', 'BUY', 350_000n, 10n], [2, 'NO', 'BUY', 330_000n, 20n]] },
    {
      name: 'MINT: a buyer of YES takes three buyers of NO; their collateral becomes complete sets',
      taker: [3, 'YES', 'BUY', 620_000n, 60n],
      makers: [[0, 'NO', 'BUY', 400_000n, 20n], [1, 'NO', 'BUY', 390_000n, 25n], [2, 'NO', 'BUY', 380_000n, 15n]],
    },
    { name: 'MERGE: a seller of YES takes two sellers of NO; complete sets become collateral', taker: [2, 'YES', 'SELL', 550_000n, 45n], makers: [[0, 'NO', 'SELL', 430_000n, 40n], [1, 'NO', 'SELL', 440_000n, 5n]] },
    { name: 'mixes COMPLEMENTARY and MINT makers in one match', taker: [4, 'YES', 'BUY', 700_000n, 30n], makers: [[0, 'YES', 'SELL', 650_000n, 10n], [1, 'NO', 'BUY', 320_000n, 20n]] },
    { name: 'mixes COMPLEMENTARY and MERGE makers in one match', taker: [3, 'NO', 'SELL', 300_000n, 25n], makers: [[0, 'NO', 'BUY', 350_000n, 10n], [1, 'YES', 'SELL', 640_000n, 15n]] },
  ];

  for (const { name, taker: takerLeg, makers } of CASES) {
    it(name, async () => {
      const token = (outcome: 'YES' | 'NO') => (outcome === 'YES' ? market.yes : market.no);
      const [who, outcome, side, limit, size] = takerLeg;
      const makerFills = [];
      for (const [index, makerOutcome, makerSide, price, makerSize] of makers) makerFills.push(await maker(traders[index]!, token(makerOutcome), makerSide, price, makerSize * ONE));
      await matchAndCheck(await taker(traders[who]!, token(outcome), side, limit, size * ONE), makerFills);
    });
  }

  it('fills a maker partly in one transaction and its exact remainder in a second; a third fill finds nothing left', async () => {
    const [a, b, c] = traders;
    const resting = await chain.signOrder({ signer: a!, tokenId: market.yes, side: 'SELL', priceMicros: 510_000n, size: 100n * ONE, feeRateBps: MAKER_BPS });
    const restingParty = (size: bigint) => party(a!, market.yes, 'SELL', 510_000n, size, MAKER_BPS);
    await matchAndCheck(await taker(b!, market.yes, 'BUY', 510_000n, 30n * ONE), [{ order: resting, party: restingParty(30n * ONE), fill: 30n * ONE }]);
    const hash = await chain.read<`0x${string}`>(chain.contracts.exchange, ABIS.exchange, 'hashOrder', [resting]);
    assert.deepEqual(await chain.read(chain.contracts.exchange, ABIS.exchange, 'orderStatus', [hash]), [false, 30n * ONE]);
    await matchAndCheck(await taker(c!, market.yes, 'BUY', 600_000n, 70n * ONE), [{ order: resting, party: restingParty(70n * ONE), fill: 70n * ONE }]);
    const third = await taker(c!, market.yes, 'BUY', 600_000n, ONE);
    assert.equal(await chain.matchRevert(third.order, [resting], 510_000n, [ONE]), 'FillExceedsRemaining');
  });

  it('charges fees equal to the server’s on several prices and sizes, rounding down each fill', async () => {
    const [a, b] = traders;
    for (const [price, size] of [
      [10_000n, 7n * ONE],
      [500_000n, 3n * ONE],
      [990_000n, 11n * ONE],
      [123_400n, 1_230_000n],
      [777_700n, 90_000n],
    ] as const) {
      await matchAndCheck(await taker(b!, market.yes, 'BUY', price, size), [await maker(a!, market.yes, 'SELL', price, size)]);
    }
  });
});
