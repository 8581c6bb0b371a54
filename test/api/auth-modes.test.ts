import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuth } from '../../src/api/auth/plugin.ts';
import { errorHandler } from '../../src/api/error-handler.ts';
import { bearer, createApiKey, exchangeInfo, hmacHeaders, signIn, type ApiCredentials } from '../helpers/auth-client.ts';
import { expectError, get } from '../helpers/http.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The route auth modes no identity route uses (`apiKey` only, `optionalUser`), checked with the
 * real identity authenticator of a running server behind a second small app with two routes.
 */
describe('auth modes with the identity authenticator', () => {
  let server: TestServer;
  let app: FastifyInstance;
  let base: string;
  let token: string;
  let creds: ApiCredentials;
  let timestampsUsed = 0;

  before(async () => {
    server = await startTestServer();
    app = Fastify();
    app.setErrorHandler(errorHandler);
    registerAuth(app, { adminToken: ADMIN_TOKEN, users: server.ctx.identity.authenticator });
    const whoAmI = async (request: { caller: unknown; isAdmin: boolean }) => ({ caller: request.caller, isAdmin: request.isAdmin });
    app.get('/api/v1/only-hmac', { config: { auth: 'apiKey' } }, whoAmI);
    app.get('/api/v1/maybe-user', { config: { auth: 'optionalUser' } }, whoAmI);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    ({ token } = await signIn(server));
    creds = await createApiKey(server, token);
  });
  after(async () => {
    await app.close();
    await server.close();
  });

  const signed = async (path: string) => {
    const { serverTime } = await exchangeInfo(server);
    return hmacHeaders(creds, 'GET', path, '', { timestampMs: serverTime - timestampsUsed++ });
  };

  it('serves an HMAC-only route to a signed request and refuses a session token', async () => {
    const response = await get(`${base}/api/v1/only-hmac`, await signed('/api/v1/only-hmac'));
    assert.equal(response.status, 200);
    assert.equal(response.body.caller.via, 'apiKey');
    assert.equal(response.body.caller.apiKey, creds.apiKey);
    expectError(await get(`${base}/api/v1/only-hmac`, bearer(token)), 401, 'UNAUTHORIZED');
    expectError(await get(`${base}/api/v1/only-hmac`), 401, 'UNAUTHORIZED');
  });

  it('identifies an optional user by either credential, and refuses bad ones', async () => {
    const anonymous = await get(`${base}/api/v1/maybe-user`);
    assert.deepEqual(anonymous.body, { caller: null, isAdmin: false });
    const viaJwt = await get(`${base}/api/v1/maybe-user`, bearer(token));
    assert.equal(viaJwt.body.caller.via, 'jwt');
    const viaHmac = await get(`${base}/api/v1/maybe-user`, await signed('/api/v1/maybe-user'));
    assert.equal(viaHmac.body.caller.via, 'apiKey');
    assert.equal(viaHmac.body.caller.userId, viaJwt.body.caller.userId);
    const admin = await get(`${base}/api/v1/maybe-user`, { authorization: `Bearer ${ADMIN_TOKEN}` });
    assert.deepEqual(admin.body, { caller: null, isAdmin: true });
    expectError(await get(`${base}/api/v1/maybe-user`, bearer(`${token}x`)), 401, 'UNAUTHORIZED');
    expectError(await get(`${base}/api/v1/maybe-user`, { 'svc-api-key': creds.apiKey }), 401, 'UNAUTHORIZED');
  });
});
