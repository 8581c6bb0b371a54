import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, parseEventLogs } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { ABIS, type ExchangeChain, type Market, ONE, type OrderParams, startExchangeChain } from '../helpers/exchange-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { walletParties } from '../helpers/wallet-parties.ts';

/**
 * Orders an API key placed without a signature (EXTENSIONS.md section 11: maker the caller's proxy
 * wallet, signer its sign-in address, nonce 0, signatureType 1, signature empty) settle on the
 * operator's word, only for a deployed proxy wallet whose owner leaves operator trading on.
 */
describe('unsigned orders', { skip: storeIndependent('the chain') }, () => {
  let chain: ExchangeChain;
  let market: Market;
  let owner: HDAccount;
  let counterparty: HDAccount;
  let stranger: HDAccount;
  let wallet: Address;

  before(async () => {
    chain = await startExchangeChain();
    ({ market, owner, counterparty, stranger } = await walletParties(chain));
    wallet = await chain.deployWallet(owner.address);
    await chain.mint(wallet, 100n * ONE);
  });
  after(() => chain?.stop());

  /** The wallet's order of `size` YES at 0.40, as the API stores a key's unsigned one. */
  const unsigned = (side: 'BUY' | 'SELL', overrides: Partial<OrderParams> = {}) =>
    chain.unsignedOrder({ signer: owner, signatureType: 1, tokenId: market.yes, side, priceMicros: 400_000n, size: 10n * ONE, ...overrides });
  /** The counterparty's signed order on the other side, at the same price and size. */
  const against = (side: 'BUY' | 'SELL') => chain.signOrder({ signer: counterparty, tokenId: market.yes, side, priceMicros: 400_000n, size: 10n * ONE });
  const cost = 4n * ONE;

  it('starts with operator trading on, and settles an unsigned wallet order as taker and as maker', async () => {
    assert.equal(await chain.read(wallet, ABIS.wallet, 'operatorTrading'), true);
    const asTaker = await unsigned('BUY');
    assert.equal(asTaker.maker, wallet);
    await chain.match(asTaker, [await against('SELL')], cost, [10n * ONE]);
    assert.equal(await chain.tokensOf(wallet, market.yes), 10n * ONE);

    await chain.match(await against('BUY'), [await unsigned('SELL')], cost, [10n * ONE]);
    assert.equal(await chain.tokensOf(wallet, market.yes), 0n);
    assert.equal(await chain.collateralOf(wallet), 100n * ONE, 'bought and sold back at 0.40, no fees');
  });

  it('settles an unsigned order of type 0 (EOA) from its signer’s wallet, as one of type 1', async () => {
    const eoa = await chain.unsignedOrder({ signer: owner, signatureType: 0, tokenId: market.yes, side: 'BUY', priceMicros: 400_000n, size: 10n * ONE });
    assert.equal(eoa.maker, owner.address);
    await chain.match(eoa, [await against('SELL')], cost, [10n * ONE]);
    assert.equal(await chain.tokensOf(wallet, market.yes), 10n * ONE);
    await chain.match(await against('BUY'), [await unsigned('SELL')], cost, [10n * ONE]);
    assert.equal(await chain.collateralOf(wallet), 100n * ONE);
  });

  it('refuses an unsigned order of a wallet that is not the signer’s or not deployed', async () => {
    assert.equal(await chain.matchRevert(await unsigned('BUY', { maker: stranger.address }), [await against('SELL')], cost, [10n * ONE]), 'MakerIsNotSignersWallet');
    assert.equal(await chain.matchRevert(await unsigned('BUY', { signer: stranger }), [await against('SELL')], cost, [10n * ONE]), 'ProxyWalletNotDeployed');
    const garbled = { ...(await unsigned('BUY')), signature: '0x01' as const };
    assert.equal(await chain.matchRevert(garbled, [await against('SELL')], cost, [10n * ONE]), 'InvalidSignature', 'only an empty signature means unsigned');
  });

  it('lets only the owner turn operator trading off; then unsigned orders revert and signed ones still settle', async () => {
    for (const account of [stranger, chain.operator, counterparty]) {
      assert.equal(await chain.revertOf(account, wallet, ABIS.wallet, 'setOperatorTrading', [false]), 'NotOwner');
    }
    const hash = await chain.send(owner, wallet, ABIS.wallet, 'setOperatorTrading', [false]);
    const { logs } = await chain.publicClient.getTransactionReceipt({ hash });
    assert.deepEqual(parseEventLogs({ abi: ABIS.wallet, logs }).map(({ eventName, args }) => ({ eventName, args })), [{ eventName: 'OperatorTradingSet', args: { allowed: false } }]);
    assert.equal(await chain.read(wallet, ABIS.wallet, 'operatorTrading'), false);

    assert.equal(await chain.matchRevert(await unsigned('BUY'), [await against('SELL')], cost, [10n * ONE]), 'UnsignedOrderNotAllowed');
    assert.equal(await chain.matchRevert(await against('BUY'), [await unsigned('SELL')], cost, [10n * ONE]), 'UnsignedOrderNotAllowed');
    const signed = await chain.signOrder({ signer: owner, signatureType: 1, tokenId: market.yes, side: 'BUY', priceMicros: 400_000n, size: 10n * ONE });
    await chain.match(signed, [await against('SELL')], cost, [10n * ONE]);
    assert.equal(await chain.tokensOf(wallet, market.yes), 10n * ONE);

    await chain.send(owner, wallet, ABIS.wallet, 'setOperatorTrading', [true]);
    assert.equal(await chain.matchRevert(await unsigned('SELL'), [await against('BUY')], 10n * ONE, [cost]), undefined, 'on again');
  });
});
