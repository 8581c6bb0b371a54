import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { genesisState } from '../../src/engine/genesis.ts';
import { withdrawalRef } from '../../src/engine/state/balance-commands.ts';
import { userAccount } from '../../src/settlement/index.ts';
import { bearer, exchangeInfo, hmacHeaders } from '../helpers/auth-client.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { expectError, post } from '../helpers/http.ts';
import { startTestServer, TEST_CHAIN, type TestServer } from '../helpers/server.ts';
import { closeAudited, expectAuditClean, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';
import { signWithdrawal, withdrawBody } from '../helpers/withdrawals.ts';

const TO = '0x1111111111111111111111111111111111111111';
const USDC = 1_000_000n;

// POST /account/withdraw on CHAIN=none (EXTENSIONS.md section 14): the ledger moves, the answer is its transaction.
describe('POST /account/withdraw', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => closeAudited(server));

  const collateral = async (trader: Trader) => (await trader.call('GET', '/account/balance')).body.collateral;

  it('moves the amount out with an API key or a session, answering the ledger transaction', async () => {
    const alice = await newTrader(server, { fund: '100' });
    const byKey = await alice.call('POST', '/account/withdraw', await withdrawBody(server, alice, { to: TO, amount: 30n * USDC, nonce: 1n }));
    assert.equal(byKey.status, 200, JSON.stringify(byKey.body));
    assert.match(byKey.body.txHash, /^0x[0-9a-f]{64}$/);
    assert.deepEqual(await collateral(alice), { balance: '70', locked: '0', available: '70' });

    // A session, the nonce as a decimal string.
    const body = { ...(await withdrawBody(server, alice, { to: TO, amount: 2_500_000n, nonce: 2n })), nonce: '2' };
    const bySession = await post(server.api('/account/withdraw'), body, bearer(alice.session.token));
    assert.equal(bySession.status, 200, JSON.stringify(bySession.body));
    assert.notEqual(bySession.body.txHash, byKey.body.txHash);
    assert.deepEqual(await collateral(alice), { balance: '67.5', locked: '0', available: '67.5' });
    await expectAuditClean(server);
  });

  it("sent to another user's wallet, the collateral arrives in that user's balance", async () => {
    const dora = await newTrader(server, { fund: '10' });
    const emil = await newTrader(server, { fund: '1' });
    const response = await dora.call('POST', '/account/withdraw', await withdrawBody(server, dora, { to: getAddress(emil.proxyWallet), amount: 2_500_000n, nonce: 1n }));
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual([(await collateral(dora)).balance, (await collateral(emil)).available], ['7.5', '3.5']);
    // Not to the wallet itself: nothing moves.
    expectError(await dora.call('POST', '/account/withdraw', await withdrawBody(server, dora, { to: getAddress(dora.proxyWallet), amount: USDC, nonce: 2n })), 400, 'VALIDATION_FAILED');
    assert.equal((await collateral(dora)).balance, '7.5');
    // On a chain the wallet received it there too: the audit compares every wallet with the ledger.
    await expectAuditClean(server);
  });

  it('refuses a nonce the wallet used before, moving nothing', async () => {
    const bob = await newTrader(server, { fund: '10' });
    assert.equal((await bob.call('POST', '/account/withdraw', await withdrawBody(server, bob, { to: TO, amount: USDC, nonce: 5n }))).status, 200);
    expectError(await bob.call('POST', '/account/withdraw', await withdrawBody(server, bob, { to: TO, amount: USDC, nonce: 5n })), 400, 'VALIDATION_FAILED');
    assert.equal((await collateral(bob)).balance, '9');
    // Another wallet's nonce 5 is its own.
    const carol = await newTrader(server, { fund: '10' });
    assert.equal((await carol.call('POST', '/account/withdraw', await withdrawBody(server, carol, { to: TO, amount: USDC, nonce: 5n }))).status, 200);
  });

  it("keeps a wallet's spent nonces in the tables, where a store without a snapshot starts from (genesis.ts)", async () => {
    const hana = await newTrader(server, { fund: '10' });
    const { body } = await hana.call('POST', '/account/withdraw', await withdrawBody(server, hana, { to: TO, amount: USDC, nonce: 11n }));
    await server.ctx.trading.engine.tablesHoldAll();
    const fromTables = await genesisState(server.ctx.store.db, []);
    const spent = fromTables.ledger.onceRefs.get(withdrawalRef(userAccount(hana.proxyWallet), 11n));
    // The answer names the ledger's transaction on CHAIN=none, the wallet's mined withdrawal on a chain.
    if (TEST_CHAIN === 'none') assert.equal(spent, body.txHash);
    else assert.match(spent ?? '', /^0x[0-9a-f]{64}$/);
  });

  it('refuses an amount above available, counting what open orders reserve', async () => {
    const dave = await newTrader(server, { fund: '20' });
    const market = (await createPublishedEvent(server)).markets[0]!;
    const order = await placeOrder(server, dave, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '20' });
    assert.equal(order.status, 200, JSON.stringify(order.body));
    assert.deepEqual(await collateral(dave), { balance: '20', locked: '10', available: '10' });
    expectError(await dave.call('POST', '/account/withdraw', await withdrawBody(server, dave, { to: TO, amount: 10n * USDC + 1n, nonce: 1n })), 400, 'INSUFFICIENT_BALANCE');
    assert.deepEqual(await collateral(dave), { balance: '20', locked: '10', available: '10' });
    // The refused nonce is not spent: the same one withdraws what is available.
    assert.equal((await dave.call('POST', '/account/withdraw', await withdrawBody(server, dave, { to: TO, amount: 10n * USDC, nonce: 1n }))).status, 200);
    assert.deepEqual(await collateral(dave), { balance: '10', locked: '10', available: '0' });
  });

  it("refuses a signature that is not the owner's of these terms", async () => {
    const erin = await newTrader(server, { fund: '10' });
    const terms = { to: TO, amount: USDC, nonce: 1n } as const;
    const body = await withdrawBody(server, erin, terms);
    const cases = {
      'signed by someone else': { ...body, signature: await signWithdrawal(server, privateKeyToAccount(generatePrivateKey()), terms) },
      'another amount': { ...body, amount: '2' },
      'another recipient': { ...body, to: '0x2222222222222222222222222222222222222222' },
      'another nonce': { ...body, nonce: 2 },
      'another chain': { ...body, signature: await signWithdrawal(server, erin.session.account, terms, { chainId: 1 }) },
      'another contract': { ...body, signature: await signWithdrawal(server, erin.session.account, terms, { verifyingContract: TO }) },
      'not a signature': { ...body, signature: `0x${'00'.repeat(65)}` },
    };
    for (const [name, wrong] of Object.entries(cases)) {
      const response = await erin.call('POST', '/account/withdraw', wrong);
      assert.doesNotThrow(() => expectError(response, 400, 'INVALID_SIGNATURE'), name);
    }
    assert.deepEqual(await collateral(erin), { balance: '10', locked: '0', available: '10' });
  });

  it('refuses a malformed body with the error body, moving nothing', async () => {
    const frank = await newTrader(server, { fund: '10' });
    const body = await withdrawBody(server, frank, { to: TO, amount: USDC, nonce: 1n });
    const { to: _to, ...withoutTo } = body;
    const { signature: _signature, ...withoutSignature } = body;
    const malformed: Record<string, unknown> = {
      'no to': withoutTo,
      'no signature': withoutSignature,
      'to not an address': { ...body, to: '0x1234' },
      'the zero address': { ...body, to: '0x0000000000000000000000000000000000000000' },
      'a zero amount': { ...body, amount: '0' },
      'a negative amount': { ...body, amount: '-1' },
      'seven decimals': { ...body, amount: '1.0000001' },
      'an amount as a number': { ...body, amount: 1 },
      'a negative nonce': { ...body, nonce: -1 },
      'a fractional nonce': { ...body, nonce: 1.5 },
      'a nonce not decimal': { ...body, nonce: '0x01' },
      'a nonce of 2^256': { ...body, nonce: (2n ** 256n).toString() },
      'a short signature': { ...body, signature: '0x1234' },
      'no body': undefined,
    };
    for (const [name, wrong] of Object.entries(malformed)) {
      const response = await frank.call('POST', '/account/withdraw', wrong);
      assert.doesNotThrow(() => expectError(response, 400, 'VALIDATION_FAILED'), `${name}: ${JSON.stringify(response.body)}`);
    }
    assert.deepEqual(await collateral(frank), { balance: '10', locked: '0', available: '10' });
  });

  it('is 401 without credentials or with bad ones', async () => {
    const gina = await newTrader(server, { fund: '10' });
    const body = await withdrawBody(server, gina, { to: TO, amount: USDC, nonce: 1n });
    expectError(await post(server.api('/account/withdraw'), body), 401, 'UNAUTHORIZED');
    expectError(await post(server.api('/account/withdraw'), body, bearer('not-a-token')), 401, 'UNAUTHORIZED');
    const { headerPrefix, serverTime } = await exchangeInfo(server);
    const wrongSecret = hmacHeaders({ ...gina.creds, secret: 'not-the-secret' }, 'POST', '/api/v1/account/withdraw', JSON.stringify(body), { timestampMs: serverTime, prefix: headerPrefix });
    expectError(await post(server.api('/account/withdraw'), body, wrongSecret), 401, 'UNAUTHORIZED');
    assert.equal((await collateral(gina)).balance, '10');
  });
});

describe('POST /account/withdraw below WITHDRAW_MIN_USDC', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ WITHDRAW_MIN_USDC: '2' });
  });
  after(() => server?.close());

  it('is refused, moving nothing and spending no nonce; the least itself is taken', async () => {
    const hana = await newTrader(server, { fund: '10' });
    const below = await hana.call('POST', '/account/withdraw', await withdrawBody(server, hana, { to: TO, amount: 1_999_999n, nonce: 1n }));
    expectError(below, 400, 'VALIDATION_FAILED');
    assert.match(below.body.message, /at least 2 USDC \(WITHDRAW_MIN_USDC\)/);
    assert.equal((await hana.call('GET', '/account/balance')).body.collateral.balance, '10');
    assert.equal((await hana.call('POST', '/account/withdraw', await withdrawBody(server, hana, { to: TO, amount: 2n * USDC, nonce: 1n }))).status, 200);
    assert.equal((await hana.call('GET', '/account/balance')).body.collateral.balance, '8');
  });
});
