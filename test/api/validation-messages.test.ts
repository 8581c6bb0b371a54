import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, signedRequest, signIn } from '../helpers/auth-client.ts';
import { expectError, post } from '../helpers/http.ts';
import { choicesOf, openApiRoutes, type OpenApiRoutes } from '../helpers/openapi-routes.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** A refused request's message says what would pass (EXTENSIONS.md section 9: 400 with the error body). */
describe('validation messages', () => {
  let server: TestServer;
  let routes: OpenApiRoutes;
  before(async () => {
    server = await startTestServer();
    routes = await openApiRoutes(server);
  });
  after(async () => { await server.close(); });

  it('name every value of a parameter that is a choice, on every GET route that has one', async () => {
    const checked: string[] = [];
    for (const operation of routes.operations) {
      for (const parameter of operation.parameters) {
        const choices = choicesOf(parameter.schema);
        if (!choices || parameter.in !== 'query') continue;
        const response = await routes.call(routes.url(operation, { [parameter.name]: 'not-a-choice' }), operation.security);
        expectError(response, 400, 'VALIDATION_FAILED');
        assert.equal(response.body.message, `querystring/${parameter.name} must be one of ${choices.join(', ')}`, `${operation.path} ${parameter.name}`);
        checked.push(`${operation.path} ${parameter.name}`);
      }
    }
    // Both kinds: enums (GET /events) and unions of literals (the rest).
    for (const route of ['/api/v1/events order', '/api/v1/price-history interval', '/api/v1/rewards/leaderboard window']) assert.ok(checked.includes(route), route);
  });

  it("name the literals of a body's choice, numbers sent as text included, in an order batch's items too", async () => {
    const creds = await createApiKey(server, (await signIn(server)).token);
    const order = { salt: '1', taker: `0x${'0'.repeat(40)}`, tokenId: '1', makerAmount: '1', takerAmount: '1', expiration: 0, side: 0, orderType: 'GTC' };
    for (const [wrong, message] of [[{ side: 'BUY' }, 'body/side must be one of 0, 1'], [{ side: 2 }, 'body/side must be one of 0, 1'], [{ orderType: 'gtc' }, 'body/orderType must be one of GTC, FOK, FAK']] as const) {
      const response = await signedRequest(server, creds, 'POST', '/orders', { ...order, ...wrong });
      expectError(response, 400, 'VALIDATION_FAILED');
      assert.equal(response.body.message, message);
      // A batch item fails alone, with the same words.
      const batch = await signedRequest(server, creds, 'POST', '/orders/batch', { orders: [{ ...order, ...wrong }] });
      assert.equal(batch.status, 200, JSON.stringify(batch.body));
      assert.equal(batch.body.results[0].error, `VALIDATION_FAILED: ${message.replace(/^body/, 'order')}`);
    }
  });

  it('name a property a body does not take', async () => {
    const response = await post(server.api('/auth/login'), { message: 'x', signature: '0x00', extra: 1 });
    expectError(response, 400, 'VALIDATION_FAILED');
    assert.equal(response.body.message, 'body must NOT have the additional property "extra"');
  });
});
