import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addedSinceMs, endsWindow } from '../../src/core/calendar.ts';

const at = (iso: string) => Date.parse(iso);

describe('calendar windows', () => {
  it('ends TODAY at the next UTC midnight', () => {
    const now = at('2026-03-04T15:30:00Z');
    assert.deepEqual(endsWindow('TODAY', now), { fromMs: now, toMs: at('2026-03-05T00:00:00Z') });
  });

  it('ends THIS_WEEK at the next Monday (ISO week, Monday to Sunday)', () => {
    // 2026-03-04 is a Wednesday; 2026-03-08 a Sunday; 2026-03-09 a Monday.
    assert.equal(endsWindow('THIS_WEEK', at('2026-03-04T15:30:00Z')).toMs, at('2026-03-09T00:00:00Z'));
    assert.equal(endsWindow('THIS_WEEK', at('2026-03-08T23:59:00Z')).toMs, at('2026-03-09T00:00:00Z'));
    assert.equal(endsWindow('THIS_WEEK', at('2026-03-09T00:00:00Z')).toMs, at('2026-03-16T00:00:00Z'));
  });

  it('ends THIS_MONTH at the first of the next month, across years', () => {
    assert.equal(endsWindow('THIS_MONTH', at('2026-02-14T10:00:00Z')).toMs, at('2026-03-01T00:00:00Z'));
    assert.equal(endsWindow('THIS_MONTH', at('2026-12-31T23:00:00Z')).toMs, at('2027-01-01T00:00:00Z'));
  });

  it('keeps every window starting now and ending at a day, week or month boundary', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (now) => {
      const day = endsWindow('TODAY', now);
      const week = endsWindow('THIS_WEEK', now);
      const month = endsWindow('THIS_MONTH', now);
      return day.fromMs === now && day.toMs > now && day.toMs <= week.toMs && week.toMs - now <= 7 * 86_400_000
        && month.toMs > now && month.toMs - now <= 31 * 86_400_000 && new Date(month.toMs).getUTCDate() === 1
        && new Date(week.toMs).getUTCDay() === 1;
    }));
  });

  it('reaches back 24 hours, 7 or 30 days for addedWithin', () => {
    const now = at('2026-03-04T00:00:00Z');
    assert.equal(addedSinceMs('LAST_24H', now), at('2026-03-03T00:00:00Z'));
    assert.equal(addedSinceMs('LAST_7D', now), at('2026-02-25T00:00:00Z'));
    assert.equal(addedSinceMs('LAST_30D', now), at('2026-02-02T00:00:00Z'));
  });
});
