import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { chainHash, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { get } from '../helpers/http.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';
import { newTrader, placeOrder } from '../helpers/trader.ts';

const skip = await severalNodesSkip();
const FAILOVER_TIMEOUT_MS = 2_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A standby that meets a journal record it cannot apply (here one of a newer record version, as a
 * newer build's leader would write): it serves none of its state (`/readyz` 503), and it does not
 * take the engine over when the leader goes, since it would append where records already are.
 * Once the record is gone (the operator's fix here; an upgrade of the node in real life) it
 * follows again, takes the engine and serves.
 */
describe('a standby that cannot read the journal', { skip, timeout: 120_000 }, () => {
  let cluster: SeveralNodes;
  let db: pg.Client;
  let leader: ProcessServer;
  let standby: ProcessServer;

  before(async () => {
    cluster = await startSeveralNodes(2, { SIGNATURE_WORKERS: '0', FAILOVER_TIMEOUT_MS: String(FAILOVER_TIMEOUT_MS) });
    [leader, standby] = cluster.nodes as [ProcessServer, ProcessServer];
    db = new pg.Client({ connectionString: cluster.env.DATABASE_URL });
    await db.connect();
  });
  after(async () => {
    await db?.end();
    await cluster?.close();
  });

  const readyz = async (server: ProcessServer) => {
    const { status, body } = await get(`${server.url}/readyz`);
    return { status, role: body.role as string };
  };

  async function until(condition: () => Promise<boolean>, withinMs: number, what: string): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (!(await condition())) {
      if (Date.now() > deadline) assert.fail(what);
      await sleep(100);
    }
  }

  it('is not ready and does not lead while it cannot, then follows, leads and serves once it can', async () => {
    const { markets } = await createPublishedEvent(leader);
    assert.deepEqual(await readyz(standby), { status: 200, role: 'follower' });

    // The next record, chained from the head, of a version this build does not read.
    const { rows } = await db.query<{ seq: string; hash: string }>('SELECT seq, hash FROM engine_journal ORDER BY seq DESC LIMIT 1');
    const seq = BigInt(rows[0]!.seq) + 1n;
    const text = encodeRecord({ seq, atMs: Date.now(), commands: [] }).replace(/"v":\d+/, '"v":99');
    await db.query('INSERT INTO engine_journal (seq, at, hash, record) VALUES ($1, now(), $2, $3)', [seq.toString(), chainHash(rows[0]!.hash, text), text]);
    await until(async () => (await readyz(standby)).status === 503, 10_000, 'the standby still answered ready');
    assert.equal((await readyz(standby)).role, 'follower');
    assert.equal((await get(standby.api(`/order-book/book?token_id=${markets[0]!.tokenId1}`))).status, 503, 'it serves none of its state');

    await leader.stop();
    // Well past the takeover's time: nobody took the engine.
    await sleep(FAILOVER_TIMEOUT_MS * 2);
    assert.deepEqual(await readyz(standby), { status: 503, role: 'follower' });
    const lease = await db.query<{ holder: string | null }>('SELECT holder FROM engine_leadership');
    assert.equal(lease.rows[0]?.holder ?? null, null, 'the lease stays free');

    await db.query('DELETE FROM engine_journal WHERE seq = $1', [seq.toString()]);
    await until(async () => (await readyz(standby)).status === 200, 20_000, 'the standby never recovered');
    assert.equal((await readyz(standby)).role, 'leader');
    const trader = await newTrader(standby, { fund: '10' });
    const placed = await placeOrder(standby, trader, { tokenId: markets[0]!.tokenId1, side: 'BUY', price: '0.4', size: '5' });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
  });
});
