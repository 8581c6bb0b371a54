/**
 * What a chart of the web app draws on its canvases, read in the page: lightweight-charts draws its
 * axes' labels as canvas text, out of the DOM's reach.
 */
import type { Page } from 'playwright-core';

/**
 * Records, on each canvas, the text drawn on it since it was last cleared (lightweight-charts
 * clears a canvas by filling all of it) and where it spans, in the canvas's pixels.
 */
export const RECORD_TEXT = `(() => {
  const { fillRect, fillText } = CanvasRenderingContext2D.prototype;
  CanvasRenderingContext2D.prototype.fillRect = function (x, y, width, height) {
    if (x <= 0 && y <= 0 && width >= this.canvas.width && height >= this.canvas.height) this.canvas.drawnText = [];
    return fillRect.apply(this, arguments);
  };
  CanvasRenderingContext2D.prototype.fillText = function (text, x) {
    const width = this.measureText(text).width;
    const left = this.textAlign === 'center' ? x - width / 2 : this.textAlign === 'right' || this.textAlign === 'end' ? x - width : x;
    const { a, e } = this.getTransform();
    (this.canvas.drawnText ??= []).push({ text, left: left * a + e, right: (left + width) * a + e });
    return fillText.apply(this, arguments);
  };
})()`;

/** A label drawn on an axis, and where it spans in its canvas's pixels. */
export interface Drawn {
  text: string;
  left: number;
  right: number;
}

/**
 * What the chart `testId` drew on its time axis (the last row's middle cell) or its right price axis
 * (the first row's last cell); an empty label, which draws nothing, left out.
 */
export function axisText(page: Page, testId: string, axis: 'time' | 'price'): Promise<(Drawn & { width: number })[]> {
  const cell = axis === 'time' ? 'tr:last-child td:nth-child(2)' : 'tr:first-child td:nth-child(3)';
  return page.evaluate(`[...document.querySelectorAll('[data-testid=${testId}] table ${cell} canvas')]
    .flatMap((canvas) => (canvas.drawnText ?? []).filter((label) => label.text !== '').map((label) => ({ ...label, width: canvas.width })))`);
}
