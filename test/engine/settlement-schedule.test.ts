import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import { SettlementSchedule } from '../../src/engine/settlement-schedule.ts';

const BLOCK_MS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await sleep(5);
  assert.ok(condition(), 'the condition never held');
}

/** A schedule whose rounds wait until the test lets them finish, as rounds wait in a busy engine queue. */
function scheduleWithHeldRounds(options: { fail?: boolean; blockMs?: number } = {}) {
  let work = false;
  const submitted: number[] = [];
  let finish: (() => void) | undefined;
  let running = true;
  const schedule = new SettlementSchedule({
    hasWork: () => work, logger: { error() {} }, blockMs: options.blockMs ?? BLOCK_MS, running: () => running,
    runRound: () => {
      submitted.push(performance.now());
      return new Promise<void>((resolve, reject) => (finish = () => (options.fail ? reject(new Error('round failed')) : resolve())));
    },
  });
  /** A batch became durable: with trades, they now wait for a round. */
  const afterBatch = (trades: number) => {
    if (trades > 0) work = true;
    schedule.schedule();
  };
  return { schedule, afterBatch, submitted, finishRound: () => finish!(), stopEngine: () => (running = false) };
}

describe('settlement schedule', () => {
  it('submits one round at a time: batches that commit while it waits in the queue time no second one', async () => {
    const { schedule, afterBatch, submitted, finishRound } = scheduleWithHeldRounds();
    afterBatch(3);
    await until(() => submitted.length === 1);
    for (let i = 0; i < 5; i++) {
      afterBatch(1);
      await sleep(BLOCK_MS * 1.5);
    }
    assert.equal(submitted.length, 1, 'order batches that committed while the round waited, each a block later, timed no other round');
    afterBatch(0);
    finishRound();
    await until(() => submitted.length === 2);
    schedule.stop();
  });

  it('times the next round a block after the last one started', async () => {
    const { schedule, afterBatch, submitted, finishRound } = scheduleWithHeldRounds({ blockMs: 60_000 });
    afterBatch(1);
    await until(() => submitted.length === 1);
    afterBatch(1);
    finishRound();
    await sleep(100);
    assert.equal(submitted.length, 1, 'the next round waits for its block');
    schedule.stop();
  });

  it('a round that failed lets the next one be timed', async () => {
    const { schedule, afterBatch, submitted, finishRound } = scheduleWithHeldRounds({ fail: true });
    afterBatch(1);
    await until(() => submitted.length === 1);
    finishRound();
    await until(() => submitted.length === 2);
    schedule.stop();
  });

  it('says when its round in flight has finished: until then that round holds the work it took on', async () => {
    const { schedule, afterBatch, submitted, finishRound } = scheduleWithHeldRounds({ fail: true });
    let idle = false;
    void schedule.idle().then(() => (idle = true));
    await sleep(0);
    assert.equal(idle, true, 'idle with no round in flight');
    afterBatch(1);
    await until(() => submitted.length === 1);
    idle = false;
    const waited = schedule.idle().then(() => (idle = true));
    await sleep(BLOCK_MS * 2);
    assert.equal(idle, false, 'the round in flight has not finished');
    finishRound();
    await waited;
    assert.equal(idle, true, 'a failed round has finished too');
    schedule.stop();
  });

  it('times no round without matched trades, nor once the engine stopped', async () => {
    const { schedule, afterBatch, submitted, stopEngine } = scheduleWithHeldRounds();
    schedule.schedule();
    await sleep(BLOCK_MS * 2);
    assert.equal(submitted.length, 0);
    afterBatch(1);
    stopEngine();
    schedule.schedule();
    await sleep(BLOCK_MS * 2);
    assert.equal(submitted.length, 0);
  });
});
