import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { createApiKey, exchangeInfo, hmacHeaders, signIn, type ApiCredentials } from '../helpers/auth-client.ts';
import { expectError, request } from '../helpers/http.ts';
import { freePort } from '../helpers/process-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { redisReachable } from '../realtime/helpers.ts';

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

/**
 * A Redis that stops answering while its connection stays open (SIGSTOP: a frozen process, a
 * paused container). Nothing errors; only a bound on the wait turns it into an answer.
 */
describe('a Redis that stops answering', { skip: hasRedisServer ? false : 'no redis-server on this machine', timeout: 60_000 }, () => {
  let redis: ChildProcess;
  let server: TestServer;
  let creds: ApiCredentials;
  let info: { serverTime: number; headerPrefix: string };
  let nextTimestampMs = 0;

  /** GET /account signed with a timestamp never used before (the clock is manual). */
  const signedAccount = () => {
    nextTimestampMs -= 1;
    const headers = hmacHeaders(creds, 'GET', '/api/v1/account', '', { timestampMs: nextTimestampMs, prefix: info.headerPrefix });
    // The bound of the test, not of the server: a request Redis would hang fails here instead.
    return Promise.race([
      request('GET', server.api('/account'), { headers }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 15 s')), 15_000).unref()),
    ]);
  };

  before(async () => {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const url = `redis://127.0.0.1:${port}`;
    for (let attempt = 0; !(await redisReachable(url)); attempt += 1) {
      if (attempt > 50) throw new Error(`redis-server did not start on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    server = await startTestServer({ REDIS_URL: url });
    const { token } = await signIn(server);
    creds = await createApiKey(server, token);
    info = await exchangeInfo(server);
    nextTimestampMs = info.serverTime;
  });
  after(async () => {
    redis?.kill('SIGCONT');
    await server?.close();
    redis?.kill('SIGKILL');
  });

  it('answers a signed request 503 SERVICE_UNAVAILABLE with Retry-After and /readyz 503, then serves both again once Redis answers', async () => {
    assert.equal((await signedAccount()).status, 200);
    redis.kill('SIGSTOP');
    const frozen = await signedAccount();
    expectError(frozen, 503, 'SERVICE_UNAVAILABLE');
    assert.ok(Number(frozen.headers.get('retry-after')) >= 1, `Retry-After ${frozen.headers.get('retry-after')}`);
    // A load balancer trusting /readyz stops sending here while no signed request can be served.
    expectError(await request('GET', `${server.url}/readyz`), 503, 'SERVICE_UNAVAILABLE');
    redis.kill('SIGCONT');
    assert.equal((await signedAccount()).status, 200);
    assert.equal((await request('GET', `${server.url}/readyz`)).status, 200);
  });
});
