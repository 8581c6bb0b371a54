import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, get } from '../helpers/http.ts';
import { isNumeric, openApiRoutes, validValue, type OpenApiRoutes, type Operation } from '../helpers/openapi-routes.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * No value of a numeric query or path parameter reaches SQL out of range: every such parameter
 * of every route in /openapi.json has a maximum, and a value far past it is 400, never 500.
 */

// Infinity and what overflows to it were coerced to Infinity and passed every bound (a 500).
const OUT_OF_RANGE = ['99999999999999999999999', '1e308', '1e309', '-1e309', 'Infinity', '-Infinity'];

describe('numeric query and path parameters', () => {
  let server: TestServer;
  let operations: Operation[];
  let call: OpenApiRoutes['call'];
  let url: OpenApiRoutes['url'];
  before(async () => {
    server = await startTestServer();
    ({ operations, call, url } = await openApiRoutes(server));
  });
  after(async () => { await server.close(); });

  it('declares a maximum for every one of them', () => {
    const numeric = operations.flatMap((op) => op.parameters.filter((p) => isNumeric(p.schema)).map((p) => ({ route: op.path, ...p })));
    assert.ok(numeric.length > 20, 'the audit reads the routes');
    const unbounded = numeric.filter((p) => typeof p.schema.maximum !== 'number' || typeof p.schema.minimum !== 'number');
    assert.deepEqual(unbounded.map((p) => `${p.route} ${p.name}`), []);
  });

  it('answers 400 naming the parameter for values far out of range, on every route family', async () => {
    const checked = new Set<string>();
    for (const operation of operations) {
      const numeric = operation.parameters.filter((p) => isNumeric(p.schema));
      if (numeric.length === 0) continue;
      for (const parameter of numeric) {
        const inRange = await call(url(operation, { [parameter.name]: validValue(parameter) }), operation.security);
        assert.ok(inRange.status !== 400 && inRange.status < 500, `${operation.path} ${parameter.name} in range: ${inRange.status} ${JSON.stringify(inRange.body)}`);
        for (const bad of OUT_OF_RANGE) {
          const response = await call(url(operation, { [parameter.name]: bad }), operation.security);
          expectError(response, 400, 'VALIDATION_FAILED');
          assert.match(response.body.message, new RegExp(parameter.name), `${operation.path} ${parameter.name}=${bad}`);
        }
      }
      checked.add(operation.path.split('/')[3]!);
    }
    for (const family of ['events', 'orders', 'trades', 'markets', 'price-history', 'rewards']) assert.ok(checked.has(family), family);
  });

  it('answers 400 for date-times outside years 0001 to 9999 (UTC), on every route that takes one, and takes the ends', async () => {
    const dated = operations.flatMap((op) => op.parameters.filter((p) => p.schema.format === 'date-time').map((parameter) => ({ op, parameter })));
    assert.ok(dated.some(({ parameter }) => parameter.name === 'endDateFrom') && dated.some(({ parameter }) => parameter.name === 'at'), 'the walk reads the routes');
    for (const { op, parameter } of dated) {
      // Year 0000, and 9999-12-31 carried into year 10000 by its offset, reached the database (a 500).
      for (const bad of ['0000-01-01T00:00:00Z', '9999-12-31T23:00:00-05:00']) {
        const response = await call(url(op, { [parameter.name]: bad }), op.security);
        expectError(response, 400, 'VALIDATION_FAILED');
        assert.match(response.body.message, new RegExp(parameter.name), `${op.path} ${parameter.name}=${bad}`);
      }
      for (const end of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
        const response = await call(url(op, { [parameter.name]: end }), op.security);
        assert.ok(response.status !== 400 && response.status < 500, `${op.path} ${parameter.name}=${end}: ${response.status} ${JSON.stringify(response.body)}`);
      }
    }
  });

  it('refuses the two values found from outside (they were 500)', async () => {
    expectError(await get(server.api('/trades/activity?before=99999999999999999999999')), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api('/rewards/markets/pools?page=1e308')), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api('/trades?after=99999999999999999999999')), 400, 'VALIDATION_FAILED');
  });

  it('keeps the clamped limits clamped and the bounds usable', async () => {
    const pools = await get(server.api('/rewards/markets/pools?limit=500'));
    assert.equal(pools.status, 200);
    assert.equal(pools.body.limit, 50);
    assert.equal((await get(server.api(`/trades?before=253402300799`))).status, 200);
    assert.equal((await get(server.api(`/trades/activity?before=${Number.MAX_SAFE_INTEGER}`))).status, 200);
    assert.equal((await get(server.api('/trades/activity?minAmount=1000000000000'))).status, 200);
  });
});
