import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ExchangeOrderBuilder, Side, SignatureType } from '@polymarket/order-utils';
import { Wallet } from 'ethers';
import { parseConfig } from '../../src/config.ts';
import { checkCreateOrder } from '../../src/core/orders/create-order-rules.ts';
import { createMarketOrderHasher, orderStructOf } from '../../src/core/orders/eip712-order.ts';
import { deriveProxyWallet } from '../../src/core/proxy-wallet.ts';
import { createSignatureVerifier } from '../../src/engine/signatures/signature-verifier.ts';
import { NOW_SEC, TOKEN_1, ZERO, market } from '../helpers/order-fixtures.ts';

type Hex = `0x${string}`;

/**
 * Orders built and signed by the standard CTF-exchange order builder (@polymarket/order-utils,
 * signing with an ethers v5 wallet) for our domain pass the entry rules, hash to the builder's
 * own hash and verify. The builder's domain name is fixed, so the deployment is configured with
 * it: matching an existing client library is a matter of configuration (EXTENSIONS.md section 1).
 */
describe('orders from @polymarket/order-utils', () => {
  const config = parseConfig({ EXCHANGE_NAME: 'Polymarket CTF Exchange', CHAIN_ID: '137' });
  const hash = createMarketOrderHasher(config);
  const verifier = createSignatureVerifier({ workers: 1 });
  after(() => verifier.close());

  for (const [label, signatureType, negRisk] of [
    ['EOA order on the exchange', SignatureType.EOA, false],
    ['proxy-wallet order on the neg-risk exchange', SignatureType.POLY_PROXY, true],
  ] as const) {
    it(label, async () => {
      const wallet = Wallet.createRandom();
      const caller = { address: wallet.address as Hex, proxyWallet: deriveProxyWallet(wallet.address as Hex) };
      const contract = negRisk ? config.negRiskExchangeAddress : config.exchangeAddress;
      const builder = new ExchangeOrderBuilder(contract, config.chainId, wallet);
      const signed = await builder.buildSignedOrder({
        maker: signatureType === SignatureType.EOA ? caller.address : caller.proxyWallet,
        signer: caller.address,
        taker: ZERO,
        tokenId: TOKEN_1,
        makerAmount: '2350000',
        takerAmount: '5000000',
        side: Side.BUY,
        feeRateBps: String(market.orderFeeRateBps),
        nonce: '0',
        expiration: String(NOW_SEC + 3600),
        signatureType,
      });
      const result = checkCreateOrder({
        ...signed,
        expiration: Number(signed.expiration),
        nonce: Number(signed.nonce),
        feeRateBps: Number(signed.feeRateBps),
        orderType: 'GTC',
      }, { ...market, negRisk }, caller, NOW_SEC);
      if (!result.ok) assert.fail(`${result.violation.code}: ${result.violation.message}`);
      assert.equal(result.order.priceMicros, 470_000);
      const digest = hash(orderStructOf(result.order), negRisk);
      assert.equal(digest, builder.buildOrderHash(builder.buildOrderTypedData(signed)));
      assert.equal(await verifier.verify(digest, result.order.signature as Hex, result.order.signer), true);
      assert.equal(await verifier.verify(hash(orderStructOf(result.order), !negRisk), result.order.signature as Hex, result.order.signer), false, 'the other domain does not verify');
    });
  }
});
