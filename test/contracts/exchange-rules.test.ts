import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hexToBigInt, parseSignature, serializeSignature, toHex, zeroAddress } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { ABIS, type ExchangeChain, type Market, matchOf, ONE, type OrderParams, startExchangeChain } from '../helpers/exchange-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { earlierSettlement } from '../../src/engine/chain-settlement/earlier-settlement.ts';
import type { MatchFill } from '../../src/engine/chain-settlement/match-call.ts';
import type { RevertReason } from '../../src/settlement/chain/sender/index.ts';

/**
 * Every way matchOrders and the exchange's configuration refuse, each by its custom error, and the
 * controls around them: cancels, nonces, expiration, pause, roles and the token registry.
 */
/** The order of secp256k1's group: s and n − s both verify, so only the low one is accepted. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('exchange rules', { skip: storeIndependent('the chain') }, () => {
  let chain: ExchangeChain;
  let market: Market;
  let other: Market;
  let seller: HDAccount;
  let buyer: HDAccount;
  let stranger: HDAccount;

  before(async () => {
    chain = await startExchangeChain();
    market = await chain.createMarket();
    other = await chain.createMarket();
    [seller, buyer, stranger] = [3, 4, 5].map((i) => chain.anvil.account(i)) as [HDAccount, HDAccount, HDAccount];
    for (const trader of [seller, buyer]) await chain.fundTrader(trader, market, 100n * ONE);
  });
  after(() => chain?.stop());

  const sell = (overrides: Partial<OrderParams> = {}) => chain.signOrder({ signer: seller, tokenId: market.yes, side: 'SELL', priceMicros: 500_000n, size: 10n * ONE, ...overrides });
  const buy = (overrides: Partial<OrderParams> = {}) => chain.signOrder({ signer: buyer, tokenId: market.yes, side: 'BUY', priceMicros: 500_000n, size: 10n * ONE, ...overrides });
  const exchange = () => chain.contracts.exchange;
  const asAdmin = (functionName: string, args: readonly unknown[], account = chain.admin) => chain.revertOf(account, exchange(), ABIS.exchange, functionName, args);

  /** The revert of buying 10 YES at 0.5 from `maker` with `taker`, both full. */
  async function revertOfPair(taker: Awaited<ReturnType<typeof buy>>, maker: Awaited<ReturnType<typeof sell>>, takerFill = 5n * ONE, makerFill = 10n * ONE) {
    return chain.matchRevert(taker, [maker], takerFill, [makerFill]);
  }

  it('accepts a valid pair (the baseline every case below breaks once)', async () => {
    assert.equal(await revertOfPair(await buy(), await sell()), undefined);
  });

  it('refuses orders by their signed fields', async () => {
    assert.equal(await revertOfPair(await buy(), await sell({ feeRateBps: 1_001n })), 'FeeRateTooHigh');
    assert.equal(await revertOfPair(await buy({ expiration: 1n }), await sell()), 'OrderExpired');
    assert.equal(await revertOfPair(await buy(), await sell({ nonce: 1n })), 'InvalidNonce');
    assert.equal(await revertOfPair(await buy(), await sell({ maker: buyer.address })), 'MakerIsNotSigner');
    assert.equal(await revertOfPair(await buy(), await sell({ signatureType: 1, maker: stranger.address })), 'MakerIsNotSignersWallet');
    assert.equal(await revertOfPair(await buy(), await sell({ signatureType: 1, signer: stranger })), 'ProxyWalletNotDeployed');
    assert.equal(await revertOfPair(await buy(), await sell({ signer: stranger })), 'ProxyWalletNotDeployed', 'an EOA order settles from the wallet too');
    assert.equal(await revertOfPair(await buy(), await sell({ negRisk: true })), 'InvalidSignature', 'signed for the other exchange');
    const forged = { ...(await sell()), signature: (await buy()).signature };
    assert.equal(await revertOfPair(await buy(), forged), 'InvalidSignature');
    // The other s of a valid signature (malleability), and one that ecrecover answers with address 0.
    const valid = await sell();
    const { r, s, yParity } = parseSignature(valid.signature);
    const highS = serializeSignature({ r, s: toHex(SECP256K1_N - hexToBigInt(s), { size: 32 }), yParity: 1 - (yParity ?? 0) });
    assert.equal(await revertOfPair(await buy(), { ...valid, signature: highS }), 'InvalidSignature', 'a high-s signature');
    assert.equal(await revertOfPair(await buy(), { ...valid, signature: `0x${'00'.repeat(64)}1b` }), 'InvalidSignature', 'a signature recovering to 0');
    assert.equal(await revertOfPair(await buy(), { ...valid, signature: valid.signature.slice(0, 130) as `0x${string}` }), 'InvalidSignature', 'a 64-byte signature');
    assert.equal(await revertOfPair(await buy(), await chain.signOrder({ signer: seller, tokenId: market.no, side: 'BUY', priceMicros: 1_200_000n, size: 10n * ONE })), 'PriceAboveOne');
    assert.equal(await revertOfPair(await buy({ tokenId: 12345n }), await sell()), 'TokenNotRegistered');
  });

  it('refuses a match whose orders do not fit together', async () => {
    assert.equal(await chain.matchRevert(await buy(), [await sell()], 5n * ONE, []), 'FillAmountsLengthMismatch');
    assert.equal(await revertOfPair(await buy(), await sell(), 5n * ONE, 0n), 'ZeroFillAmount');
    assert.equal(await revertOfPair(await buy(), await sell(), 4n * ONE), 'TakerFillMismatch');
    assert.equal(await revertOfPair(await buy(), await sell(), 5n * ONE, 11n * ONE), 'FillExceedsRemaining');
    assert.equal(await revertOfPair(await buy({ priceMicros: 400_000n, size: 20n * ONE }), await sell(), 5n * ONE), 'TakerPriceNotMet');
    assert.equal(await revertOfPair(await buy(), await sell({ tokenId: other.yes })), 'TokenMismatch');
    assert.equal(await revertOfPair(await buy(), await sell({ tokenId: market.no })), 'SideMismatch');
    assert.equal(await revertOfPair(await buy(), await sell({ taker: stranger.address })), 'NotAllowedCounterparty');
    assert.equal(await revertOfPair(await buy({ taker: stranger.address }), await sell()), 'NotAllowedCounterparty');
    assert.equal(await revertOfPair(await buy(), await sell({ taker: buyer.address })), undefined, 'the named counterparty may take it');
  });

  it('lets an order be the taker of one match only, even with room left on both sides; its rest still fills as a maker', async () => {
    const taker = await buy({ size: 20n * ONE });
    const maker = await sell({ size: 30n * ONE });
    const settled = await chain.match(taker, [maker], 5n * ONE, [10n * ONE]);
    const takerHash = await chain.read<`0x${string}`>(exchange(), ABIS.exchange, 'hashOrder', [taker]);
    // The same match again (a transaction taken for lost and sent again): both orders have room for it.
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'remainingOf', [taker]), 5n * ONE);
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'remainingOf', [maker]), 20n * ONE);
    assert.deepEqual(await chain.revertErrorOf(chain.operator, exchange(), ABIS.exchange, 'matchOrders', [taker, [maker], 5n * ONE, [10n * ONE], [maker.feeRateBps], 0n]), { name: 'TakerAlreadyMatched', args: [takerHash, 0n] });
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'matchedAsTaker', [takerHash, 0n]), true);
    assert.deepEqual(await chain.read(exchange(), ABIS.exchange, 'orderStatus', [takerHash]), [false, 5n * ONE]);
    // What is left of it rests, and a later taker fills it as a maker.
    await chain.match(await sell({ size: 10n * ONE }), [taker], 10n * ONE, [5n * ONE]);
    assert.deepEqual(await chain.read(exchange(), ABIS.exchange, 'orderStatus', [takerHash]), [false, 10n * ONE]);
    // The settlement sender finds the transaction that settled a match refused as already matched.
    const earlier = earlierSettlement(chain.publicClient, exchange());
    const fill = { takerHash, call: { part: 0n } } as MatchFill;
    assert.equal(earlier.isAlreadySettled({ name: 'TakerAlreadyMatched', args: [takerHash.toUpperCase().replace('0X', '0x'), 0n], message: '' } as RevertReason, fill), true);
    assert.equal(earlier.isAlreadySettled({ name: 'TakerAlreadyMatched', args: [`0x${'00'.repeat(32)}`, 0n], message: '' } as RevertReason, fill), false, 'another taker order');
    assert.equal(earlier.isAlreadySettled({ name: 'TakerAlreadyMatched', args: [takerHash, 1n], message: '' } as RevertReason, fill), false, 'another part');
    assert.equal(await earlier.findSettlement(fill), settled.transactionHash);
    assert.equal(await earlier.findSettlement({ takerHash: `0x${'ab'.repeat(32)}`, call: { part: 0n } } as MatchFill), null);
  });

  it('settles a match too large for one transaction in parts: each part once, in any order, each found again by its part', async () => {
    const taker = await buy({ size: 40n * ONE });
    const [first, second, third, fourth] = [await sell(), await sell(), await sell(), await sell()];
    const takerHash = await chain.read<`0x${string}`>(exchange(), ABIS.exchange, 'hashOrder', [taker]);
    const partOf = (maker: typeof first, part: bigint) => chain.match(taker, [maker], 5n * ONE, [10n * ONE], exchange(), [maker.feeRateBps], part);
    // Part 1 is mined before part 0 (part 0's transaction was held up), then part 0, then part 2.
    const settled = [await partOf(second, 1n), await partOf(first, 0n), await partOf(third, 2n)];
    assert.deepEqual(await chain.read(exchange(), ABIS.exchange, 'orderStatus', [takerHash]), [false, 15n * ONE]);
    for (const part of [0n, 1n, 2n]) assert.equal(await chain.read(exchange(), ABIS.exchange, 'matchedAsTaker', [takerHash, part]), true);
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'matchedAsTaker', [takerHash, 3n]), false);
    // A part sent again is refused by its number, though the taker and another maker have room for it.
    const again = [taker, [fourth], 5n * ONE, [10n * ONE], [fourth.feeRateBps]] as const;
    for (const part of [0n, 1n, 2n]) assert.deepEqual(await chain.revertErrorOf(chain.operator, exchange(), ABIS.exchange, 'matchOrders', [...again, part]), { name: 'TakerAlreadyMatched', args: [takerHash, part] });
    // Only the later parts say which part they were; the sender finds each part's transaction.
    const earlier = earlierSettlement(chain.publicClient, exchange());
    for (const [index, part] of [1n, 0n, 2n].entries()) assert.equal(await earlier.findSettlement({ takerHash, call: { part } } as MatchFill), settled[index]!.transactionHash, `part ${part}`);
    // A batch settles parts as matchOrders does.
    await chain.matchBatch([matchOf(taker, [fourth], { taker: 5n * ONE, part: 3n })]);
    assert.deepEqual(await chain.read(exchange(), ABIS.exchange, 'orderStatus', [takerHash]), [false, 20n * ONE]);
  });

  it('lets only operators match, and only while trading is not paused', async () => {
    const [taker, maker] = [await buy(), await sell()];
    assert.equal(await chain.matchRevert(taker, [maker], 5n * ONE, [10n * ONE], exchange(), buyer), 'NotOperator');
    assert.equal(await asAdmin('pauseTrading', [], chain.operator), 'NotAdmin');
    await chain.send(chain.admin, exchange(), ABIS.exchange, 'pauseTrading', []);
    assert.equal(await revertOfPair(taker, maker), 'TradingIsPaused');
    assert.equal(await chain.revertOf(seller, exchange(), ABIS.exchange, 'cancelOrder', [maker]), undefined, 'cancels stay open while paused');
    await chain.send(chain.admin, exchange(), ABIS.exchange, 'unpauseTrading', []);
    assert.equal(await revertOfPair(taker, maker), undefined);
  });

  it('manages admins and operators, and keeps at least one admin', async () => {
    assert.equal(await asAdmin('setAdmin', [chain.admin.address, false]), 'CannotRemoveLastAdmin');
    assert.equal(await asAdmin('setOperator', [stranger.address, true], stranger), 'NotAdmin');
    await chain.send(chain.admin, exchange(), ABIS.exchange, 'setOperator', [stranger.address, true]);
    assert.equal(await chain.matchRevert(await buy(), [await sell()], 5n * ONE, [10n * ONE], exchange(), stranger), undefined, 'a new operator matches');
    await chain.send(chain.admin, exchange(), ABIS.exchange, 'setOperator', [stranger.address, false]);
    assert.equal(await chain.matchRevert(await buy(), [await sell()], 5n * ONE, [10n * ONE], exchange(), stranger), 'NotOperator');
    await chain.send(chain.admin, exchange(), ABIS.exchange, 'setAdmin', [stranger.address, true]);
    await chain.send(stranger, exchange(), ABIS.exchange, 'setAdmin', [chain.admin.address, false]);
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'isAdmin', [chain.admin.address]), false);
    await chain.send(stranger, exchange(), ABIS.exchange, 'setAdmin', [chain.admin.address, true]);
    await chain.send(chain.admin, exchange(), ABIS.exchange, 'setAdmin', [stranger.address, false]);
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'adminCount'), 1n);
  });

  it('bounds fee settings', async () => {
    assert.equal(await asAdmin('setMaxFeeRate', [10_001n]), 'FeeRateAboveLimit');
    assert.equal(await asAdmin('setFeeReceiver', [zeroAddress]), 'ZeroFeeReceiver');
    assert.equal(await asAdmin('setFeeReceiver', [stranger.address], stranger), 'NotAdmin');
  });

  it('charges each resting order the rate the operator names for its fill, up to its signed rate and never above', async () => {
    const feesBefore = await chain.collateralOf(chain.feeReceiver);
    // 10 tokens at 0.5: edge cost 5 USDC; taker 200 bps = 0.1, the maker the named 50 bps = 0.025.
    await chain.match(await buy({ feeRateBps: 200n }), [await sell({ feeRateBps: 200n })], 5n * ONE, [10n * ONE], exchange(), [50n]);
    assert.equal((await chain.collateralOf(chain.feeReceiver)) - feesBefore, 100_000n + 25_000n);
    const again = await chain.collateralOf(chain.feeReceiver);
    await chain.match(await buy({ feeRateBps: 0n }), [await sell({ feeRateBps: 100n })], 5n * ONE, [10n * ONE], exchange(), [100n]);
    assert.equal((await chain.collateralOf(chain.feeReceiver)) - again, 50_000n, 'the whole signed 100 bps');
    // Two makers of one match, each at its own rate: 0 and 30 bps of a 2.5 USDC edge each.
    const third = await chain.collateralOf(chain.feeReceiver);
    await chain.match(await buy({ feeRateBps: 0n }), [await sell({ feeRateBps: 100n, size: 5n * ONE }), await sell({ feeRateBps: 100n, size: 5n * ONE })], 5n * ONE, [5n * ONE, 5n * ONE], exchange(), [0n, 30n]);
    assert.equal((await chain.collateralOf(chain.feeReceiver)) - third, 7_500n);

    const above = await sell({ feeRateBps: 100n });
    const aboveHash = await chain.read(exchange(), ABIS.exchange, 'hashOrder', [above]);
    const args = [await buy(), [above], 5n * ONE, [10n * ONE]] as const;
    assert.deepEqual(await chain.revertErrorOf(chain.operator, exchange(), ABIS.exchange, 'matchOrders', [...args, [101n], 0n]), { name: 'MakerFeeRateAboveSigned', args: [aboveHash, 101n] });
    assert.equal(await chain.revertOf(chain.operator, exchange(), ABIS.exchange, 'matchOrders', [...args, [], 0n]), 'FillAmountsLengthMismatch');
    assert.equal(await chain.revertOf(chain.operator, exchange(), ABIS.exchange, 'fillOrder', [above, ONE, 101n]), 'MakerFeeRateAboveSigned');
  });

  it('cancels: by the maker or its signer, one or many, never by another; a cancelled order never fills', async () => {
    const [one, two] = [await sell(), await sell()];
    assert.equal(await chain.revertOf(stranger, exchange(), ABIS.exchange, 'cancelOrder', [one]), 'NotOrderOwner');
    await chain.send(seller, exchange(), ABIS.exchange, 'cancelOrders', [[one, two]]);
    assert.equal(await revertOfPair(await buy(), one), 'OrderIsCancelled');
    assert.equal(await revertOfPair(await buy(), two), 'OrderIsCancelled');
    const hash = await chain.read(exchange(), ABIS.exchange, 'hashOrder', [one]);
    assert.deepEqual(await chain.read(exchange(), ABIS.exchange, 'orderStatus', [hash]), [true, 0n]);
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'remainingOf', [one]), 0n);
  });

  it('incrementNonce invalidates every order of the maker signed with the old nonce', async () => {
    const old = await sell();
    await chain.send(seller, exchange(), ABIS.exchange, 'incrementNonce', []);
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'nonces', [seller.address]), 1n);
    assert.equal(await revertOfPair(await buy(), old), 'InvalidNonce');
    assert.equal(await revertOfPair(await buy(), await sell({ nonce: 1n })), undefined);
  });

  it('honours an expiration until it passes', async () => {
    const block = await chain.publicClient.getBlock();
    const order = await sell({ expiration: block.timestamp + 100n, nonce: 1n });
    assert.equal(await revertOfPair(await buy(), order), undefined);
    await chain.anvil.testClient.increaseTime({ seconds: 200 });
    await chain.anvil.testClient.mine({ blocks: 1 });
    assert.equal(await revertOfPair(await buy(), order), 'OrderExpired');
  });

  it('registers tokens once, in both directions, and only as a condition’s two positions', async () => {
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'complementOf', [market.no]), market.yes);
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'conditionOf', [market.yes]), market.conditionId);
    assert.equal(await asAdmin('registerToken', [market.yes, market.no, market.conditionId]), 'TokenAlreadyRegistered');
    assert.equal(await asAdmin('registerToken', [7n, market.no, market.conditionId]), 'TokenAlreadyRegistered');
    assert.equal(await asAdmin('registerToken', [7n, 8n, market.conditionId]), 'TokensNotOfCondition');
    assert.equal(await asAdmin('registerToken', [7n, 8n, market.conditionId], stranger), 'NotAdmin');
    assert.equal(await chain.read(chain.contracts.negRiskExchange, ABIS.exchange, 'isRegistered', [market.yes]), false, 'each exchange has its own registry');
  });

  it('fillOrder(s): the operator fills orders from its own balances at their price, each paying the maker fee', async () => {
    const { operator, feeReceiver } = chain;
    await chain.approveExchanges(operator);
    await chain.giveSets(operator, market, 50n * ONE);
    await chain.mint(operator.address, 50n * ONE);
    const nonce = await chain.read<bigint>(exchange(), ABIS.exchange, 'nonces', [seller.address]);
    const [sellOrder, buyOrder] = [await sell({ nonce, feeRateBps: 100n }), await buy({ feeRateBps: 100n })];
    const parties = [await chain.walletOf(seller.address), await chain.walletOf(buyer.address), operator.address, feeReceiver];
    const held = () => Promise.all(parties.map(async (address) => [await chain.collateralOf(address), await chain.tokensOf(address, market.yes)]));
    const before = await held();
    assert.equal(await chain.revertOf(buyer, exchange(), ABIS.exchange, 'fillOrder', [sellOrder, 4n * ONE, 100n]), 'NotOperator');
    assert.equal(await chain.revertOf(operator, exchange(), ABIS.exchange, 'fillOrders', [[sellOrder, buyOrder], [4n * ONE], [100n, 100n]]), 'FillAmountsLengthMismatch');
    assert.equal(await chain.revertOf(operator, exchange(), ABIS.exchange, 'fillOrders', [[sellOrder, buyOrder], [4n * ONE, 2n * ONE], [100n]]), 'FillAmountsLengthMismatch');
    // Both trade 4 YES at 0.50: 2 USDC each way; 100 bps of min(2, 4 − 2) USDC = 0.02 each.
    await chain.send(operator, exchange(), ABIS.exchange, 'fillOrders', [[sellOrder, buyOrder], [4n * ONE, 2n * ONE], [100n, 100n]]);
    const moved = (await held()).map(([collateral, yes], i) => [collateral! - before[i]![0]!, yes! - before[i]![1]!]);
    assert.deepEqual(moved, [
      [2n * ONE - 20_000n, -4n * ONE],
      [-2n * ONE - 20_000n, 4n * ONE],
      [0n, 0n],
      [40_000n, 0n],
    ]);
    assert.equal(await chain.read(exchange(), ABIS.exchange, 'remainingOf', [sellOrder]), 6n * ONE);
  });

  it('fillOrder honours an order’s taker: a private order fills against the operator only when it names the operator', async () => {
    const { operator } = chain;
    const nonce = await chain.read<bigint>(exchange(), ABIS.exchange, 'nonces', [seller.address]);
    const forBuyer = await sell({ nonce, taker: buyer.address });
    assert.equal(await chain.revertOf(operator, exchange(), ABIS.exchange, 'fillOrder', [forBuyer, ONE, 0n]), 'NotAllowedCounterparty');
    assert.equal(await chain.revertOf(operator, exchange(), ABIS.exchange, 'fillOrders', [[forBuyer], [ONE], [0n]]), 'NotAllowedCounterparty');
    assert.equal(await chain.revertOf(operator, exchange(), ABIS.exchange, 'fillOrder', [await sell({ nonce, taker: operator.address }), ONE, 0n]), undefined);
    assert.equal(await chain.revertOf(operator, exchange(), ABIS.exchange, 'fillOrder', [await sell({ nonce }), ONE, 0n]), undefined, 'a public order');
  });

  it('settles a neg-risk market on the neg-risk exchange, under its own domain', async () => {
    const negRisk = await chain.createMarket(true);
    await chain.giveWalletSets(seller, negRisk, 10n * ONE);
    const maker = await chain.signOrder({ signer: seller, tokenId: negRisk.yes, side: 'SELL', priceMicros: 300_000n, size: 10n * ONE, negRisk: true });
    const taker = await chain.signOrder({ signer: buyer, tokenId: negRisk.yes, side: 'BUY', priceMicros: 300_000n, size: 10n * ONE, negRisk: true });
    assert.equal(await chain.matchRevert(taker, [maker], 3n * ONE, [10n * ONE]), 'TokenNotRegistered', 'not on the main exchange');
    assert.equal(await chain.read(chain.contracts.negRiskExchange, ABIS.exchange, 'nonces', [seller.address]), 0n, 'nonces are per exchange');
    await chain.match(taker, [maker], 3n * ONE, [10n * ONE], chain.contracts.negRiskExchange);
    assert.equal(await chain.tokensOf(await chain.walletOf(buyer.address), negRisk.yes), 10n * ONE);
  });
});
