import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { within } from '../../src/core/within.ts';
import { bearer, exchangeInfo, hmacHeaders } from '../helpers/auth-client.ts';
import { expectError, get, post, request } from '../helpers/http.ts';
import { OpenInboxes } from '../helpers/open-inboxes.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { newTrader, type Trader } from '../helpers/trader.ts';
import { apiKeyHandshake, disconnection, refusedConnection } from './helpers.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';

const skip = await severalNodesSkip();

describe('the replay guard, rate limits and revocations hold across two nodes (PostgreSQL + Redis)', { skip, timeout: 180_000 }, () => {
  let cluster: SeveralNodes;
  let nodeA: ProcessServer;
  let nodeB: ProcessServer;
  const inboxes = new OpenInboxes();

  before(async () => {
    // A day-long window: both nodes count in the same one whatever their boot times.
    cluster = await startSeveralNodes(2, { RATE_LIMIT_REQUESTS: '6/24h' });
    [nodeA, nodeB] = cluster.nodes as [ProcessServer, ProcessServer];
  });
  after(async () => {
    inboxes.closeAll();
    await cluster?.close();
  });

  const open = (node: ProcessServer, auth: Record<string, unknown>) => inboxes.connect(node.url, '/user', auth);

  it('refuses on node B a signed request already accepted by node A', async () => {
    const trader = await newTrader(nodeA);
    const { serverTime } = await exchangeInfo(nodeA);
    const headers = hmacHeaders(trader.creds, 'GET', '/api/v1/account', '', { timestampMs: serverTime });
    assert.equal((await get(nodeA.api('/account'), headers)).status, 200);
    const replayed = await get(nodeB.api('/account'), headers);
    expectError(replayed, 401, 'UNAUTHORIZED');
    assert.match(replayed.body.message, /already used/);
  });

  it('counts one API key together on both nodes', async () => {
    const trader = await newTrader(nodeA);
    // Each request signed with a timestamp none before it had: the two nodes' manual clocks differ,
    // so fixed offsets from each node's time could meet, and a repeated signature is refused as a replay.
    const used = new Set<number>();
    const freshTimestamp = async (node: typeof nodeA) => {
      let { serverTime } = await exchangeInfo(node);
      while (used.has(serverTime)) serverTime--;
      used.add(serverTime);
      return serverTime;
    };
    for (const node of [nodeA, nodeB, nodeA, nodeB, nodeA, nodeB]) {
      const response = await get(node.api('/account'), hmacHeaders(trader.creds, 'GET', '/api/v1/account', '', { timestampMs: await freshTimestamp(node) }));
      assert.equal(response.status, 200);
    }
    const limited = await get(nodeB.api('/account'), hmacHeaders(trader.creds, 'GET', '/api/v1/account', '', { timestampMs: await freshTimestamp(nodeB) }));
    expectError(limited, 429, 'RATE_LIMITED');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  });

  it('refuses on node B a /user handshake that opened a socket on node A', async () => {
    const trader = await newTrader(nodeA);
    const auth = await apiKeyHandshake(nodeA, trader.creds);
    await open(nodeA, auth);
    assert.match((await refusedConnection(nodeB.url, '/user', auth)).message, /already used/);
  });

  it('disconnects on node A the /user connection that a reconnect on node B resumes', async () => {
    const trader = await newTrader(nodeA);
    const auth = await apiKeyHandshake(nodeA, trader.creds);
    const first = await open(nodeA, auth);
    const firstGone = disconnection(first);
    await open(nodeB, { ...auth, sessionId: first.socket.id });
    assert.equal(await within(firstGone, 10_000, () => 'still connected'), 'io server disconnect');
  });

  it('disconnects on node B the sockets of an API key revoked or a session ended on node A', async () => {
    const trader: Trader = await newTrader(nodeA);
    const keySocket = await open(nodeB, await apiKeyHandshake(nodeB, trader.creds));
    const sessionSocket = await open(nodeB, { token: trader.session.token });
    const keyGone = disconnection(keySocket);
    const sessionGone = disconnection(sessionSocket);
    assert.equal((await request('DELETE', nodeA.api(`/auth/api-keys/${trader.creds.apiKey}`), { headers: bearer(trader.session.token) })).status, 204);
    assert.equal(await keyGone, 'io server disconnect');
    assert.equal((await post(nodeA.api('/auth/logout'), undefined, bearer(trader.session.token))).status, 204);
    assert.equal(await sessionGone, 'io server disconnect');
    expectError(await get(nodeB.api('/account'), bearer(trader.session.token)), 401, 'UNAUTHORIZED');
  });
});
