/**
 * The background of a chart's last-value label, so that its text is readable (WCAG AA, 4.5:1).
 * lightweight-charts fills the label with the series' colour (or its `priceLineColor`) and writes
 * on it in black or white, by its own grey level, not by contrast: white on the dark theme's Yes
 * green (#10b981) was 2.54:1 and on its No red (#f87171) 2.77:1. The text's colour cannot be set,
 * so the label's is moved, by the least mix towards white or black that makes the library's
 * choice readable. Colours are `#rrggbb`, as the theme's variables and the event palette are.
 */
export type Rgb = [number, number, number];

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
const AA = 4.5;

/** The library's own choice of the label's text (colorParser's generateContrastColors): black on a grey level above 160. */
export function libraryText([r, g, b]: Rgb): Rgb {
  return 0.199 * r + 0.687 * g + 0.114 * b > 160 ? BLACK : WHITE;
}

/** WCAG's relative luminance. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((part) => {
    const c = part / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two colours. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export function parseHex(color: string): Rgb {
  const hex = color.trim().replace('#', '');
  return [0, 2, 4].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb): string => `#${rgb.map((part) => Math.round(part).toString(16).padStart(2, '0')).join('')}`;
const mix = (from: Rgb, to: Rgb, share: number): Rgb => from.map((part, index) => part + (to[index]! - part) * share) as Rgb;

/**
 * `color`, or the nearest mix of it towards white or black (in twentieths) on which the library's
 * text reads at 4.5:1. The loop ends by the last step at the latest: white, with black text.
 */
export function labelColor(color: string): string {
  const rgb = parseHex(color);
  for (let step = 0; ; step++) {
    for (const towards of [WHITE, BLACK]) {
      const candidate = mix(rgb, towards, step / 20);
      if (contrastRatio(candidate, libraryText(candidate)) >= AA) return toHex(candidate);
    }
  }
}
