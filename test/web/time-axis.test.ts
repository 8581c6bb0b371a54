/** The P&L chart's points placed along time (src/web/src/time-axis.ts), without a browser. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onTimeAxis, SLOTS } from '../../src/web/src/time-axis.ts';

const DAY = 86_400;
/** A UTC midnight. */
const T0 = 1_799_971_200;
/** Where each point is drawn: its index among the chart's slots, which the library spaces evenly. */
const indexes = (slots: { time: number; value?: number }[]) => slots.flatMap((slot, index) => (slot.value === undefined ? [] : [index]));

describe('points on a time axis', () => {
  it('places points by their time: a day apart is a thirtieth of thirty days apart, where both were one step', () => {
    // Steps of 3 hours, the least round one that cuts 31 days into 310 or fewer.
    const slots = onTimeAxis([{ time: T0, value: 0 }, { time: T0 + DAY, value: 5 }, { time: T0 + 31 * DAY, value: -2 }], 310);
    assert.deepEqual(indexes(slots), [0, 8, 248]);
    assert.deepEqual(slots.filter((slot) => slot.value !== undefined), [{ time: T0, value: 0 }, { time: T0 + DAY, value: 5 }, { time: T0 + 31 * DAY, value: -2 }]);
  });

  it('keeps each point at its own time, every time increasing, whitespace between on round minutes', () => {
    const points = [0, 100, 1_000, 1_001, 86_399].map((offset, index) => ({ time: T0 + offset, value: index }));
    const slots = onTimeAxis(points);
    assert.ok(slots.length <= SLOTS, `${slots.length} slots`);
    assert.ok(slots.every((slot, index) => index === 0 || slot.time > slots[index - 1]!.time), 'times increase');
    assert.ok(slots.every((slot) => slot.value !== undefined || slot.time % 60 === 0), 'whitespace on whole minutes');
    // 1,000 s and 1,001 s share a step (a minute): the later stands for both; the rest keep their times.
    assert.deepEqual(slots.filter((slot) => slot.value !== undefined).map((slot) => slot.time - T0), [0, 100, 1_001, 86_399]);
  });

  it('spans seconds with one step a second, and leaves one point or none as it is', () => {
    assert.deepEqual(indexes(onTimeAxis([{ time: T0, value: 1 }, { time: T0 + 2, value: 2 }, { time: T0 + 10, value: 3 }])), [0, 2, 10]);
    assert.deepEqual(onTimeAxis([{ time: T0, value: 1 }]), [{ time: T0, value: 1 }]);
    assert.deepEqual(onTimeAxis([]), []);
  });
});
