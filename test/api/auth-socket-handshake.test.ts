import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/contract/errors.ts';
import { createApiKey, exchangeInfo, signIn, type ApiCredentials, type SignedInUser } from '../helpers/auth-client.ts';
import { post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** The `/user` handshake of EXTENSIONS.md section 6, as a Socket.IO client would send it. */
function handshake(creds: ApiCredentials, timestamp: number | string) {
  const signature = createHmac('sha256', creds.secret).update(`${timestamp}GET/user`).digest('hex');
  return { apiKey: creds.apiKey, passphrase: creds.passphrase, timestamp, signature };
}

async function assertRefused(attempt: Promise<unknown>, reason?: RegExp): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.statusCode, 401);
    assert.equal(error.code, 'UNAUTHORIZED');
    if (reason) assert.match(error.message, reason);
    return true;
  });
}

describe('Socket.IO /user handshake verification', () => {
  let server: TestServer;
  let user: SignedInUser;
  let creds: ApiCredentials;
  let connections = 0;
  /** The handshake of a new connection (its id, as Socket.IO assigns one per socket). */
  const authenticate = (auth: unknown, connectionId = `connection-${++connections}`) => server.ctx.identity.authenticator.authenticateSocket(auth, connectionId);

  before(async () => {
    server = await startTestServer();
    user = await signIn(server);
    creds = await createApiKey(server, user.token);
  });
  after(async () => { await server.close(); });

  it('accepts an API-key handshake, with the timestamp as a number or a string', async () => {
    const { serverTime } = await exchangeInfo(server);
    const caller = await authenticate(handshake(creds, serverTime));
    assert.equal(caller.userId, user.user.userId);
    assert.equal(caller.address, user.user.address);
    assert.equal(caller.proxyWallet, user.user.proxyWallet);
    assert.equal(caller.via, 'apiKey');
    assert.equal((await authenticate(handshake(creds, String(serverTime - 1)))).userId, user.user.userId);
  });

  it('refuses a handshake signature seen before, unless the client resumes the connection it opened last', async () => {
    const { serverTime } = await exchangeInfo(server);
    const auth = handshake(creds, serverTime - 2);
    assert.equal((await authenticate(auth, 'first')).via, 'apiKey');
    await assertRefused(authenticate(auth, 'copy'), /already used/);
    await assertRefused(authenticate({ ...auth, sessionId: 'guessed' }, 'copy'), /already used/);
    // The client that opened "first" reconnects naming it; then only the newest id resumes.
    assert.equal((await authenticate({ ...auth, sessionId: 'first' }, 'second')).via, 'apiKey');
    await assertRefused(authenticate({ ...auth, sessionId: 'first' }, 'copy'), /already used/);
    assert.equal((await authenticate({ ...auth, sessionId: 'second' }, 'third')).via, 'apiKey');
    await assertRefused(authenticate({ ...auth, sessionId: '' }, 'copy'), /sessionId/);
    await assertRefused(authenticate({ ...auth, sessionId: 42 }, 'copy'), /sessionId/);
  });

  it('accepts a session token', async () => {
    const caller = await authenticate({ token: user.token });
    assert.equal(caller.userId, user.user.userId);
    assert.equal(caller.via, 'jwt');
  });

  it('refuses missing, wrong and stale credentials', async () => {
    const { serverTime } = await exchangeInfo(server);
    await assertRefused(authenticate(undefined));
    await assertRefused(authenticate({}), /required/);
    await assertRefused(authenticate({ token: `${user.token}x` }), /sign-in token/);
    await assertRefused(authenticate({ ...handshake(creds, serverTime), passphrase: 'wrong' }), /passphrase/);
    await assertRefused(authenticate({ ...handshake(creds, serverTime), timestamp: serverTime + 1 }), /signature/);
    await assertRefused(authenticate(handshake({ ...creds, secret: 'another' }, serverTime)), /signature/);
    await assertRefused(authenticate(handshake(creds, serverTime - 30_001)), /window/);
    await assertRefused(authenticate(handshake(creds, 1.5)), /milliseconds/);
    const restSignature = createHmac('sha256', creds.secret).update(`${serverTime}GET/api/v1/user`).digest('hex');
    await assertRefused(authenticate({ ...handshake(creds, serverTime), signature: restSignature }), /signature/);
  });

  it('refuses a handshake once its timestamp leaves the window, and a revoked key', async () => {
    const { serverTime } = await exchangeInfo(server);
    const other = await createApiKey(server, user.token);
    const auth = handshake(other, serverTime);
    assert.equal((await authenticate(auth)).via, 'apiKey');
    await post(server.api('/admin/clock'), { advanceMs: 30_001 }, server.adminHeaders);
    await assertRefused(authenticate(auth), /window/);
    const { serverTime: later } = await exchangeInfo(server);
    await server.ctx.identity.apiKeys.revoke(user.user.userId, other.apiKey);
    await assertRefused(authenticate(handshake(other, later)), /invalid API key/);
  });
});
