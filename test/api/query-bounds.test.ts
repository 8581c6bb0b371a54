import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { bearer, createApiKey, signedRequest, signIn, type ApiCredentials } from '../helpers/auth-client.ts';
import { expectError, get, request, type JsonResponse } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * No value of a numeric query or path parameter reaches SQL out of range: every such parameter
 * of every route in /openapi.json has a maximum, and a value far past it is 400, never 500.
 */

interface Parameter { name: string; in: 'query' | 'path'; required?: boolean; schema: Record<string, any> }
interface Operation { path: string; parameters: Parameter[]; security?: Array<Record<string, string[]>> }

const isNumeric = (schema: Record<string, any>) => schema.type === 'integer' || schema.type === 'number';
// Infinity and what overflows to it were coerced to Infinity and passed every bound (a 500).
const OUT_OF_RANGE = ['99999999999999999999999', '1e308', '1e309', '-1e309', 'Infinity', '-Infinity'];

/** A value the parameter's schema accepts, so that only the parameter under test is wrong. */
function validValue(parameter: Parameter): string {
  const schema = parameter.schema;
  if (isNumeric(schema)) return String(schema.minimum ?? 1);
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
  if (schema.enum) return String(schema.enum[0]);
  if (schema.anyOf?.[0]?.enum) return String(schema.anyOf[0].enum[0]);
  if (schema.pattern === '^0x[0-9a-fA-F]{40}$') return `0x${'1'.repeat(40)}`;
  if (schema.pattern?.startsWith('^[0-9]')) return '1';
  if (schema.pattern === '^[A-Z0-9]{2,10}/[A-Z0-9]{2,10}$') return 'BTC/USD';
  if (schema.type === 'boolean') return 'false';
  return 'x';
}

describe('numeric query and path parameters', () => {
  let server: TestServer;
  let token: string;
  let creds: ApiCredentials;
  let operations: Operation[];
  before(async () => {
    server = await startTestServer();
    ({ token } = await signIn(server));
    creds = await createApiKey(server, token);
    const doc = (await get(`${server.url}/openapi.json`)).body;
    operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, methods]) =>
      methods.get ? [{ path, parameters: methods.get.parameters ?? [], security: methods.get.security }] : []);
  });
  after(async () => { await server.close(); });

  /** GET as the route expects its caller: admin, a signed request, a session, or nobody. */
  const call = (path: string, security: Operation['security']): Promise<JsonResponse> => {
    if (path.startsWith('/api/v1/admin/')) return get(`${server.url}${path}`, server.adminHeaders);
    if (security?.some((s) => 'apiKey' in s)) return signedRequest(server, creds, 'GET', path.slice('/api/v1'.length));
    if (security?.some((s) => 'bearer' in s)) return request('GET', `${server.url}${path}`, { headers: bearer(token) });
    return get(`${server.url}${path}`);
  };
  /** The route with its path parameters and required query parameters valid, plus `extra`. */
  const url = (operation: Operation, extra: Record<string, string>) => {
    const values = new Map(operation.parameters.filter((p) => p.in === 'path' || p.required).map((p) => [p.name, validValue(p)]));
    for (const [name, value] of Object.entries(extra)) values.set(name, value);
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values.get(name)!));
    const query = operation.parameters.filter((p) => p.in === 'query' && values.has(p.name)).map((p) => `${p.name}=${encodeURIComponent(values.get(p.name)!)}`);
    return query.length ? `${path}?${query.join('&')}` : path;
  };

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
