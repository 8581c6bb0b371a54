import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { pino } from 'pino';
import { LeaseLeadership, type LeaderDuties } from '../../src/cluster/leadership.ts';
import { FencedError } from '../../src/engine/queue-full-error.ts';
import type { Store } from '../../src/store/database.ts';
import { checkEngineLease, presentNodesAmong, readEngineLease, renewEngineLease, takeEngineLease } from '../../src/store/engine-leadership-repository.ts';
import { openTestStore } from '../helpers/database.ts';
import { holdPresenceOf } from '../helpers/node-presence.ts';

const NODE_A = { id: 'node-a', url: 'http://127.0.0.1:1001' };
const NODE_B = { id: 'node-b', url: 'http://127.0.0.1:1002' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Puts the lease back to its state after migration: nobody holds it. */
async function freeLease(store: Store): Promise<void> {
  await sql`UPDATE engine_leadership SET holder = NULL, url = NULL, renewed_at = '-infinity'`.execute(store.db);
}

/** Duties that record what the leadership asked of them. */
function recordingDuties(): LeaderDuties & { log: string[] } {
  const log: string[] = [];
  return { log, begin: async () => void log.push('begin'), end: async () => void log.push('end') };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await sleep(25);
  assert.ok(condition(), what);
}

describe('the engine lease', () => {
  let store: Store & { url?: string | undefined };
  before(async () => (store = await openTestStore()));
  after(async () => store.close());
  /** The nodes' presence locks a test held (their processes alive), let go after it. */
  const presences: (() => Promise<void>)[] = [];
  const alive = async (...ids: string[]) => {
    for (const id of ids) presences.push(await holdPresenceOf(store, id));
  };
  afterEach(async () => {
    for (const release of presences.splice(0)) await release();
  });

  it('is taken once, renewed only by its token, and taken over with a new token only after it expired', async () => {
    await freeLease(store);
    await alive(NODE_A.id, NODE_B.id);
    const first = await takeEngineLease(store.db, NODE_A, 60_000);
    assert.ok(first !== undefined);
    assert.equal(await takeEngineLease(store.db, NODE_B, 60_000), undefined, 'a live lease is not taken');
    assert.deepEqual(await readEngineLease(store.db, 60_000), { token: first, holder: NODE_A.id, url: NODE_A.url, live: true });

    await sleep(50);
    const second = await takeEngineLease(store.db, NODE_B, 20);
    assert.equal(second, first + 1n, 'a takeover bumps the fencing token');
    assert.equal(await renewEngineLease(store.db, first, NODE_A.id), false, 'the deposed token renews nothing');
    assert.equal(await renewEngineLease(store.db, second, NODE_A.id), false, "only the holder's own id renews its lease (issue 38)");
    assert.equal(await renewEngineLease(store.db, second, NODE_B.id), true);
    assert.deepEqual(await readEngineLease(store.db, 60_000), { token: second, holder: NODE_B.id, url: NODE_B.url, live: true });
  });

  it('is taken at once, live or not, when its holder\'s process is gone (its presence lock went with its database session)', async () => {
    await freeLease(store);
    await alive(NODE_B.id);
    const releaseA = await holdPresenceOf(store, NODE_A.id);
    const first = (await takeEngineLease(store.db, NODE_A, 60_000))!;
    assert.equal(await takeEngineLease(store.db, NODE_B, 60_000), undefined, 'a live holder keeps its lease');
    await releaseA();
    assert.equal((await readEngineLease(store.db, 60_000)).live, false, 'a lease renewed just now is not live once its holder is gone');
    assert.equal(await takeEngineLease(store.db, NODE_B, 60_000), first + 1n, 'and is taken without waiting for it to expire');
    assert.equal(await renewEngineLease(store.db, first, NODE_A.id), false);
  });

  it("tells which nodes are alive by their presence locks, for the sockets a takeover keeps (src/engine/state/README.md)", async () => {
    const releaseA = await holdPresenceOf(store, NODE_A.id);
    await alive(NODE_B.id);
    assert.deepEqual(await presentNodesAmong(store.db, [NODE_A.id, NODE_B.id, 'node-never-started']), [NODE_A.id, NODE_B.id]);
    await releaseA();
    assert.deepEqual(await presentNodesAmong(store.db, [NODE_A.id, NODE_B.id]), [NODE_B.id], 'a node whose process ended is not');
    assert.deepEqual(await presentNodesAmong(store.db, []), []);
  });

  it('deposes a leader whose lease another node took while it was frozen: its fence refuses every write and its duties end', async () => {
    await freeLease(store);
    await alive(NODE_A.id, NODE_B.id);
    const duties = recordingDuties();
    const leadership = new LeaseLeadership({ db: store.db, nodeId: NODE_A.id, failoverTimeoutMs: 2_000, logger: pino({ level: 'silent' }) });
    await leadership.start(duties, NODE_A.url);
    try {
      assert.equal(leadership.role, 'leader');
      assert.deepEqual(duties.log, ['begin']);
      await store.db.transaction().execute((tx) => leadership.fence(tx));
      assert.equal(leadership.statementFence().token, (await readEngineLease(store.db, 60_000)).token, 'a one-statement batch checks the token of the lease');

      // What a takeover does to a node that stopped renewing: the token moves on under it (whichever
      // comes first, its next renewal or its next write, finds out).
      await sql`UPDATE engine_leadership SET token = token + 1, holder = ${NODE_B.id}, url = ${NODE_B.url}, renewed_at = clock_timestamp()`.execute(store.db);
      const refused = await store.db.transaction().execute((tx) => leadership.fence(tx)).catch((error: unknown) => error);
      assert.ok(refused instanceof FencedError);
      assert.equal(refused.statusCode, 503);
      assert.equal(leadership.role, 'follower');
      assert.throws(() => leadership.statementFence(), FencedError, 'a deposed node starts no one-statement batch');
      await until(() => duties.log.length === 2, 'the duties end');
      assert.deepEqual(duties.log, ['begin', 'end']);
      await until(() => leadership.leaderUrl === NODE_B.url, 'the follower learns where the engine is now');
      assert.ok(leadership.canServeCommands);
    } finally {
      await leadership.stop();
    }
  });

  it('a follower takes the engine over once the leader stops renewing, and a clean stop hands the lease on at once', async () => {
    await freeLease(store);
    await alive(NODE_A.id, NODE_B.id);
    const logger = pino({ level: 'silent' });
    const a = new LeaseLeadership({ db: store.db, nodeId: NODE_A.id, failoverTimeoutMs: 500, logger });
    const b = new LeaseLeadership({ db: store.db, nodeId: NODE_B.id, failoverTimeoutMs: 500, logger });
    const dutiesB = recordingDuties();
    await a.start(recordingDuties(), NODE_A.url);
    await b.start(dutiesB, NODE_B.url);
    try {
      assert.deepEqual([a.role, b.role], ['leader', 'follower']);
      await until(() => b.leaderUrl === NODE_A.url, 'B knows where the engine is');
      await a.stop();
      await until(() => b.role === 'leader', 'B takes the engine over');
      assert.deepEqual(dutiesB.log, ['begin']);
      assert.equal((await readEngineLease(store.db, 60_000)).holder, NODE_B.id);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('a node restarted on the same host and port waits for the lease of its predecessor to expire: it may still be draining (issue 38)', async () => {
    await freeLease(store);
    await alive('draining-incarnation', NODE_A.id);
    // The predecessor held the lease from the very address the new process now uses, renewed just now.
    const predecessor = (await takeEngineLease(store.db, { id: 'draining-incarnation', url: NODE_A.url }, 60_000))!;
    const restarted = new LeaseLeadership({ db: store.db, nodeId: NODE_A.id, failoverTimeoutMs: 60_000, logger: pino({ level: 'silent' }) });
    const duties = recordingDuties();
    await restarted.start(duties, NODE_A.url);
    try {
      assert.equal(restarted.role, 'follower');
      assert.deepEqual(duties.log, []);
      assert.deepEqual(await readEngineLease(store.db, 36_000), { token: predecessor, holder: 'draining-incarnation', url: NODE_A.url, live: true });
      assert.equal(await renewEngineLease(store.db, predecessor, 'draining-incarnation'), true, 'the predecessor keeps renewing its own lease');
    } finally {
      await restarted.stop();
    }
  });

  it('a node at the address of a silent live leader does not follow it: not ready until the old lease expires, then the leader', async () => {
    await freeLease(store);
    // A frozen predecessor, or another host advertising the same URL: alive, silent.
    await alive('frozen-incarnation', NODE_A.id);
    await takeEngineLease(store.db, { id: 'frozen-incarnation', url: NODE_A.url }, 300);
    const restarted = new LeaseLeadership({ db: store.db, nodeId: NODE_A.id, failoverTimeoutMs: 500, logger: pino({ level: 'silent' }) });
    const duties = recordingDuties();
    await restarted.start(duties, NODE_A.url);
    try {
      assert.equal(restarted.role, 'follower');
      assert.equal(restarted.leaderUrl, undefined, 'commands are never passed to its own address');
      assert.equal(restarted.canServeCommands, false, 'so it is not ready');
      await until(() => restarted.role === 'leader', 'it takes the engine once the old lease expired');
      assert.equal(restarted.canServeCommands, true);
      assert.deepEqual(duties.log, ['begin']);
    } finally {
      await restarted.stop();
    }
  });

  it('a node restarted after its predecessor was killed takes the engine at once, without waiting out the lease', async () => {
    await freeLease(store);
    await alive(NODE_A.id);
    // The predecessor renewed just now from the same address, then died: its presence went with it.
    await takeEngineLease(store.db, { id: 'killed-incarnation', url: NODE_A.url }, 60_000);
    const restarted = new LeaseLeadership({ db: store.db, nodeId: NODE_A.id, failoverTimeoutMs: 60_000, logger: pino({ level: 'silent' }) });
    const duties = recordingDuties();
    await restarted.start(duties, NODE_A.url);
    try {
      assert.equal(restarted.role, 'leader', 'its first round took the lease of a 36 s lease renewed just now');
      assert.deepEqual(duties.log, ['begin']);
    } finally {
      await restarted.stop();
    }
  });
});

describe('the engine lease under concurrent writes', { skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL (DATABASE_URL): PGlite has one connection' }, () => {
  let store: Store;
  before(async () => (store = await openTestStore()));
  after(async () => store.close());

  it('a takeover waits for the write that checked the lease inside its transaction, so no write commits after its term; other writes do not wait', async () => {
    await freeLease(store);
    const token = (await takeEngineLease(store.db, NODE_A, 60_000))!;
    let releaseWrite!: () => void;
    const writeMayCommit = new Promise<void>((resolve) => (releaseWrite = resolve));
    let fenced!: () => void;
    const insideWrite = new Promise<void>((resolve) => (fenced = resolve));
    const write = store.db.transaction().execute(async (tx) => {
      assert.equal(await checkEngineLease(tx, token), true);
      fenced();
      await writeMayCommit;
    });
    await insideWrite;
    // Another of the engine's writes (an order batch beside a settlement round) checks it too, at once.
    assert.equal(await store.db.transaction().execute((tx) => checkEngineLease(tx, token)), true);
    let takenOver: bigint | undefined | 'pending' = 'pending';
    // A lease time of 0: expired as soon as the row can be read, so only the row lock holds it back.
    const takeover = takeEngineLease(store.db, NODE_B, 0).then((result) => (takenOver = result));
    await sleep(300);
    assert.equal(takenOver, 'pending', 'the takeover waits for the open write');
    releaseWrite();
    await write;
    await takeover;
    assert.equal(takenOver, token + 1n);
    assert.equal(await renewEngineLease(store.db, token, NODE_A.id), false);
  });
});
