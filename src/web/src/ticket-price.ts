import { formatUnits, OrderBuildError, parseUnits } from '../../client/index.ts';

/**
 * The ticket's limit price, typed in cents as every price in the app is shown ("41", "41.5" on a
 * tenth-of-a-cent tick), to and from the dollars the SDK's order builder takes ("0.41", "0.415").
 * Exact: a price moves between the two in millionths of a dollar, never through a float.
 */

/** Millionths of a dollar in a cent. */
const PER_CENT = 10_000n;

/** Millionths of a dollar as cents, every decimal kept: 415_000n → "41.5". */
export const centsText = (micros: bigint): string => formatUnits(micros * 100n);

/** A market's tick in cents: "0.01" → "1", "0.001" → "0.1", "0.0001" → "0.01", "0.1" → "10". */
export const tickCents = (tickSize: string): string => centsText(parseUnits(tickSize) ?? PER_CENT);

/** The price typed in cents as millionths of a dollar; undefined when it is not a plain number of cents down to a millionth of a dollar. */
export function typedMicros(typed: string): bigint | undefined {
  const hundredths = parseUnits(typed);
  return hundredths === undefined || hundredths % 100n !== 0n ? undefined : hundredths / 100n;
}

/**
 * The price typed in cents as the decimal string of dollars an order is sent with, refused in
 * cents, with the SDK's codes, where the SDK's own words would speak of dollars ("price 0.415 is
 * not a multiple of the market tick 0.01").
 */
export function limitDollars(typed: string, tickSize: string): string {
  if (parseUnits(typed) === undefined) throw new OrderBuildError('VALIDATION_FAILED', `"${typed}" is not a price in cents, such as 41`);
  const micros = typedMicros(typed);
  const tick = parseUnits(tickSize) ?? PER_CENT;
  if (micros === undefined || micros % tick !== 0n) throw new OrderBuildError('ORDER_PRICE_NOT_ON_TICK', `${typed}¢ is not on this market's tick of ${tickCents(tickSize)}¢`);
  if (micros <= 0n || micros >= 1_000_000n) throw new OrderBuildError('ORDER_PRICE_OUT_OF_RANGE', 'a price is above 0¢ and below 100¢');
  return formatUnits(micros);
}
