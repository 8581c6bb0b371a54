import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ExchangeOrderBuilder, Side, SignatureType } from '@polymarket/order-utils';
import { Wallet } from 'ethers';
import { type Hex, toHex, zeroAddress } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { createOrderHasher, type OrderStruct } from '../../src/core/orders/eip712-order.ts';
import { ABIS, type ExchangeChain, type Market, ONE, type SignedOrder, startExchangeChain } from '../helpers/exchange-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/** The standard client's fixed domain name: the deployment is configured with it (EXTENSIONS.md section 1). */
const POLYMARKET_NAME = 'Polymarket CTF Exchange';

/**
 * Orders as the server and a standard client produce them settle on chain unchanged: the
 * contract's order hash is the server's (createOrderHasher) on both exchanges, an order signed
 * over the server's digest fills, and so do orders built and signed by @polymarket/order-utils.
 */
describe('orders from the server’s hasher and from @polymarket/order-utils', { skip: storeIndependent('the chain') }, () => {
  let chain: ExchangeChain;
  let market: Market;
  let seller: HDAccount;
  let buyer: HDAccount;

  before(async () => {
    chain = await startExchangeChain({ exchangeName: POLYMARKET_NAME });
    market = await chain.createMarket();
    [seller, buyer] = [3, 4].map((i) => chain.anvil.account(i)) as [HDAccount, HDAccount];
    for (const trader of [seller, buyer]) await chain.fundTrader(trader, market, 100n * ONE);
  });
  after(() => chain?.stop());

  const hasherFor = (negRisk: boolean) => createOrderHasher(chain.orderDomain(negRisk));
  const structOf = ({ signature: _, ...message }: SignedOrder): OrderStruct => message;

  it('hashes every order as the server does, on the exchange and the neg-risk exchange', async () => {
    for (const negRisk of [false, true]) {
      const address = negRisk ? chain.contracts.negRiskExchange : chain.contracts.exchange;
      for (const [side, signatureType, expiration] of [['BUY', 0, 0n], ['SELL', 1, 1_900_000_000n], ['BUY', 2, 12n]] as const) {
        const order = await chain.signOrder({ signer: seller, tokenId: market.no, side, priceMicros: 123_000n, size: 7n * ONE, feeRateBps: 35n, nonce: 3n, expiration, signatureType, salt: 2n ** 128n - 1n, negRisk });
        assert.equal(await chain.read(address, ABIS.exchange, 'hashOrder', [order]), hasherFor(negRisk)(structOf(order)));
      }
    }
  });

  it('fills an order signed over the server’s digest', async () => {
    const unsigned = await chain.signOrder({ signer: seller, tokenId: market.yes, side: 'SELL', priceMicros: 250_000n, size: 8n * ONE });
    const signature = await seller.sign({ hash: hasherFor(false)(structOf(unsigned)) });
    const maker = { ...unsigned, signature };
    const taker = await chain.signOrder({ signer: buyer, tokenId: market.yes, side: 'BUY', priceMicros: 250_000n, size: 8n * ONE });
    await chain.match(taker, [maker], 2n * ONE, [8n * ONE]);
    assert.equal(await chain.tokensOf(await chain.walletOf(buyer.address), market.yes), 108n * ONE);
  });

  it('fills orders built and signed by @polymarket/order-utils (EOA and proxy wallet)', async () => {
    const { exchange } = chain.contracts;
    const builderFor = (account: HDAccount) => new ExchangeOrderBuilder(exchange, chain.anvil.chain.id, new Wallet(toHex(account.getHdKey().privateKey!)));
    const [sellerWallet, buyerWallet] = [await chain.walletOf(seller.address), await chain.walletOf(buyer.address)];
    const maker = await utilsOrder(builderFor(seller), sellerWallet, seller.address, market.no, 20n * ONE, 9n * ONE, Side.SELL, SignatureType.POLY_PROXY);
    const taker = await utilsOrder(builderFor(buyer), buyer.address, buyer.address, market.no, 9n * ONE, 20n * ONE, Side.BUY, SignatureType.EOA);
    const before = await chain.collateralOf(sellerWallet);
    await chain.match(toContractOrder(taker), [toContractOrder(maker)], 9n * ONE, [20n * ONE]);
    assert.equal(await chain.tokensOf(buyerWallet, market.no), 120n * ONE, 'the EOA order settled from the signer’s wallet');
    assert.equal((await chain.collateralOf(sellerWallet)) - before, 9n * ONE);
  });
});

/** An order built and signed by order-utils, no fee, nonce 0. */
function utilsOrder(builder: ExchangeOrderBuilder, maker: string, signer: string, tokenId: bigint, makerAmount: bigint, takerAmount: bigint, side: Side, signatureType: SignatureType) {
  const amounts = { makerAmount: String(makerAmount), takerAmount: String(takerAmount) };
  return builder.buildSignedOrder({ maker, signer, taker: zeroAddress, tokenId: tokenId.toString(), ...amounts, side, feeRateBps: '0', nonce: '0', signatureType });
}

/** order-utils' decimal strings and enums as the contract's Order tuple. */
function toContractOrder(order: Awaited<ReturnType<ExchangeOrderBuilder['buildSignedOrder']>>): SignedOrder {
  return {
    salt: BigInt(order.salt),
    maker: order.maker as Hex,
    signer: order.signer as Hex,
    taker: order.taker as Hex,
    tokenId: BigInt(order.tokenId),
    makerAmount: BigInt(order.makerAmount),
    takerAmount: BigInt(order.takerAmount),
    expiration: BigInt(order.expiration),
    nonce: BigInt(order.nonce),
    feeRateBps: BigInt(order.feeRateBps),
    side: order.side as 0 | 1,
    signatureType: order.signatureType as 0 | 1 | 2,
    signature: order.signature as Hex,
  };
}
