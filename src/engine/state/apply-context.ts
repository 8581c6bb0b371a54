import type { EngineState } from './engine-state.ts';
import type { RecordIds } from './ids.ts';
import type { RecordEffects } from './record-effects.ts';
import type { EngineOrder } from './types.ts';

/** What every command of one record works with: the state, the record's effects, its ids and its time. */
export interface ApplyContext {
  readonly state: EngineState;
  readonly effects: RecordEffects;
  readonly ids: RecordIds;
  /** The record's time, Unix milliseconds and seconds: the only clock a command reads. */
  readonly atMs: number;
  readonly nowSec: number;
  /** Order hashes and idempotency keys (`userId|key`) taken by earlier commands of the record. */
  readonly taken: { hashes: Set<string>; keys: Map<string, EngineOrder> };
  /** The record was journaled before matches settled in parts (`match-parts.ts`): its matches stay whole. */
  readonly wholeMatches: boolean;
}

export interface EngineFailure {
  ok: false;
  code: string;
  message: string;
}

export const failure = (code: string, message: string): EngineFailure => ({ ok: false, code, message });
