import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { within } from '../../src/core/within.ts';
import { bearer, createApiKey, exchangeInfo, signIn } from '../helpers/auth-client.ts';
import { expectError, get, post, request } from '../helpers/http.ts';
import { OpenInboxes } from '../helpers/open-inboxes.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { newTrader, type Trader } from '../helpers/trader.ts';
import { apiKeyHandshake, disconnection, refusedConnection } from '../realtime/helpers.ts';

describe('revocation reaches open sockets; POST /auth/logout', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  const inboxes = new OpenInboxes();
  const open = (auth: Record<string, unknown>) => inboxes.connect(server.url, '/user', auth);

  before(async () => {
    server = await startTestServer();
    [alice, bob] = [await newTrader(server), await newTrader(server)];
  });
  after(async () => {
    inboxes.closeAll();
    await server.close();
  });

  it('disconnects the /user sockets opened with an API key when it is revoked, and only those', async () => {
    const second = await createApiKey(server, alice.session.token);
    const revokedSocket = await open(await apiKeyHandshake(server, alice.creds));
    const otherKeySocket = await open(await apiKeyHandshake(server, second));
    const bobSocket = await open(await apiKeyHandshake(server, bob.creds));
    const gone = disconnection(revokedSocket);
    assert.equal((await request('DELETE', server.api(`/auth/api-keys/${alice.creds.apiKey}`), { headers: bearer(alice.session.token) })).status, 204);
    assert.equal(await gone, 'io server disconnect');
    assert.equal(otherKeySocket.socket.connected, true);
    assert.equal(bobSocket.socket.connected, true);
    const refused = await refusedConnection(server.url, '/user', await apiKeyHandshake(server, alice.creds));
    assert.match(refused.message, /invalid API key/);
  });

  it('replaces the /user connection a reconnect resumes: one handshake signature, one live connection', async () => {
    const carol = await newTrader(server);
    const auth = await apiKeyHandshake(server, carol.creds);
    const first = await open(auth);
    const firstGone = disconnection(first);
    const resumed = await open({ ...auth, sessionId: first.socket.id });
    assert.equal(await within(firstGone, 10_000, () => 'still connected'), 'io server disconnect');
    assert.ok(resumed.socket.connected);
    // The resumed connection is the one its signature opened last: naming the replaced one again is a replay.
    assert.match((await refusedConnection(server.url, '/user', { ...auth, sessionId: first.socket.id })).message, /already used/);
  });

  it('ends a session on POST /auth/logout: 204, its token refused everywhere after, its sockets disconnected', async () => {
    const session = await signIn(server, alice.session.account);
    const other = await signIn(server, alice.session.account);
    const socket = await open({ token: session.token });
    const otherSocket = await open({ token: other.token });
    const gone = disconnection(socket);
    const logout = await post(server.api('/auth/logout'), undefined, bearer(session.token));
    assert.equal(logout.status, 204);
    assert.equal(await gone, 'io server disconnect');
    expectError(await get(server.api('/account'), bearer(session.token)), 401, 'UNAUTHORIZED');
    expectError(await post(server.api('/auth/logout'), undefined, bearer(session.token)), 401, 'UNAUTHORIZED');
    assert.match((await refusedConnection(server.url, '/user', { token: session.token })).message, /ended/);
    // Another session of the same user is untouched.
    assert.equal(otherSocket.socket.connected, true);
    assert.equal((await get(server.api('/account'), bearer(other.token))).status, 200);
  });

  it('refuses logout without a session token, with a bad one, and with an API key alone', async () => {
    expectError(await post(server.api('/auth/logout')), 401, 'UNAUTHORIZED');
    expectError(await post(server.api('/auth/logout'), undefined, bearer(`${bob.session.token}x`)), 401, 'UNAUTHORIZED');
    expectError(await bob.call('POST', '/auth/logout'), 401, 'UNAUTHORIZED');
    assert.equal((await get(server.api('/account'), bearer(bob.session.token))).status, 200);
  });

  it('disconnects a session socket when the server clock passes its token expiry', async () => {
    const session = await signIn(server, bob.session.account);
    const socket = await open({ token: session.token });
    const gone = disconnection(socket);
    const { serverTime } = await exchangeInfo(server);
    assert.equal((await post(server.api('/admin/clock'), { advanceMs: Date.parse(session.expiresAt) - serverTime }, server.adminHeaders)).status, 200);
    assert.equal(await gone, 'io server disconnect');
  });
});

describe('an ended session across a restart', () => {
  it('is still refused by the restarted server (the embedded database on disk)', async () => {
    if (process.env.DATABASE_URL) return; // the scratch PostgreSQL database is dropped on close
    const dir = mkdtempSync(join(tmpdir(), 'pmx-logout-'));
    try {
      let server = await startTestServer({ DATA_DIR: dir });
      const session = await signIn(server);
      assert.equal((await post(server.api('/auth/logout'), undefined, bearer(session.token))).status, 204);
      await server.close();
      server = await startTestServer({ DATA_DIR: dir });
      try {
        expectError(await get(server.api('/account'), bearer(session.token)), 401, 'UNAUTHORIZED');
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
