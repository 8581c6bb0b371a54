import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { parseConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { bearer, createApiKey, exchangeInfo, hmacHeaders, signedRequest, signIn } from '../helpers/auth-client.ts';
import { expectError, get, post, request } from '../helpers/http.ts';
import { ADMIN_TOKEN, startTestServer, TEST_CHAIN, type TestServer } from '../helpers/server.ts';
import { REDIS_URL } from '../realtime/helpers.ts';

const BASE64URL_32_BYTES = /^[A-Za-z0-9_-]{43}$/;

describe('API keys', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const advance = async (advanceMs: number) => {
    assert.equal((await post(server.api('/admin/clock'), { advanceMs }, server.adminHeaders)).status, 200);
  };
  const keysOf = async (token: string) => {
    const response = await get(server.api('/auth/api-keys'), bearer(token));
    assert.equal(response.status, 200);
    return response.body as Array<{ apiKey: string; createdAt: string; lastUsedAt: string | null }>;
  };

  it('creates a key with a 32-byte secret and passphrase, shown once', async () => {
    const { token } = await signIn(server);
    const response = await request('POST', server.api('/auth/api-keys'), { headers: bearer(token) });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body).sort(), ['apiKey', 'passphrase', 'secret']);
    assert.match(response.body.apiKey, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(response.body.secret, BASE64URL_32_BYTES);
    assert.match(response.body.passphrase, BASE64URL_32_BYTES);
    const second = await createApiKey(server, token);
    assert.notEqual(second.apiKey, response.body.apiKey);
    assert.notEqual(second.secret, response.body.secret);
    const listed = await keysOf(token);
    assert.deepEqual(listed.map((key) => key.apiKey).sort(), [response.body.apiKey, second.apiKey].sort());
    for (const key of listed) assert.deepEqual(Object.keys(key).sort(), ['apiKey', 'createdAt', 'lastUsedAt']);
  });

  it('keeps the secret encrypted and the passphrase hashed at rest', async () => {
    const { token } = await signIn(server);
    const creds = await createApiKey(server, token);
    const row = await server.ctx.store.db.selectFrom('api_keys').selectAll().where('id', '=', creds.apiKey).executeTakeFirstOrThrow();
    assert.ok(!row.secret_ciphertext.includes(creds.secret));
    assert.ok(!Buffer.from(row.secret_ciphertext.split('.')[1]!, 'base64url').toString('latin1').includes(creds.secret));
    assert.ok(!row.passphrase_hash.includes(creds.passphrase));
    // A generated key is in the database only on PostgreSQL run with --allow-generated-keys (issue 38).
    const stored = await server.ctx.store.db.selectFrom('settings').select('value').where('key', '=', 'api_key_encryption_key').executeTakeFirst();
    if (server.ctx.store.kind === 'postgres') assert.match(stored?.value ?? '', /^[0-9a-f]{64}$/);
    else assert.equal(stored, undefined);
  });

  it('creates keys only with a session token', async () => {
    const { token } = await signIn(server);
    const creds = await createApiKey(server, token);
    expectError(await request('POST', server.api('/auth/api-keys')), 401, 'UNAUTHORIZED');
    expectError(await signedRequest(server, creds, 'POST', '/auth/api-keys'), 401, 'UNAUTHORIZED');
    expectError(await request('POST', server.api('/auth/api-keys'), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }), 401, 'UNAUTHORIZED');
    expectError(await request('POST', server.api('/auth/api-keys'), { headers: bearer(`${token}x`) }), 401, 'UNAUTHORIZED');
  });

  it("lists only the caller's keys, with a session token or a signed request", async () => {
    const alice = await signIn(server);
    const bob = await signIn(server);
    const aliceKey = await createApiKey(server, alice.token);
    await createApiKey(server, bob.token);
    const { serverTime } = await exchangeInfo(server);
    const viaJwt = await keysOf(alice.token);
    assert.deepEqual(viaJwt, [{ apiKey: aliceKey.apiKey, createdAt: new Date(serverTime).toISOString(), lastUsedAt: null }]);
    const viaHmac = await signedRequest(server, aliceKey, 'GET', '/auth/api-keys');
    assert.equal(viaHmac.status, 200);
    assert.deepEqual(viaHmac.body.map((key: { apiKey: string }) => key.apiKey), [aliceKey.apiKey]);
  });

  it('records lastUsedAt by the server clock, at most once a minute', async () => {
    const { token } = await signIn(server);
    const creds = await createApiKey(server, token);
    assert.equal((await keysOf(token))[0]!.lastUsedAt, null);
    const firstUse = (await exchangeInfo(server)).serverTime;
    assert.equal((await signedRequest(server, creds, 'GET', '/account')).status, 200);
    assert.equal((await keysOf(token))[0]!.lastUsedAt, new Date(firstUse).toISOString());
    await advance(59_999);
    assert.equal((await signedRequest(server, creds, 'GET', '/account')).status, 200);
    assert.equal((await keysOf(token))[0]!.lastUsedAt, new Date(firstUse).toISOString());
    await advance(1);
    assert.equal((await signedRequest(server, creds, 'GET', '/account')).status, 200);
    assert.equal((await keysOf(token))[0]!.lastUsedAt, new Date(firstUse + 60_000).toISOString());
  });

  it('revokes a key with a session token: it stops working at once and leaves the list', async () => {
    const { token } = await signIn(server);
    const kept = await createApiKey(server, token);
    const revoked = await createApiKey(server, token);
    assert.equal((await signedRequest(server, revoked, 'GET', '/account')).status, 200);
    const response = await request('DELETE', server.api(`/auth/api-keys/${revoked.apiKey}`), { headers: bearer(token) });
    assert.equal(response.status, 204);
    assert.equal(response.body, undefined);
    expectError(await signedRequest(server, revoked, 'GET', '/account'), 401, 'UNAUTHORIZED');
    assert.equal((await signedRequest(server, kept, 'GET', '/account')).status, 200);
    assert.deepEqual((await keysOf(token)).map((key) => key.apiKey), [kept.apiKey]);
    expectError(await request('DELETE', server.api(`/auth/api-keys/${revoked.apiKey}`), { headers: bearer(token) }), 404, 'NOT_FOUND');
  });

  it('revokes a key with a signed request, even the key that signs it', async () => {
    const { token } = await signIn(server);
    const creds = await createApiKey(server, token);
    const response = await signedRequest(server, creds, 'DELETE', `/auth/api-keys/${creds.apiKey}`);
    assert.equal(response.status, 204);
    expectError(await signedRequest(server, creds, 'GET', '/auth/api-keys'), 401, 'UNAUTHORIZED');
    assert.deepEqual(await keysOf(token), []);
  });

  it("answers 403 for another user's key (an action, EXTENSIONS.md section 2), 404 for an unknown key, and leaves the key working", async () => {
    const alice = await signIn(server);
    const mallory = await signIn(server);
    const aliceKey = await createApiKey(server, alice.token);
    const malloryKey = await createApiKey(server, mallory.token);
    expectError(await request('DELETE', server.api(`/auth/api-keys/${aliceKey.apiKey}`), { headers: bearer(mallory.token) }), 403, 'FORBIDDEN');
    expectError(await signedRequest(server, malloryKey, 'DELETE', `/auth/api-keys/${aliceKey.apiKey}`), 403, 'FORBIDDEN');
    expectError(await request('DELETE', server.api(`/auth/api-keys/${randomUUID()}`), { headers: bearer(alice.token) }), 404, 'NOT_FOUND');
    assert.equal((await signedRequest(server, aliceKey, 'GET', '/account')).status, 200);
  });

  it('validates the key id and requires credentials to revoke', async () => {
    const { token } = await signIn(server);
    const creds = await createApiKey(server, token);
    expectError(await request('DELETE', server.api('/auth/api-keys/not-a-uuid'), { headers: bearer(token) }), 400, 'VALIDATION_FAILED');
    expectError(await request('DELETE', server.api(`/auth/api-keys/${creds.apiKey}`)), 401, 'UNAUTHORIZED');
    expectError(await request('DELETE', server.api(`/auth/api-keys/${creds.apiKey}`), { headers: server.adminHeaders }), 401, 'UNAUTHORIZED');
    assert.equal((await signedRequest(server, creds, 'GET', '/account')).status, 200);
  });

  it('accepts the key id in upper case', async () => {
    const { token } = await signIn(server);
    const creds = await createApiKey(server, token);
    const upper = { ...creds, apiKey: creds.apiKey.toUpperCase() };
    assert.equal((await signedRequest(server, upper, 'GET', '/account')).status, 200);
    assert.equal((await request('DELETE', server.api(`/auth/api-keys/${upper.apiKey}`), { headers: bearer(token) })).status, 204);
    expectError(await signedRequest(server, creds, 'GET', '/account'), 401, 'UNAUTHORIZED');
  });
});

describe('API keys with a configured encryption key', () => {
  it('encrypts with API_KEY_ENCRYPTION_KEY and keeps no generated key', async () => {
    const server = await startTestServer({ API_KEY_ENCRYPTION_KEY: 'ab'.repeat(32) });
    try {
      const { token } = await signIn(server);
      const creds = await createApiKey(server, token);
      assert.equal((await signedRequest(server, creds, 'GET', '/account')).status, 200);
      const generated = await server.ctx.store.db.selectFrom('settings').select('value').where('key', '=', 'api_key_encryption_key').executeTakeFirst();
      assert.equal(generated, undefined);
    } finally {
      await server.close();
    }
  });
});

describe('API keys across nodes sharing one PostgreSQL database', { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL' }, () => {
  it('stops a key at once on every node when one node revokes it', async () => {
    // Nodes sharing a database share one Redis too (a node without it refuses to join: EXTENSIONS.md section 10).
    const nodeA = await startTestServer({ REDIS_URL });
    const nodeB = await startServer(parseConfig({ PORT: '0', DATA_DIR: 'memory://', DATABASE_URL: nodeA.ctx.config.databaseUrl!, REDIS_URL, ADMIN_TOKEN, LOG_LEVEL: 'silent', CLOCK: 'manual', ALLOW_GENERATED_KEYS: 'true', CHAIN: TEST_CHAIN })).catch(async (error: unknown) => {
      await nodeA.close();
      throw error;
    });
    try {
      const { token } = await signIn(nodeA);
      const creds = await createApiKey(nodeA, token);
      assert.equal((await signedRequest(nodeA, creds, 'GET', '/account')).status, 200);
      const onB = async () => {
        const { serverTime } = await exchangeInfo(nodeA);
        return request('GET', `${nodeB.url}/api/v1/account`, { headers: hmacHeaders(creds, 'GET', '/api/v1/account', '', { timestampMs: serverTime - 7 }) });
      };
      assert.equal((await onB()).status, 200);
      assert.equal((await request('DELETE', `${nodeB.url}/api/v1/auth/api-keys/${creds.apiKey}`, { headers: bearer(token) })).status, 204);
      expectError(await signedRequest(nodeA, creds, 'GET', '/account'), 401, 'UNAUTHORIZED');
    } finally {
      await nodeB.close();
      await nodeA.close();
    }
  });
});
