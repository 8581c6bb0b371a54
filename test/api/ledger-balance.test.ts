import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { bearer, createApiKey, signedRequest, signIn } from '../helpers/auth-client.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean } from '../helpers/trader.ts';

const zero = { balance: '0', locked: '0', available: '0' };

describe('balances, admin credits and the faucet', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const credit = (body: unknown, headers = server.adminHeaders) => post(server.api('/admin/credits'), body, headers);

  it('shows an empty balance to a new user, by session token and by signed request', async () => {
    const user = await signIn(server);
    assert.deepEqual((await get(server.api('/account/balance'), bearer(user.token))).body, { collateral: zero, tokens: [] });
    const creds = await createApiKey(server, user.token);
    const signed = await signedRequest(server, creds, 'GET', '/account/balance');
    assert.equal(signed.status, 200);
    assert.deepEqual(signed.body, { collateral: zero, tokens: [] });
    expectError(await get(server.api('/account/balance')), 401, 'UNAUTHORIZED');
    expectError(await get(server.api('/account/balance'), server.adminHeaders), 401, 'UNAUTHORIZED');
  });

  it('credits a signed-in user by sign-in address in any letter case, adding up', async () => {
    const user = await signIn(server);
    const first = await credit({ address: user.account.address.toLowerCase(), amount: '12.5' });
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { address: user.account.address, balance: '12.5' });
    const second = await credit({ address: user.account.address.toUpperCase().replace('0X', '0x'), amount: '0.000001' });
    assert.deepEqual(second.body, { address: user.account.address, balance: '12.500001' });
    const balance = await get(server.api('/account/balance'), bearer(user.token));
    assert.deepEqual(balance.body, { collateral: { balance: '12.500001', locked: '0', available: '12.500001' }, tokens: [] });
  });

  it('creates the user of an unknown address, whose first sign-in finds the credit', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const response = await credit({ address: wallet.address, amount: '100' });
    assert.deepEqual(response.body, { address: wallet.address, balance: '100' });
    const user = await signIn(server, wallet);
    assert.equal((await get(server.api('/account/balance'), bearer(user.token))).body.collateral.balance, '100');
  });

  it('with an idempotencyKey, credits once per key, at once or later (on a chain, paid once there too); the key with another amount or address is 409, moving nothing', async () => {
    const [user, other] = await Promise.all([signIn(server), signIn(server)]);
    const body = { address: user.account.address, amount: '3', idempotencyKey: randomUUID() };
    const answers = await Promise.all([credit(body), credit(body)]);
    assert.deepEqual(answers.map((a) => a.status), [200, 200]);
    assert.deepEqual((await credit(body)).body, { address: user.account.address, balance: '3' });
    expectError(await credit({ ...body, amount: '4' }), 409, 'CONFLICT');
    expectError(await credit({ ...body, address: other.account.address }), 409, 'CONFLICT');
    expectError(await credit({ ...body, idempotencyKey: 'again' }), 400, 'VALIDATION_FAILED');
    assert.deepEqual((await credit({ address: user.account.address, amount: '1' })).body.balance, '4', 'a credit without a key adds up as before');
    assert.equal((await get(server.api('/account/balance'), bearer(user.token))).body.collateral.balance, '4');
    assert.deepEqual((await get(server.api('/account/balance'), bearer(other.token))).body.collateral, zero);
    await expectAuditClean(server);
  });

  it('refuses credits without the admin token, and malformed or zero amounts', async () => {
    const user = await signIn(server);
    const body = { address: user.account.address, amount: '1' };
    expectError(await credit(body, {}), 401, 'UNAUTHORIZED');
    expectError(await credit(body, { ...bearer(user.token), 'content-type': 'application/json' }), 401, 'UNAUTHORIZED');
    for (const amount of ['0', '0.000000', '-1', '1.0000001', 'abc', '', '1e6', ' 1', '.5', null]) {
      expectError(await credit({ address: user.account.address, amount }), 400, 'VALIDATION_FAILED');
    }
    for (const address of ['0x123', 'nope', undefined]) expectError(await credit({ address, amount: '1' }), 400, 'VALIDATION_FAILED');
    assert.deepEqual((await get(server.api('/account/balance'), bearer(user.token))).body.collateral, zero);
  });

  it('pays the faucet to a signed request only, returning the new balance', async () => {
    const user = await signIn(server);
    const creds = await createApiKey(server, user.token);
    const paid = await signedRequest(server, creds, 'POST', '/account/faucet', { amount: '25' });
    assert.equal(paid.status, 200);
    assert.deepEqual(paid.body, { balance: '25' });
    assert.deepEqual((await signedRequest(server, creds, 'POST', '/account/faucet', { amount: '0.5' })).body, { balance: '25.5' });
    expectError(await post(server.api('/account/faucet'), { amount: '1' }, bearer(user.token)), 401, 'UNAUTHORIZED');
    expectError(await post(server.api('/account/faucet'), { amount: '1' }), 401, 'UNAUTHORIZED');
    expectError(await signedRequest(server, creds, 'POST', '/account/faucet', { amount: '0' }), 400, 'VALIDATION_FAILED');
    expectError(await signedRequest(server, creds, 'POST', '/account/faucet', { amount: '1.1234567' }), 400, 'VALIDATION_FAILED');
    expectError(await signedRequest(server, creds, 'POST', '/account/faucet', {}), 400, 'VALIDATION_FAILED');
  });

  it('keeps concurrent credits exact', async () => {
    const user = await signIn(server);
    await Promise.all(Array.from({ length: 20 }, () => credit({ address: user.account.address, amount: '0.25' })));
    assert.equal((await get(server.api('/account/balance'), bearer(user.token))).body.collateral.balance, '5');
  });
});

describe('the faucet when it is disabled', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ FAUCET_ENABLED: 'false' }); });
  after(async () => { await server.close(); });

  it('does not exist', async () => {
    const user = await signIn(server);
    const creds = await createApiKey(server, user.token);
    expectError(await signedRequest(server, creds, 'POST', '/account/faucet', { amount: '1' }), 404, 'NOT_FOUND');
  });
});
