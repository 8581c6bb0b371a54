/** Reward amounts leave the server as decimal strings with exactly 6 decimals (SPEC.md "Rewards shapes"). */
export function formatUsdc(baseUnits: bigint): string {
  const negative = baseUnits < 0n;
  const abs = negative ? -baseUnits : baseUnits;
  return `${negative ? '-' : ''}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}

/** Millionths (distances, multipliers) as a plain decimal without trailing zeros. */
export function formatMicros(micros: bigint | number): string {
  const value = BigInt(micros);
  const fraction = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${value / 1_000_000n}.${fraction}` : `${value / 1_000_000n}`;
}
