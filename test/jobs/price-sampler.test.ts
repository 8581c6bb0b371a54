import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { createManualClock } from '../../src/clock.ts';
import { MAX_CATCH_UP_MINUTES, PriceSampler } from '../../src/jobs/price-sampler.ts';
import type { Store } from '../../src/store/database.ts';
import { openTestStore } from '../helpers/database.ts';

/** The sampler on a real store, with books given by hand: which minutes and markets get a row. */
describe('price sampler', () => {
  let store: Store;
  const clock = createManualClock(Date.UTC(2026, 0, 1, 12, 0, 30));
  const twoSided = { id: randomUUID(), tokenId1: '1', isResolved: false };
  const oneSided = { id: randomUUID(), tokenId1: '2', isResolved: false };
  const resolved = { id: randomUUID(), tokenId1: '3', isResolved: true };
  const books = {
    loadedMarkets: () => [twoSided, oneSided, resolved],
    midpointMicros: (tokenId: string) => (tokenId === '2' ? undefined : 550_000n),
  };
  let sampler: PriceSampler;
  const minutesOf = async (marketId: string) => (await store.db.selectFrom('price_samples').select(['sampled_at', 'mid_micros']).where('market_id', '=', marketId).orderBy('sampled_at').execute())
    .map((row) => ({ minute: row.sampled_at.getTime() / 60_000, mid: BigInt(row.mid_micros) }));
  const startMinute = Math.floor(clock.nowMs() / 60_000);

  before(async () => {
    store = await openTestStore();
    sampler = new PriceSampler({ db: store.db, clock, books, logger: pino({ level: 'silent' }) });
  });
  after(async () => {
    await sampler.stop();
    await store?.close();
  });

  it('does nothing until started (a node without the engine has no books)', async () => {
    assert.equal(await sampler.tick(), 0);
  });

  it('samples the start minute and every minute the clock jumped over, only two-sided unresolved books', async () => {
    sampler.start();
    clock.advance(3 * 60_000);
    assert.equal(await sampler.tick(), 4);
    assert.deepEqual(await minutesOf(twoSided.id), [0, 1, 2, 3].map((i) => ({ minute: startMinute + i, mid: 550_000n })));
    assert.deepEqual([await minutesOf(oneSided.id), await minutesOf(resolved.id)], [[], []]);
  });

  it('writes nothing more within the same minute', async () => {
    clock.advance(20_000);
    assert.equal(await sampler.tick(), 0);
  });

  it('catches up at most a day of minutes after a longer jump', async () => {
    clock.advance(3 * 86_400_000);
    assert.equal(await sampler.tick(), MAX_CATCH_UP_MINUTES);
    const minutes = await minutesOf(twoSided.id);
    assert.equal(minutes.length, 4 + MAX_CATCH_UP_MINUTES);
    assert.equal(minutes.at(-1)!.minute, Math.floor(clock.nowMs() / 60_000));
    assert.equal(minutes.at(-MAX_CATCH_UP_MINUTES)!.minute, Math.floor(clock.nowMs() / 60_000) - MAX_CATCH_UP_MINUTES + 1);
  });
});
