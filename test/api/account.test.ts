import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createApiKey, signedRequest, signIn, type SignedInUser } from '../helpers/auth-client.ts';
import { expectError, get, patch, request } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('account', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const update = (user: SignedInUser, body: unknown) => patch(server.api('/account'), body, bearer(user.token));

  it('shows a new account with its defaults, to a session token and to a signed request', async () => {
    const user = await signIn(server);
    const expected = { userId: user.user.userId, address: user.account.address, proxyWallet: user.user.proxyWallet, displayName: null, avatarUrl: null, anonymous: false };
    assert.deepEqual((await get(server.api('/account'), bearer(user.token))).body, expected);
    const creds = await createApiKey(server, user.token);
    const viaHmac = await signedRequest(server, creds, 'GET', '/account');
    assert.equal(viaHmac.status, 200);
    assert.deepEqual(viaHmac.body, expected);
  });

  it('requires credentials', async () => {
    expectError(await get(server.api('/account')), 401, 'UNAUTHORIZED');
    expectError(await patch(server.api('/account'), { anonymous: true }), 401, 'UNAUTHORIZED');
    expectError(await get(server.api('/account'), server.adminHeaders), 401, 'UNAUTHORIZED');
  });

  it('sets, keeps and clears profile fields', async () => {
    const user = await signIn(server);
    const set = await update(user, { displayName: 'trader_One-1', avatarUrl: 'https://example.com/a.png', anonymous: true });
    assert.equal(set.status, 200);
    assert.equal(set.body.displayName, 'trader_One-1');
    assert.equal(set.body.avatarUrl, 'https://example.com/a.png');
    assert.equal(set.body.anonymous, true);
    assert.deepEqual((await get(server.api('/account'), bearer(user.token))).body, set.body);

    const unchanged = await update(user, {});
    assert.deepEqual(unchanged.body, set.body);
    const onlyAnonymous = await update(user, { anonymous: false });
    assert.deepEqual(onlyAnonymous.body, { ...set.body, anonymous: false });
    const clearedName = await update(user, { displayName: null });
    assert.deepEqual(clearedName.body, { ...set.body, anonymous: false, displayName: null });
    const clearedAvatar = await update(user, { avatarUrl: null });
    assert.deepEqual(clearedAvatar.body, { ...set.body, anonymous: false, displayName: null, avatarUrl: null });
  });

  it('updates through a signed request too', async () => {
    const user = await signIn(server);
    const creds = await createApiKey(server, user.token);
    const response = await signedRequest(server, creds, 'PATCH', '/account', { anonymous: true, displayName: 'signed_patch' });
    assert.equal(response.status, 200);
    assert.equal(response.body.anonymous, true);
    assert.equal(response.body.displayName, 'signed_patch');
  });

  it('accepts display names of 3 to 30 letters, digits, _ and -', async () => {
    const user = await signIn(server);
    for (const name of ['abc', 'A'.repeat(30), 'a_b-c9']) {
      const response = await update(user, { displayName: name });
      assert.equal(response.status, 200, name);
      assert.equal(response.body.displayName, name);
    }
  });

  it('refuses display names outside the rules with 400 and changes nothing', async () => {
    const user = await signIn(server);
    await update(user, { displayName: 'keeper' });
    for (const name of ['ab', 'A'.repeat(31), 'has space', 'dot.ted', 'émile', 'emoji😀', '', 'semi;colon', { name: 'x' }, ['abc']]) {
      expectError(await update(user, { displayName: name }), 400, 'VALIDATION_FAILED');
    }
    assert.equal((await get(server.api('/account'), bearer(user.token))).body.displayName, 'keeper');
  });

  it('keeps display names unique ignoring case, with 409', async () => {
    const alice = await signIn(server);
    const bob = await signIn(server);
    assert.equal((await update(alice, { displayName: 'Unique_Name' })).status, 200);
    expectError(await update(bob, { displayName: 'unique_name' }), 409, 'CONFLICT');
    expectError(await update(bob, { displayName: 'UNIQUE_NAME', anonymous: true }), 409, 'CONFLICT');
    const bobAccount = (await get(server.api('/account'), bearer(bob.token))).body;
    assert.equal(bobAccount.displayName, null);
    assert.equal(bobAccount.anonymous, false);
    // The holder may change the letter case of its own name.
    assert.equal((await update(alice, { displayName: 'UNIQUE_name' })).body.displayName, 'UNIQUE_name');
    // Once released, the name is free.
    await update(alice, { displayName: null });
    assert.equal((await update(bob, { displayName: 'unique_name' })).status, 200);
  });

  it('accepts http(s) avatar URLs only', async () => {
    const user = await signIn(server);
    assert.equal((await update(user, { avatarUrl: 'http://cdn.example.org/u/1.jpg?size=64' })).status, 200);
    for (const url of ['not a url', 'javascript:alert(1)', 'ftp://example.com/a.png', 'data:image/png;base64,AAAA', `https://example.com/${'a'.repeat(2048)}`, 42, '']) {
      expectError(await update(user, { avatarUrl: url }), 400, 'VALIDATION_FAILED');
    }
    assert.equal((await get(server.api('/account'), bearer(user.token))).body.avatarUrl, 'http://cdn.example.org/u/1.jpg?size=64');
  });

  it('takes anonymous as a boolean', async () => {
    const user = await signIn(server);
    expectError(await update(user, { anonymous: 'maybe' }), 400, 'VALIDATION_FAILED');
    expectError(await update(user, { anonymous: { on: true } }), 400, 'VALIDATION_FAILED');
    assert.equal((await update(user, { anonymous: true })).body.anonymous, true);
    assert.equal((await update(user, { anonymous: false })).body.anonymous, false);
  });

  it('needs a JSON object body', async () => {
    const user = await signIn(server);
    expectError(await request('PATCH', server.api('/account'), { headers: bearer(user.token) }), 400, 'VALIDATION_FAILED');
    expectError(await update(user, ['anonymous']), 400, 'VALIDATION_FAILED');
    expectError(await request('PATCH', server.api('/account'), { headers: { ...bearer(user.token), 'content-type': 'application/json' }, rawBody: '{"anonymous":' }), 400, 'VALIDATION_FAILED');
  });
});
