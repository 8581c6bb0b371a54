import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AppliedRecord } from '../../src/engine/state/apply.ts';
import { UnannouncedRecords, type AnnouncedRecords } from '../../src/engine/unannounced-records.ts';

/** What the engine's node announces, as a standby hears it: `announce` delivers now, `heardAll` as the test decides. */
function cluster() {
  let heard: (seq: bigint) => void = () => {};
  let heardAll = async () => {};
  const announced: AnnouncedRecords = {
    listen: async (listener) => {
      heard = listener;
    },
    heardAll: () => heardAll(),
  };
  return {
    announced,
    announce: (seq: bigint) => heard(seq),
    onHeardAll: (then: () => Promise<void>) => {
      heardAll = then;
    },
  };
}

const record = (seq: number) => ({ changes: { seq: BigInt(seq) } }) as AppliedRecord;
const seqs = (records: AppliedRecord[]) => records.map((r) => Number(r.changes.seq));

describe('a standby keeps the records it applied until the engine node is heard announcing them', () => {
  it('takes over with the records it never heard announced, in order', async () => {
    const { announced, announce } = cluster();
    const unannounced = new UnannouncedRecords(announced);
    await unannounced.listen();
    unannounced.reset(10n);
    for (const seq of [11, 12, 13]) unannounced.applied(record(seq));
    announce(12n);
    unannounced.applied(record(14));
    assert.deepEqual(seqs(await unannounced.takeOver()), [13, 14]);
    assert.deepEqual(seqs(await unannounced.takeOver()), [], 'taken once');
  });

  it('does not keep a record heard announced before it applied it, nor one from before it followed', async () => {
    const { announced, announce } = cluster();
    const unannounced = new UnannouncedRecords(announced);
    await unannounced.listen();
    unannounced.reset(10n);
    announce(12n);
    for (const seq of [11, 12, 13]) unannounced.applied(record(seq));
    unannounced.reset(13n);
    unannounced.applied(record(14));
    assert.deepEqual(seqs(await unannounced.takeOver()), [14]);
  });

  it('hears what the node before announced last before it decides', async () => {
    const { announced, announce, onHeardAll } = cluster();
    const unannounced = new UnannouncedRecords(announced);
    await unannounced.listen();
    unannounced.reset(0n);
    for (const seq of [1, 2, 3]) unannounced.applied(record(seq));
    onHeardAll(async () => announce(3n));
    assert.deepEqual(seqs(await unannounced.takeOver()), []);
  });

  it('announces what it kept when the announcements cannot be heard within a second', async () => {
    const { announced, onHeardAll } = cluster();
    const unannounced = new UnannouncedRecords(announced);
    await unannounced.listen();
    unannounced.reset(0n);
    unannounced.applied(record(1));
    onHeardAll(() => new Promise(() => {}));
    assert.deepEqual(seqs(await unannounced.takeOver()), [1]);
  });

  it('keeps the newest thousand', async () => {
    const { announced } = cluster();
    const unannounced = new UnannouncedRecords(announced);
    await unannounced.listen();
    unannounced.reset(0n);
    for (let seq = 1; seq <= 1_500; seq++) unannounced.applied(record(seq));
    const kept = seqs(await unannounced.takeOver());
    assert.equal(kept.length, 1_000);
    assert.deepEqual([kept[0], kept.at(-1)], [501, 1_500]);
  });
});
