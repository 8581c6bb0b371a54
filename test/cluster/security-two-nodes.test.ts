import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { login, signInMessage } from '../helpers/auth-client.ts';
import { get } from '../helpers/http.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { rawHttp } from '../helpers/raw-http.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';

const skip = await severalNodesSkip();

const PUBLIC_LIMIT = 15;

/** Issue 38, attacked with two nodes on PostgreSQL + Redis: forwarding, nonces, node identity, client addresses. */
describe('security of two nodes (issue 38)', { skip, timeout: 120_000 }, () => {
  let cluster: SeveralNodes;
  let leader: ProcessServer;
  let follower: ProcessServer;
  let attacker: Server;
  let attackerPort = 0;
  const reached: string[] = [];

  before(async () => {
    cluster = await startSeveralNodes(1, { SIGNATURE_WORKERS: '0', RATE_LIMIT_PUBLIC: `${PUBLIC_LIMIT}/24h` });
    leader = cluster.nodes[0]!;
    // The follower stands behind one proxy (the test plays it, appending X-Forwarded-For).
    follower = await cluster.start({ TRUST_PROXY: '1' });
    attacker = createServer((request, response) => {
      reached.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"stolen":true}');
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerPort = (attacker.address() as { port: number }).port;
  });
  after(async () => {
    attacker?.close();
    await cluster?.close();
  });

  it('has one leader and one follower', async () => {
    assert.equal((await get(`${leader.url}/readyz`)).body.role, 'leader');
    assert.equal((await get(`${follower.url}/readyz`)).body.role, 'follower');
  });

  it('refuses an absolute-form request-target instead of sending it to the host it names', async () => {
    const body = '{"order":{}}';
    for (const target of [`http://127.0.0.1:${attackerPort}/api/v1/orders`, `http://user:pw@127.0.0.1:${attackerPort}/api/v1/orders?x=1`, `https://127.0.0.1:${attackerPort}/api/v1/orders`]) {
      const { status, open, answer } = await rawHttp(follower.url, `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      assert.equal(open, false, `the connection for ${target} was left open`);
      assert.equal(status, 400, `${target}: ${answer}`);
      assert.doesNotMatch(answer, /stolen/);
    }
    assert.deepEqual(reached, []);
  });

  it('refuses a closed port target at once, so it cannot scan ports either', async () => {
    const { status } = await rawHttp(follower.url, `POST http://127.0.0.1:1/api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    assert.equal(status, 400);
  });

  it('still passes an origin-form order command to the leader', async () => {
    const { status, answer } = await rawHttp(follower.url, `POST /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    // The leader authenticates it: 401 without credentials, as if it had been sent to the leader.
    assert.equal(status, 401, answer);
    assert.deepEqual(reached, []);
  });

  it('signs in on one node with a nonce the other issued (nonces in Redis, not the database)', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const nonce = (await get(leader.api('/auth/nonce'))).body.nonce as string;
    const message = await signInMessage(follower, wallet, { nonce });
    const signature = await wallet.signMessage({ message });
    assert.equal((await login(follower, message, signature)).status, 200);
    assert.equal((await login(leader, message, signature)).status, 401);
  });

  it('names each node by a random id per process, in /readyz and the lease; a node on the same host name and port does not take a live lease (issue 38)', async () => {
    const [a, b] = [(await get(`${leader.url}/readyz`)).body, (await get(`${follower.url}/readyz`)).body];
    assert.match(a.node, /^[0-9a-f-]{36}$/);
    assert.notEqual(a.node, b.node);
    // A clone: the same host name and port (another loopback address), while the leader lives.
    const clone = await cluster.start({ HOST: '127.0.0.2' }, leader.port);
    try {
      const seen = (await get(`${clone.url}/readyz`)).body;
      assert.equal(seen.role, 'follower');
      assert.notEqual(seen.node, a.node);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.deepEqual((await get(`${leader.url}/readyz`)).body, { status: 'ready', role: 'leader', node: a.node });
      assert.equal((await get(`${clone.url}/readyz`)).body.role, 'follower');
    } finally {
      await clone.stop();
    }
  });

  it('refuses to start a node without REDIS_URL beside a running node, in one line (issue 38)', async () => {
    const refused = await cluster.start({ REDIS_URL: '' }).then(async (started) => void (await started.stop()), (error: Error) => error);
    assert.ok(refused, 'the node started');
    const output = refused.message.replace(/^the server exited with 1: /, '').trim();
    assert.equal(output.split('\n').length, 1, output);
    assert.match(output, /another node runs the engine on this DATABASE_URL and REDIS_URL is not set/);
    assert.equal((await get(`${leader.url}/readyz`)).body.role, 'leader');
  });

  it('refuses to start a node on the embedded chain beside a running node, in one line: its anvil would hold none of their wallets', async () => {
    const refused = await cluster.start({ CHAIN: 'embedded' }).then(async (started) => void (await started.stop()), (error: Error) => error);
    assert.ok(refused, 'the node started');
    const output = refused.message.replace(/^the server exited with 1: /, '').trim();
    assert.equal(output.split('\n').length, 1, output);
    assert.match(output, /another node runs the engine on this DATABASE_URL and this one would start its own embedded chain.*CHAIN=rpc/);
    assert.equal((await get(`${leader.url}/readyz`)).body.role, 'leader');
  });

  it("counts a command passed on by a follower under the client's address, which only a node can vouch for (issue 38)", async () => {
    const send = (headers: Record<string, string>) => rawHttp(follower.url, `POST /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    // Client X, behind the follower's proxy, sends commands without credentials until it is limited.
    let status: number | undefined;
    for (let i = 0; i <= PUBLIC_LIMIT && status !== 429; i++) ({ status } = await send({ 'X-Forwarded-For': '203.0.113.1' }));
    assert.equal(status, 429);
    // Client Y on the same follower is not: the leader counted X's requests under X's address.
    assert.equal((await send({ 'X-Forwarded-For': '203.0.113.2' })).status, 401);
    // Nor can a client claim another address by writing the nodes' header itself.
    const forged = await rawHttp(leader.url, `POST /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pmx-Forwarded-Client: ${Date.now()}.203.0.113.3.${'00'.repeat(32)}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    assert.equal(forged.status, 401);
  });
});
