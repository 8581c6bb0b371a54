/**
 * The wire formats that the domain parses too. This file imports nothing, so `src/core` may read it
 * (its parsers accept exactly what these patterns describe) without depending on TypeBox.
 */

/** A non-negative display decimal, at most 6 decimals, no sign, exponent or leading zeros. */
export const DISPLAY_AMOUNT_PATTERN = '^(0|[1-9][0-9]{0,39})(\\.([0-9]{1,6}))?$';

/** `BASE/QUOTE`, upper-case letters and digits, e.g. `BTC/USD`. */
export const PAIR_PATTERN = '^[A-Z0-9]{2,10}/[A-Z0-9]{2,10}$';

/** The periods of a price-market template (EXTENSIONS.md section 13). */
export const TEMPLATE_PERIODS = ['15m', '1h', '4h', '1d'] as const;
export type TemplatePeriod = (typeof TEMPLATE_PERIODS)[number];

/** A display name (EXTENSIONS.md section 2): 3 to 30 letters, digits, `_` and `-`; unique ignoring case. */
export const DISPLAY_NAME_PATTERN = '^[A-Za-z0-9_-]{3,30}$';
