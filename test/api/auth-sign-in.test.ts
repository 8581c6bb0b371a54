import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { bearer, exchangeInfo, login, signIn, signInMessage } from '../helpers/auth-client.ts';
import { expectError, get, post, request, type JsonResponse } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { request as httpRequest } from 'node:http';

/** POST /auth/login with headers fetch() cannot set (Host). */
function rawLogin(port: string, headers: Record<string, string>, body: unknown): Promise<JsonResponse> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port: Number(port), method: 'POST', path: '/api/v1/auth/login', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers } }, (answer) => {
      let data = '';
      answer.on('data', (chunk) => { data += chunk; });
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(data), headers: new Headers() }));
    });
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}

/** A 401 with the error body, for the reason the message names. */
function expectRefused(response: JsonResponse, reason: RegExp): void {
  expectError(response, 401, 'UNAUTHORIZED');
  assert.match(response.body.message, reason);
}

const newWallet = () => privateKeyToAccount(generatePrivateKey());
const DAY_MS = 24 * 60 * 60 * 1000;

describe('sign-in with Ethereum', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const advance = async (advanceMs: number) => {
    const moved = await post(server.api('/admin/clock'), { advanceMs }, server.adminHeaders);
    assert.equal(moved.status, 200);
  };

  it('issues distinct EIP-4361 nonces', async () => {
    const first = await get(server.api('/auth/nonce'));
    const second = await get(server.api('/auth/nonce'));
    assert.equal(first.status, 200);
    assert.match(first.body.nonce, /^[A-Za-z0-9]{8,}$/);
    assert.notEqual(first.body.nonce, second.body.nonce);
  });

  it('signs in, creating the account with its proxy wallet, and returns the same account next time', async () => {
    const wallet = newWallet();
    const { serverTime } = await exchangeInfo(server);
    const first = await signIn(server, wallet);
    assert.deepEqual(Object.keys(first.user).sort(), ['address', 'anonymous', 'avatarUrl', 'displayName', 'proxyWallet', 'userId']);
    assert.equal(first.user.address, wallet.address);
    assert.match(first.user.proxyWallet, /^0x[0-9a-fA-F]{40}$/);
    assert.notEqual(first.user.proxyWallet.toLowerCase(), wallet.address.toLowerCase());
    assert.equal(first.user.displayName, null);
    assert.equal(first.user.avatarUrl, null);
    assert.equal(first.user.anonymous, false);
    assert.equal(Date.parse(first.expiresAt), Math.floor(serverTime / 1000) * 1000 + DAY_MS);
    assert.equal(first.token.split('.').length, 3);
    const again = await signIn(server, wallet);
    assert.equal(again.user.userId, first.user.userId);
    assert.equal(again.user.proxyWallet, first.user.proxyWallet);
  });

  it('lets the session token read the account', async () => {
    const session = await signIn(server);
    const account = await get(server.api('/account'), bearer(session.token));
    assert.equal(account.status, 200);
    assert.deepEqual(account.body, session.user);
  });

  it('accepts a message inside its expirationTime', async () => {
    const wallet = newWallet();
    const { serverTime } = await exchangeInfo(server);
    const message = await signInMessage(server, wallet, { expirationTime: new Date(serverTime + 60_000) });
    const response = await login(server, message, await wallet.signMessage({ message }));
    assert.equal(response.status, 200);
  });

  it('refuses a signature by another wallet than the message names', async () => {
    const wallet = newWallet();
    const message = await signInMessage(server, wallet);
    expectRefused(await login(server, message, await newWallet().signMessage({ message })), /does not recover/);
  });

  it('refuses a tampered or malformed signature', async () => {
    const wallet = newWallet();
    const message = await signInMessage(server, wallet);
    const signature = await wallet.signMessage({ message });
    const tampered = `${signature.slice(0, 10)}${signature[10] === '0' ? '1' : '0'}${signature.slice(11)}`;
    expectRefused(await login(server, message, tampered), /does not recover|malformed/);
    expectRefused(await login(server, message, '0x1234'), /malformed/);
    expectError(await login(server, message, '0x'), 401, 'UNAUTHORIZED');
    // The failed attempts did not spend the nonce: the genuine signature still signs in.
    assert.equal((await login(server, message, signature)).status, 200);
  });

  it('refuses a signed message whose text was altered after signing', async () => {
    const wallet = newWallet();
    const message = await signInMessage(server, wallet);
    const signature = await wallet.signMessage({ message });
    expectRefused(await login(server, message.replace('Sign in to the exchange', 'Sign in to the exchange!'), signature), /does not recover/);
  });

  it('refuses a nonce the server never issued', async () => {
    const wallet = newWallet();
    const message = await signInMessage(server, wallet, { nonce: 'abcdef0123456789abcdef0123456789' });
    expectRefused(await login(server, message, await wallet.signMessage({ message })), /nonce/);
  });

  it('refuses a nonce used once already', async () => {
    const wallet = newWallet();
    const message = await signInMessage(server, wallet);
    const signature = await wallet.signMessage({ message });
    assert.equal((await login(server, message, signature)).status, 200);
    expectRefused(await login(server, message, signature), /nonce/);
  });

  it('accepts a nonce until 10 minutes have passed on the server clock, and not after', async () => {
    const nonceOf = async () => (await get(server.api('/auth/nonce'))).body.nonce as string;
    const fresh = await nonceOf();
    const stale = await nonceOf();
    await advance(10 * 60 * 1000 - 1);
    const wallet = newWallet();
    const inTime = await signInMessage(server, wallet, { nonce: fresh });
    assert.equal((await login(server, inTime, await wallet.signMessage({ message: inTime }))).status, 200);
    await advance(1);
    const late = await signInMessage(server, wallet, { nonce: stale });
    expectRefused(await login(server, late, await wallet.signMessage({ message: late })), /nonce/);
  });

  it('refuses an expired message', async () => {
    const wallet = newWallet();
    const { serverTime } = await exchangeInfo(server);
    const message = await signInMessage(server, wallet, { issuedAt: new Date(serverTime - 60_000), expirationTime: new Date(serverTime - 1) });
    expectRefused(await login(server, message, await wallet.signMessage({ message })), /expired or not yet valid/);
  });

  it('refuses a message before its notBefore, and accepts it once the clock gets there', async () => {
    const wallet = newWallet();
    const { serverTime } = await exchangeInfo(server);
    const message = await signInMessage(server, wallet, { notBefore: new Date(serverTime + 60_000) });
    const signature = await wallet.signMessage({ message });
    expectRefused(await login(server, message, signature), /expired or not yet valid/);
    await advance(60_000);
    assert.equal((await login(server, message, signature)).status, 200);
  });

  it('refuses a message for another chain', async () => {
    const wallet = newWallet();
    const message = await signInMessage(server, wallet, { chainId: 1 });
    expectRefused(await login(server, message, await wallet.signMessage({ message })), /chain/);
  });

  it('refuses a message written for another website, or naming another origin, without spending the nonce', async () => {
    const wallet = newWallet();
    const nonce = (await get(server.api('/auth/nonce'))).body.nonce;
    const host = new URL(server.url).host;
    for (const fields of [
      { domain: 'evil-phish.example' },
      { domain: host.replace(/:\d+$/, ':1') },
      { uri: 'https://evil-phish.example/' },
      { uri: `ftp://${host}/` },
    ]) {
      const message = await signInMessage(server, wallet, { nonce, ...fields });
      expectRefused(await login(server, message, await wallet.signMessage({ message })), /not for this exchange|not an origin of this exchange/);
    }
    const message = await signInMessage(server, wallet, { nonce, domain: host.toUpperCase() });
    assert.equal((await login(server, message, await wallet.signMessage({ message }))).status, 200);
  });

  it('accepts the hosts of SIWE_DOMAINS besides the request Host', async () => {
    const proxied = await startTestServer({ SIWE_DOMAINS: 'exchange.example.com, Other.Example:8443' });
    try {
      const wallet = newWallet();
      for (const [domain, uri] of [['exchange.example.com', 'https://exchange.example.com'], ['other.example:8443', 'https://other.example:8443/app']]) {
        const message = await signInMessage(proxied, wallet, { domain, uri });
        assert.equal((await login(proxied, message, await wallet.signMessage({ message }))).status, 200, domain);
      }
      const foreign = await signInMessage(proxied, wallet, { domain: 'exchange.example.com', uri: 'https://evil-phish.example' });
      expectRefused(await login(proxied, foreign, await wallet.signMessage({ message: foreign })), /not an origin/);
    } finally {
      await proxied.close();
    }
  });

  it('never checks a message against the Host or X-Forwarded-Host the sender writes (issue 38)', async () => {
    const proxied = await startTestServer({ TRUST_PROXY: 'true' });
    try {
      for (const target of [server, proxied]) {
        const wallet = newWallet();
        const message = await signInMessage(target, wallet, { domain: 'evil.example', uri: 'https://evil.example' });
        const signature = await wallet.signMessage({ message });
        const port = new URL(target.url).port;
        expectRefused(await rawLogin(port, { host: 'evil.example' }, { message, signature }), /not for this exchange/);
        expectRefused(await rawLogin(port, { 'x-forwarded-host': 'evil.example' }, { message, signature }), /not for this exchange/);
      }
    } finally {
      await proxied.close();
    }
  });

  it('binds sign-in to PUBLIC_URL when it is set, and to the listening origins only when it is not (issue 38)', async () => {
    const public_ = await startTestServer({ PUBLIC_URL: 'https://exchange.example, http://Other.Example:8080' });
    try {
      const wallet = newWallet();
      for (const [domain, uri] of [['exchange.example', 'https://exchange.example/app'], ['other.example:8080', 'http://other.example:8080']]) {
        const message = await signInMessage(public_, wallet, { domain, uri });
        assert.equal((await login(public_, message, await wallet.signMessage({ message }))).status, 200, domain);
      }
      // Its own listening origin is not public once PUBLIC_URL says what is; nor is another scheme.
      const local = await signInMessage(public_, wallet);
      expectRefused(await login(public_, local, await wallet.signMessage({ message: local })), /not for this exchange/);
      const plain = await signInMessage(public_, wallet, { domain: 'exchange.example', uri: 'http://exchange.example' });
      expectRefused(await login(public_, plain, await wallet.signMessage({ message: plain })), /not an origin/);
    } finally {
      await public_.close();
    }
    // Unset: localhost and 127.0.0.1 on the listening port.
    const wallet = newWallet();
    const port = new URL(server.url).port;
    const message = await signInMessage(server, wallet, { domain: `localhost:${port}`, uri: `http://localhost:${port}/` });
    assert.equal((await login(server, message, await wallet.signMessage({ message }))).status, 200);
  });

  it('refuses a message issued in the future beyond the HMAC window, or longer ago than a nonce lives (issue 38)', async () => {
    const wallet = newWallet();
    const { serverTime } = await exchangeInfo(server);
    for (const [issuedAt, reason] of [[serverTime + 31_000, /future/], [serverTime - 10 * 60 * 1000 - 1_000, /too old/]] as const) {
      const message = await signInMessage(server, wallet, { issuedAt: new Date(issuedAt) });
      expectRefused(await login(server, message, await wallet.signMessage({ message })), reason);
    }
    const skewed = await signInMessage(server, wallet, { issuedAt: new Date(serverTime + 20_000) });
    assert.equal((await login(server, skewed, await wallet.signMessage({ message: skewed }))).status, 200);
  });

  it('answers a malformed body with 400', async () => {
    const wallet = newWallet();
    const message = await signInMessage(server, wallet);
    const signature = await wallet.signMessage({ message });
    const loginWith = (body: unknown) => post(server.api('/auth/login'), body);
    expectError(await loginWith({ signature }), 400, 'VALIDATION_FAILED');
    expectError(await loginWith({ message }), 400, 'VALIDATION_FAILED');
    expectError(await loginWith({ message, signature: 'not-hex' }), 400, 'VALIDATION_FAILED');
    expectError(await loginWith({ message: 42, signature }), 400, 'VALIDATION_FAILED');
    expectError(await loginWith({ message: '', signature }), 400, 'VALIDATION_FAILED');
    expectError(await loginWith({ message: 'hello, let me in', signature }), 400, 'VALIDATION_FAILED');
    expectError(await loginWith({ message: message.replace('Version: 1', 'Version: 2'), signature }), 400, 'VALIDATION_FAILED');
    expectError(await loginWith({ message: message.replace(/Issued At: .*/, 'Issued At: yesterday'), signature }), 400, 'VALIDATION_FAILED');
    expectError(await loginWith({ message: 'x'.repeat(5000), signature }), 400, 'VALIDATION_FAILED');
    expectError(await loginWith([message, signature]), 400, 'VALIDATION_FAILED');
    expectError(await request('POST', server.api('/auth/login'), { rawBody: '{"message":', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_FAILED');
    expectError(await request('POST', server.api('/auth/login')), 400, 'VALIDATION_FAILED');
    // None of these spent the nonce.
    assert.equal((await loginWith({ message, signature })).status, 200);
  });

  it('expires the session token at expiresAt by the server clock', async () => {
    const session = await signIn(server);
    const expiresAtMs = Date.parse(session.expiresAt);
    const { serverTime } = await exchangeInfo(server);
    await advance(expiresAtMs - 1 - serverTime);
    assert.equal((await get(server.api('/account'), bearer(session.token))).status, 200);
    await advance(1);
    expectRefused(await get(server.api('/account'), bearer(session.token)), /expired/);
  });

  it('refuses forged, tampered and foreign tokens', async () => {
    const session = await signIn(server);
    const [header, payload, signature] = session.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherUser = await signIn(server);
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: otherUser.user.userId })).toString('base64url');
    expectError(await get(server.api('/account'), bearer(`${header}.${forgedPayload}.${signature}`)), 401, 'UNAUTHORIZED');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expectError(await get(server.api('/account'), bearer(unsigned)), 401, 'UNAUTHORIZED');
    expectError(await get(server.api('/account'), bearer('not-a-token')), 401, 'UNAUTHORIZED');
    expectError(await get(server.api('/account'), { authorization: session.token }), 401, 'UNAUTHORIZED');
    const other = await startTestServer({ JWT_SECRET: 'another-secret-of-at-least-32-characters' });
    try {
      const foreign = await signIn(other);
      expectError(await get(server.api('/account'), bearer(foreign.token)), 401, 'UNAUTHORIZED');
    } finally {
      await other.close();
    }
  });

  it('keeps a generated JWT secret in the settings table only on PostgreSQL with --allow-generated-keys, shared by every node (issue 38)', async () => {
    const row = await server.ctx.store.db.selectFrom('settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirst();
    if (server.ctx.store.kind === 'postgres') assert.ok(row && row.value.length >= 32);
    else assert.equal(row, undefined, 'the embedded store keeps generated keys out of the database');
  });
});
