import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { generatePrivateKey } from 'viem/accounts';
import { BUILT_CLI, ensureBuild } from '../helpers/build.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

const exec = promisify(execFile);

/** The built `pmx` with only `env` (nothing of the test process's leaks in): its exit code and stderr. */
async function pmx(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await exec(process.execPath, [BUILT_CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

/**
 * An unexpected error of a command is printed through the server's log redaction (src/cli/main.ts,
 * src/log-redaction.ts). The failure: `pmx deploy` against an endpoint that serves the chain id and
 * answers anything else with HTTP 500, so viem's error, which names the URL it called, reaches the
 * CLI's generic error path.
 */
describe("the CLI's unexpected errors", { skip: storeIndependent('the CLI') }, () => {
  let rpc: Server;
  let origin: string;
  before(async () => {
    ensureBuild();
    rpc = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => {
        const { id, method } = JSON.parse(body) as { id: number; method: string };
        if (method !== 'eth_chainId') return void response.writeHead(500).end('internal error');
        response.setHeader('content-type', 'application/json').end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x7a69' }));
      });
    });
    await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => rpc?.close(() => resolve())));

  for (const how of ['the environment', 'a flag'] as const) {
    it(`show CHAIN_RPC_URL from ${how} as its origin, the error otherwise whole`, async () => {
      const url = `${origin}/v2/key-in-path-123?apikey=key-in-query-456`;
      const operatorKey = generatePrivateKey();
      const failed = how === 'a flag'
        ? await pmx(['deploy', '--chain-rpc-url', url, '--operator-key', operatorKey], {})
        : await pmx(['deploy'], { CHAIN_RPC_URL: url, OPERATOR_KEY: operatorKey });
      assert.equal(failed.code, 1, failed.stderr);
      assert.ok(!failed.stderr.includes('key-in-path-123') && !failed.stderr.includes('key-in-query-456'), failed.stderr);
      assert.match(failed.stderr, /HTTP request failed/);
      assert.ok(failed.stderr.includes(`URL: ${origin}/…`), failed.stderr);
      assert.match(failed.stderr, /\n\s+at /, 'the stack is kept');
    });
  }
});
