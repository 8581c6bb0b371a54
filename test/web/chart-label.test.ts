/** The charts' last-value labels (src/web/src/chart-label.ts), without a browser. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contrastRatio, labelColor, libraryText, parseHex } from '../../src/web/src/chart-label.ts';

/** The colours lines are drawn in: both themes' --yes and --no (styles.css) and the event page's palette. */
const LINES = ['#047857', '#dc2626', '#10b981', '#f87171', '#2563eb', '#059669', '#d97706', '#db2777', '#7c3aed', '#0891b2'];

describe("a chart's last-value label", () => {
  it("reads at 4.5:1 or more (WCAG AA) in the library's own black or white on every line colour's label", () => {
    const low = LINES.filter((line) => {
      const label = parseHex(labelColor(line));
      return contrastRatio(label, libraryText(label)) < 4.5;
    });
    assert.deepEqual(low, []);
  });

  it('keeps a colour that already reads, and moves one that does not the least: lighter, under black text, for the dark theme', () => {
    assert.equal(labelColor('#047857'), '#047857');
    assert.equal(labelColor(' #dc2626'), '#dc2626');
    // White on #10b981 was 2.54:1 and on #f87171 2.77:1.
    assert.ok(contrastRatio(parseHex('#10b981'), libraryText(parseHex('#10b981'))) < 3);
    assert.deepEqual([labelColor('#10b981'), labelColor('#f87171')].map((label) => libraryText(parseHex(label))), [[0, 0, 0], [0, 0, 0]]);
  });
});
