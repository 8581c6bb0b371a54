/**
 * The one clock of the server (DESIGN.md "Time is injected"). Every time-dependent rule reads it:
 * HMAC windows, expirations, oracle windows, reward periods, speed bumps.
 */
export interface Clock {
  readonly kind: 'real' | 'manual';
  nowMs(): number;
}

export interface ManualClock extends Clock {
  readonly kind: 'manual';
  /** Moves time forward; time never goes backwards. */
  advance(ms: number): number;
  /** Sets an absolute time, which must not be earlier than now. */
  set(ms: number): number;
}

export const realClock: Clock = { kind: 'real', nowMs: () => Date.now() };

export function createManualClock(startMs: number = Date.now()): ManualClock {
  let now = startMs;
  return {
    kind: 'manual',
    nowMs: () => now,
    advance(ms) {
      if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('advanceMs must be a non-negative integer');
      now += ms;
      return now;
    },
    set(ms) {
      if (!Number.isSafeInteger(ms) || ms < now) throw new RangeError('the clock cannot go backwards');
      now = ms;
      return now;
    },
  };
}

export function isManualClock(clock: Clock): clock is ManualClock {
  return clock.kind === 'manual';
}
