import type { MmpScope, MmpSetting } from './maker-safety.ts';
import type { MmpSettingInput } from './safety-commands.ts';

/**
 * MMP settings as JSON, for the journal (a setting as put) and snapshots (with its window and
 * freeze): amounts as decimal strings, since JSON numbers lose bigints. Fields are named one by
 * one, in a fixed order, so equal settings encode to equal text whatever object holds them.
 */
export const encodeMmpSetting = (s: MmpSettingInput) => ({
  apiKey: s.apiKey, userId: s.userId, scope: { kind: s.scope.kind, id: s.scope.id }, windowMs: s.windowMs, maxFills: s.maxFills,
  maxQuantityBaseUnits: s.maxQuantityBaseUnits?.toString() ?? null, maxNotionalBaseUnits: s.maxNotionalBaseUnits?.toString() ?? null, frozenMs: s.frozenMs,
});

export const decodeMmpSetting = (s: ReturnType<typeof encodeMmpSetting>): MmpSettingInput => ({
  apiKey: s.apiKey, userId: s.userId, scope: { kind: s.scope.kind, id: s.scope.id } as MmpScope, windowMs: s.windowMs, maxFills: s.maxFills, frozenMs: s.frozenMs,
  maxQuantityBaseUnits: s.maxQuantityBaseUnits === null ? null : BigInt(s.maxQuantityBaseUnits),
  maxNotionalBaseUnits: s.maxNotionalBaseUnits === null ? null : BigInt(s.maxNotionalBaseUnits),
});

/** A setting with its state: the put fields, its freeze, and its window's fills as [atMs, size, notional]. */
export const encodeMmpState = (s: MmpSetting) => ({
  ...encodeMmpSetting(s), frozenUntilMs: s.frozenUntilMs, fills: s.fills.map((f) => [f.atMs, f.sizeBaseUnits.toString(), f.notionalBaseUnits.toString()]),
});

export const decodeMmpState = (s: ReturnType<typeof encodeMmpState>): MmpSetting => ({
  ...decodeMmpSetting(s), frozenUntilMs: s.frozenUntilMs,
  fills: s.fills.map(([atMs, size, notional]) => ({ atMs: Number(atMs), sizeBaseUnits: BigInt(size!), notionalBaseUnits: BigInt(notional!) })),
});
