import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { BUILT_CLI, ensureBuild } from '../helpers/build.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

const exec = promisify(execFile);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const ADDRESS = '0x00000000000000000000000000000000000000a1';

/**
 * `pmx credit` and `pmx rewards treasury` against an exchange whose deposits fail the way a chain
 * that stopped answering makes them (503, the error body of EXTENSIONS.md section 9) or are refused
 * (400): an HTTP server that answers only that, so the CLI's side is seen whatever the exchange's
 * state. A deposit always carries an idempotency key, the SDK retries a 503 with the same one, and a
 * failure that may have moved money names the command that makes it exactly once.
 */
describe('deposits from the CLI are made once per key', { skip: storeIndependent('the CLI') }, () => {
  let server: Server;
  let url: string;
  /** What the server answers, and the bodies of the deposits it received. */
  let answer = { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'the chain did not take the credit, so nothing was credited; try again' };
  const bodies: { idempotencyKey?: string }[] = [];
  before(async () => {
    ensureBuild();
    server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => { text += chunk; }).on('end', () => {
        if (text) bodies.push(JSON.parse(text));
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: answer.message, code: answer.code, message: answer.message }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function pmx(args: string[], at = url): Promise<{ stderr: string; code: number }> {
    bodies.length = 0;
    const env = { ...process.env, PMX_URL: at, ADMIN_TOKEN: 'an-admin-token', PMX_CONFIG: '/nonexistent/pmx.json' };
    return exec(process.execPath, [BUILT_CLI, ...args], { env }).then(({ stderr }) => ({ stderr, code: 0 }), (error: { stderr: string; code: number }) => ({ stderr: error.stderr, code: error.code }));
  }

  it('a credit that fails with 503 is retried with one key it made, then names the command that makes it once', async () => {
    const result = await pmx(['credit', ADDRESS, '250']);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(bodies.length, 4, 'the first try and three retries');
    const key = bodies[0]!.idempotencyKey!;
    assert.match(key, UUID);
    assert.deepEqual(new Set(bodies.map((body) => body.idempotencyKey)), new Set([key]));
    const lines = result.stderr.trim().split('\n');
    assert.match(lines[0]!, /^error 503 SERVICE_UNAVAILABLE: the chain did not take the credit/);
    assert.equal(lines[1], `it may have been made: to make it exactly once, run pmx credit ${ADDRESS} 250 --idempotency-key ${key}`);
  });

  it('names the key it was given, for the reward treasury too', async () => {
    const key = '0b0e6d2c-3f0a-4e55-9a51-1c2d3e4f5a6b';
    const result = await pmx(['rewards', 'treasury', '40', '--idempotency-key', key]);
    assert.equal(result.code, 1, result.stderr);
    assert.ok(bodies.length > 1 && bodies.every((body) => body.idempotencyKey === key));
    assert.match(result.stderr, new RegExp(`run pmx rewards treasury 40 --idempotency-key ${key}\n$`));
  });

  it('says nothing more of a deposit refused, or never sent, which moved nothing', async () => {
    answer = { status: 400, code: 'VALIDATION_FAILED', message: 'amount must be above 0' };
    const result = await pmx(['credit', ADDRESS, '250']);
    assert.equal(result.code, 1);
    assert.equal(bodies.length, 1);
    assert.equal(result.stderr, 'error 400 VALIDATION_FAILED: amount must be above 0\n');
    // A port nothing listens on: the request never left.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unsent = await pmx(['credit', ADDRESS, '250'], `http://127.0.0.1:${port}`);
    assert.equal(unsent.code, 1);
    assert.match(unsent.stderr, /^error: the exchange could not be reached \(connect ECONNREFUSED [^)]*\)[^\n]*\n$/);
  });
});
