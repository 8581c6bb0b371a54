/**
 * The P&L chart's time axis (src/web/src/time-axis.ts): its points placed along time, and its labels
 * all of one kind, times of day within a day's span and dates beyond it, without a browser; and
 * the chart itself drawn in Debian's Chromium over such spans.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axisLabel, labelsFor, onTimeAxis, SLOTS, type Slot } from '../../src/web/src/time-axis.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { DESKTOP, launchChromium, PHONE, SCREENSHOTS, skipReason } from './browser.ts';
import { axisText, RECORD_TEXT } from './chart-text.ts';

const HOUR = 3_600;
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

/** Eight points evenly over `hours` from 9:17 the day before T0 (UTC), so that a span of 15 hours or more crosses midnight. */
const pointsOver = (hours: number) => Array.from({ length: 8 }, (_, index) => ({ time: T0 - 14 * HOUR - 43 * 60 + Math.round((hours * HOUR * index) / 7), value: (index % 3) - 1 }));

/**
 * The mark lightweight-charts makes of each slot (its weightByTime, in UTC, then its TickMarkType):
 * a year's (0), a month's (1) or a day's (2) where that changed since the slot before, else a time
 * of day's (3). The first slot, which the library guesses, counts as a time's.
 */
function markType(slots: readonly Slot[], index: number): number {
  if (index === 0) return 3;
  const [now, before] = [new Date(slots[index]!.time * 1000), new Date(slots[index - 1]!.time * 1000)];
  if (now.getUTCFullYear() !== before.getUTCFullYear()) return 0;
  if (now.getUTCMonth() !== before.getUTCMonth()) return 1;
  return now.getUTCDate() !== before.getUTCDate() ? 2 : 3;
}

const timeOfDay = (time: number) => new Date(time * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** The kinds of the labels an axis of the P&L chart over `hours` says, on every mark the library could label. */
function labelKinds(hours: number): string[] {
  const slots = onTimeAxis(pointsOver(hours));
  const labels = labelsFor(slots.at(-1)!.time - slots[0]!.time);
  const said = slots.map((slot, index) => [slot.time, axisLabel(slot.time, markType(slots, index), labels)] as const).filter(([, label]) => label !== '');
  return [...new Set(said.map(([time, label]) => (label === timeOfDay(time) ? 'times' : 'dates')))];
}

describe("the time axis's labels", () => {
  it("are times of day within a day's span, dates beyond it", () => {
    assert.deepEqual([HOUR, 23 * HOUR, DAY, DAY + 1, 3 * DAY, 400 * DAY].map(labelsFor), ['times', 'times', 'times', 'dates', 'dates', 'dates']);
  });

  it('are of one kind on the spans that mixed them: a day crossing midnight, and one to seven days in steps under a day', () => {
    // onTimeAxis steps under a day below 2,000 days: the library marks hours between days, and a midnight within a day.
    for (const hours of [16, 23, 24, 25, 30, 36, 48, 72, 120, 168]) {
      assert.deepEqual(labelKinds(hours), [hours <= 24 ? 'times' : 'dates'], `${hours} hours`);
    }
    assert.deepEqual(labelKinds(6), ['times']);
    assert.deepEqual(labelKinds(30 * 24), ['dates']);
  });

  it("say a day's mark as its time on an axis of times, and nothing at a time's mark on an axis of dates", () => {
    assert.equal(axisLabel(T0, 2, 'times'), timeOfDay(T0));
    assert.equal(axisLabel(T0 + 12 * HOUR, 3, 'dates'), '');
    assert.equal(axisLabel(T0, 2, 'dates'), new Date(T0 * 1000).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }));
    // Without a kind (the price chart's), each mark by what it is.
    assert.deepEqual([axisLabel(T0, 2), axisLabel(T0 + 12 * HOUR, 3)], [axisLabel(T0, 2, 'dates'), timeOfDay(T0 + 12 * HOUR)]);
  });
});

describe("the P&L chart's time axis in Chromium", { skip: storeIndependent('the web app') || skipReason(), timeout: 120_000 }, () => {
  let browser: Browser;
  let page: Page;

  before(async () => {
    // The app's own drawing of the chart (drawPnl), bundled with lightweight-charts, on a page of its own: no server.
    const esbuild = await import('esbuild');
    const bundle = await esbuild.build({
      stdin: { contents: `import * as charts from 'lightweight-charts';\nimport { drawPnl } from ${JSON.stringify(resolve('src/web/src/components/PnlChart.tsx'))};\nlet remove = () => {};\nwindow.draw = (points) => { remove(); remove = drawPnl(charts, document.getElementById('chart'), { points }); };`, resolveDir: process.cwd(), loader: 'js' },
      bundle: true, write: false, format: 'iife', jsx: 'automatic', logLevel: 'silent',
    });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await page.setContent(`<style>:root { --yes: #0a7d55; --no: #d1372b; --line: #ddd; font-family: sans-serif }</style><div id="chart" data-testid="pnl-chart" style="height: 240px"></div>`);
    await page.addScriptTag({ content: RECORD_TEXT });
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  });

  after(async () => {
    await browser?.close();
  });

  it('draws times of day only within a day, dates only beyond it, on a desktop and a phone', async () => {
    const mixed: string[] = [];
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      for (const hours of [23, 36, 72, 30 * 24]) {
        await page.evaluate(`window.draw(${JSON.stringify(pointsOver(hours))})`);
        await page.waitForTimeout(200); // the library paints on an animation frame after the data
        await page.locator('#chart').screenshot({ path: `${SCREENSHOTS}/pnl-axis-${hours}h-${size.width}.png` });
        const labels = (await axisText(page, 'pnl-chart', 'time')).map((label) => label.text);
        const times = labels.filter((label) => /\d:\d\d/.test(label));
        if (labels.length === 0 || (times.length > 0 && times.length < labels.length) || (times.length > 0) !== hours <= 24) mixed.push(`${hours} h at ${size.width} px: ${labels.join(', ')}`);
      }
    }
    assert.deepEqual(mixed, []);
  });
});
