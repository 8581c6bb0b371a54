/**
 * The P&L chart's time axis (src/web/src/time-axis.ts): its points placed along time, and its labels
 * all of one kind, times of day within a day's span and dates beyond it, without a browser; the
 * charts' times on the reader's clock (chart-clock.ts), so that a day's mark falls at local midnight
 * and says that day, summer time included, in a zone west of UTC set for the test; and the chart
 * itself drawn in Debian's Chromium over such spans, in UTC and in Los Angeles.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { onChartClock, type ZoneOffset } from '../../src/web/src/chart-clock.ts';
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

/** A chart's time (the reader's wall time written as UTC, chart-clock.ts) as its time of day and as its date. */
const timeOfDay = (time: number) => new Date(time * 1000).toLocaleTimeString(undefined, { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' });
const dayOf = (time: number) => new Date(time * 1000).toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' });

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
    assert.equal(axisLabel(T0, 2, 'dates'), dayOf(T0));
    // Without a kind (the price chart's), each mark by what it is.
    assert.deepEqual([axisLabel(T0, 2), axisLabel(T0 + 12 * HOUR, 3)], [axisLabel(T0, 2, 'dates'), timeOfDay(T0 + 12 * HOUR)]);
  });
});

/** Runs `read` with the process's time zone set to `zone` (Node reads TZ again when it is set), then puts it back. */
function inZone<T>(zone: string, read: () => T): T {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return read();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

/** US Pacific time's clocks went back at 09:00 UTC on Nov 1, 2026, and forward at 10:00 UTC on Mar 8, 2026. */
const FALL_BACK = 1_793_523_600;
const SPRING_FORWARD = 1_772_964_000;
/** Points every 20 minutes over `hours` from `from`. */
const everyTwentyMinutes = (from: number, hours: number) => Array.from({ length: hours * 3 + 1 }, (_, index) => ({ time: from + index * 1_200, value: index }));
/** The local time of day and date of a Unix time, in the process's zone. */
const localTime = (time: number) => new Date(time * 1000).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

describe("the charts' clock", () => {
  it("puts a day's mark at the reader's midnight, saying that day, where the library's UTC put it at 4 PM the day before", () => {
    const said = inZone('America/Los_Angeles', () => {
      const slots = onTimeAxis(onChartClock(pointsOver(120)));
      // January: every time is 8 hours behind UTC, so a chart time of t is the Unix time t + 8 h.
      return slots.flatMap((slot, index) => {
        const label = axisLabel(slot.time, markType(slots, index), 'dates');
        return label === '' ? [] : [`${label} at ${localTime(slot.time + 8 * HOUR)}`];
      });
    });
    assert.deepEqual(said, [15, 16, 17, 18, 19].map((day) => `Jan ${day} at Jan ${day}, 12:00 AM`));
  });

  it("moves each point by the reader's offset at its own time, across a change of summer time", () => {
    const noon = (iso: string) => Date.parse(iso) / 1000;
    const read = inZone('America/Los_Angeles', () => onChartClock([{ time: noon('2026-10-31T12:00:00-07:00') }, { time: noon('2026-11-02T12:00:00-08:00') }]));
    assert.deepEqual(read.map((point) => `${dayOf(point.time)} ${timeOfDay(point.time)}`), ['Oct 31 12:00 PM', 'Nov 2 12:00 PM']);
  });

  it('keeps times increasing when clocks go back: the repeated hour merged into the point before it, its value the newest', () => {
    const pacific: ZoneOffset = (time) => (time < FALL_BACK ? -7 : -8) * HOUR;
    const points = everyTwentyMinutes(FALL_BACK - 2 * HOUR, 4);
    const shifted = onChartClock(points, pacific);
    assert.ok(shifted.every((point, index) => index === 0 || point.time > shifted[index - 1]!.time), 'times increase');
    // At 2:00 AM PDT the clocks went back to 1:00 AM PST: 1:00, 1:20 and 1:40 PST land on 1:40 PDT's time, the last's value kept.
    const wall = shifted.map((point) => `${timeOfDay(point.time)} ${point.value}`);
    assert.deepEqual(wall.slice(4, 7), ['01:20 AM 4', '01:40 AM 8', '02:00 AM 9']);
    assert.equal(shifted.length, points.length - 3);
  });

  it('keeps every point when clocks go forward, the skipped hour a gap', () => {
    const pacific: ZoneOffset = (time) => (time < SPRING_FORWARD ? -8 : -7) * HOUR;
    const shifted = onChartClock(everyTwentyMinutes(SPRING_FORWARD - HOUR, 2), pacific);
    assert.deepEqual(shifted.map((point) => timeOfDay(point.time)), ['01:00 AM', '01:20 AM', '01:40 AM', '03:00 AM', '03:20 AM', '03:40 AM', '04:00 AM']);
  });
});

describe("the P&L chart's time axis in Chromium", { skip: storeIndependent('the web app') || skipReason(), timeout: 120_000 }, () => {
  let browser: Browser;
  /** A page of its own drawing the chart (`window.draw(points)`), in the browser's time zone unless `options` sets one. */
  let chartPage: (options?: BrowserContextOptions) => Promise<Page>;
  let page: Page;

  before(async () => {
    // The app's own drawing of the chart (drawPnl), bundled with lightweight-charts, on a page of its own: no server.
    const esbuild = await import('esbuild');
    const bundle = await esbuild.build({
      stdin: { contents: `import * as charts from 'lightweight-charts';\nimport { drawPnl } from ${JSON.stringify(resolve('src/web/src/components/PnlChart.tsx'))};\nlet remove = () => {};\nwindow.draw = (points) => { remove(); remove = drawPnl(charts, document.getElementById('chart'), { points }); };`, resolveDir: process.cwd(), loader: 'js' },
      bundle: true, write: false, format: 'iife', jsx: 'automatic', logLevel: 'silent',
    });
    browser = await launchChromium();
    chartPage = async (options) => {
      const opened = await (await browser.newContext({ viewport: DESKTOP, ...options })).newPage();
      await opened.setContent(`<style>:root { --yes: #0a7d55; --no: #d1372b; --line: #ddd; font-family: sans-serif }</style><div id="chart" data-testid="pnl-chart" style="height: 240px"></div>`);
      await opened.addScriptTag({ content: RECORD_TEXT });
      await opened.addScriptTag({ content: bundle.outputFiles[0]!.text });
      return opened;
    };
    page = await chartPage();
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

  it("draws a day's mark at the reader's midnight in Los Angeles, saying that day, as clocks go back too, and its crosshair says the local time", async () => {
    const pacific = await chartPage({ timezoneId: 'America/Los_Angeles' });
    const wrong: string[] = [];
    // Five January days (8 hours behind UTC), then three days across the night clocks went back (7 hours, then 8).
    const series = [['january', pointsOver(120)], ['fall-back', everyTwentyMinutes(FALL_BACK - 36 * HOUR, 72)]] as const;
    for (const [name, points] of series) {
      await pacific.evaluate(`window.draw(${JSON.stringify(points)})`);
      await pacific.waitForTimeout(200); // the library paints on an animation frame after the data
      await pacific.locator('#chart').screenshot({ path: `${SCREENSHOTS}/pnl-axis-los-angeles-${name}.png` });
      wrong.push(...(await offMidnight(pacific, points)).map((label) => `${name}: ${label}`));
    }
    assert.deepEqual(wrong, []);
    // The pointer halfway across the last chart: its label says the wall time there (the library's format), not UTC's.
    const pane = (await pacific.locator('#chart canvas').first().boundingBox())!;
    await pacific.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await pacific.waitForTimeout(200);
    const [from, to] = await wallSpan(pacific, series[1][1]);
    const said = (await axisText(pacific, 'pnl-chart', 'time')).map((label) => crosshairTime(label.text)).find((time) => time !== undefined);
    assert.ok(said !== undefined && Math.abs(said - (from + to) / 2) <= 600, `the crosshair says ${said && dayOf(said)} ${said && timeOfDay(said)}`);
  });
});

/** The page's wall times, written as UTC, of the first and the last of `points`: the span the P&L chart draws evenly. */
async function wallSpan(page: Page, points: readonly { time: number }[]): Promise<[number, number]> {
  const ends = [points[0]!.time, points.at(-1)!.time];
  const offsets = await page.evaluate(`${JSON.stringify(ends)}.map((time) => new Date(time * 1000).getTimezoneOffset() * 60)`) as number[];
  return [ends[0]! - offsets[0]!, ends[1]! - offsets[1]!];
}

/**
 * The date labels the P&L chart in `page` draws away from their day's midnight in the page's time
 * zone (over 2 pixels) or saying another day ("Nov 2026" is Nov 1's). Labels the axis moved inside
 * its edges are left out: they are not where their mark is.
 */
async function offMidnight(page: Page, points: readonly { time: number }[]): Promise<string[]> {
  const [from, to] = await wallSpan(page, points);
  const days = (await axisText(page, 'pnl-chart', 'time')).filter(({ left, right, width }) => left > 1 && right < width - 1);
  if (days.length < 2) return [`too few date labels: ${days.map((day) => day.text)}`];
  return days.flatMap(({ text, left, right, width }) => {
    const wall = from + (((left + right) / 2) / width) * (to - from);
    const midnight = Math.round(wall / DAY) * DAY;
    const pixels = (Math.abs(wall - midnight) / (to - from)) * width;
    const month = new Date(midnight * 1000).toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', year: 'numeric' });
    return pixels > 2 || (text !== dayOf(midnight) && text !== month) ? [`"${text}" at ${dayOf(wall)} ${timeOfDay(wall)}`] : [];
  });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The time, written as UTC, of the crosshair's label in the library's format ("31 Oct '26   16:35"); undefined for another label. */
function crosshairTime(text: string): number | undefined {
  const parts = /^(\d\d) ([A-Z][a-z]{2}) '(\d\d)\s+(\d\d):(\d\d)$/.exec(text);
  return parts ? Date.UTC(2000 + Number(parts[3]), MONTHS.indexOf(parts[2]!), Number(parts[1]), Number(parts[4]), Number(parts[5])) / 1000 : undefined;
}
