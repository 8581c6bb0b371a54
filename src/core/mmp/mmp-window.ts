/**
 * Market-maker protection's arithmetic (EXTENSIONS.md section 15): the fills a key's orders made
 * in one scope within a sliding window, and whether they reach one of its limits. Pure: the engine
 * keeps the fills in its state and passes the time in.
 */
export interface MmpLimits {
  windowMs: number;
  /** Each limit is optional; a setting has at least one. */
  maxFills: number | null;
  maxQuantityBaseUnits: bigint | null;
  /** In collateral base units (the API's maxNotionalUsd × 10^6). */
  maxNotionalBaseUnits: bigint | null;
}

export interface MmpFill {
  atMs: number;
  sizeBaseUnits: bigint;
  notionalBaseUnits: bigint;
}

/**
 * The fills still inside the window at `nowMs` followed by `fill`. A fill exactly `windowMs`
 * old has left it: the window is the half-open interval (now − windowMs, now].
 */
export function slideWindow(fills: readonly MmpFill[], fill: MmpFill, windowMs: number): MmpFill[] {
  const since = fill.atMs - windowMs;
  const kept = fills.filter((f) => f.atMs > since);
  kept.push(fill);
  return kept;
}

/** Whether the window's fills reach any limit ("reach": a limit of 3 fills trips on the third). */
export function reachesLimit(limits: MmpLimits, fills: readonly MmpFill[]): boolean {
  if (limits.maxFills !== null && fills.length >= limits.maxFills) return true;
  if (limits.maxQuantityBaseUnits !== null && sum(fills, (f) => f.sizeBaseUnits) >= limits.maxQuantityBaseUnits) return true;
  return limits.maxNotionalBaseUnits !== null && sum(fills, (f) => f.notionalBaseUnits) >= limits.maxNotionalBaseUnits;
}

function sum(fills: readonly MmpFill[], amount: (fill: MmpFill) => bigint): bigint {
  let total = 0n;
  for (const fill of fills) total += amount(fill);
  return total;
}
