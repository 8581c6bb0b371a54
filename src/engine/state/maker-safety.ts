import { reachesLimit, slideWindow, type MmpFill, type MmpLimits } from '../../core/mmp/mmp-window.ts';
import type { MarketTradingInfo } from '../types.ts';

/** How long a dropped cancel-on-disconnect socket waits for a reconnect naming it (EXTENSIONS.md section 15). */
export const DISCONNECT_GRACE_MS = 2_000;

/**
 * How long a live socket of a node that is still present has, after a takeover, for its node to
 * name it again (`sessions-adopted`): its node hears of the takeover on Redis and answers through
 * it, which a loaded cluster did not always do within the 2 s grace, cancelling a connected
 * maker's orders. Only a socket that closed while no engine ran to hear it waits this long.
 */
export const RENAME_WINDOW_MS = 10_000;

/** Most MMP settings one API key holds: each fill of its quotes is checked against all of them. */
export const MMP_SETTINGS_PER_KEY = 100;

/** An MMP setting's scope: one market, or every market of one event. */
export type MmpScope = { kind: 'market'; id: string } | { kind: 'event'; id: string };

export interface MmpSetting extends MmpLimits {
  readonly apiKey: string;
  /** The key's owner: whom the `mmp-triggered` event goes to. */
  readonly userId: string;
  readonly scope: MmpScope;
  readonly frozenMs: number;
  /** Until when the key's new orders in the scope are refused (0: never tripped, or thawed). */
  frozenUntilMs: number;
  /** The key's fills in the scope inside the window, as of the last one. */
  fills: MmpFill[];
}

/**
 * One key's cancel-on-disconnect sockets: the live ones, and the dropped ones in their reconnect
 * grace (until when). `nodes`: the node holding each live socket, where it said (records before
 * sockets named their node do not). `unconfirmed`: live sockets a new engine has not heard from
 * since it took over, each live until when its node must name it again (`sessions-adopted`).
 */
export interface KeySessions {
  live: Set<string>;
  closing: Map<string, number>;
  nodes: Map<string, string>;
  unconfirmed: Map<string, number>;
}

/**
 * Market makers' safety as engine state (EXTENSIONS.md section 15): heartbeats, cancel-on-
 * disconnect sessions and MMP settings with their windows and freezes. They are state, not timers
 * of one process, so they are journaled, snapshotted and replayed like the books: a deadline holds
 * across a restart or a takeover, and an MMP trip is decided in the very record of the fill.
 */
export class MakerSafety {
  /** Each armed key's dead-man's switch: its orders are cancelled at this deadline (ms) unless it is refreshed. */
  readonly heartbeats = new Map<string, number>();
  readonly sessions = new Map<string, KeySessions>();
  /** By API key; each key's settings in scope order. */
  readonly mmp = new Map<string, MmpSetting[]>();

  /** The earliest deadline the engine must act on (a heartbeat or a dropped socket's grace), if any. */
  nextDueMs(): number | undefined {
    let next: number | undefined;
    const consider = (dueMs: number) => {
      if (next === undefined || dueMs < next) next = dueMs;
    };
    for (const deadlineMs of this.heartbeats.values()) consider(deadlineMs);
    for (const sessions of this.sessions.values()) for (const dueMs of [...sessions.closing.values(), ...sessions.unconfirmed.values()]) consider(dueMs);
    return next;
  }

  /** Keys whose heartbeat expired by `atMs`, disarmed as they are returned (in key order). */
  takeExpiredHeartbeats(atMs: number): string[] {
    const expired = [...this.heartbeats].filter(([, deadlineMs]) => deadlineMs <= atMs).map(([apiKey]) => apiKey).sort();
    for (const apiKey of expired) this.heartbeats.delete(apiKey);
    return expired;
  }

  /**
   * Ends the reconnect graces due by `atMs`, and the unconfirmed sockets whose node did not name
   * them again in time (dropped then, their grace spent): how many ended, and the keys left with
   * no live cancel-on-disconnect socket (in key order), whose orders go. A key with a live socket
   * keeps them.
   */
  takeEndedGraces(atMs: number): { ended: number; disconnected: string[] } {
    let ended = 0;
    const disconnected: string[] = [];
    for (const [apiKey, sessions] of [...this.sessions].sort(([a], [b]) => compare(a, b))) {
      const due = [...sessions.closing].filter(([, dueMs]) => dueMs <= atMs);
      const unheard = [...sessions.unconfirmed].filter(([, dueMs]) => dueMs <= atMs);
      if (due.length === 0 && unheard.length === 0) continue;
      ended += due.length + unheard.length;
      for (const [sessionId] of due) sessions.closing.delete(sessionId);
      for (const [sessionId] of unheard) forgetLive(sessions, sessionId);
      if (sessions.live.size === 0) disconnected.push(apiKey);
      if (sessions.live.size === 0 && sessions.closing.size === 0) this.sessions.delete(apiKey);
    }
    return { ended, disconnected };
  }

  sessionsOf(apiKey: string): KeySessions {
    const known = this.sessions.get(apiKey);
    if (known) return known;
    const sessions: KeySessions = { live: new Set(), closing: new Map(), nodes: new Map(), unconfirmed: new Map() };
    this.sessions.set(apiKey, sessions);
    return sessions;
  }

  /**
   * Puts a setting in place of the key's setting of the same scope, keeping that one's freeze;
   * undefined when it would be a new scope beyond MMP_SETTINGS_PER_KEY.
   */
  putMmp(setting: MmpSetting): MmpSetting | undefined {
    const settings = this.mmp.get(setting.apiKey) ?? [];
    const known = settings.find((s) => sameScope(s.scope, setting.scope));
    if (!known && settings.length >= MMP_SETTINGS_PER_KEY) return undefined;
    const put = { ...setting, frozenUntilMs: known?.frozenUntilMs ?? 0, fills: [] };
    const next = [...settings.filter((s) => s !== known), put].sort((a, b) => compare(scopeKey(a.scope), scopeKey(b.scope)));
    this.mmp.set(setting.apiKey, next);
    return put;
  }

  removeMmp(apiKey: string, scope: MmpScope): boolean {
    const settings = this.mmp.get(apiKey);
    const kept = settings?.filter((s) => !sameScope(s.scope, scope));
    if (!settings || kept!.length === settings.length) return false;
    if (kept!.length === 0) this.mmp.delete(apiKey);
    else this.mmp.set(apiKey, kept!);
    return true;
  }

  /** Until when the key's new orders in this market are refused, when a setting covering it is frozen at `atMs`. */
  frozenUntil(apiKey: string, info: MarketTradingInfo, atMs: number): number | undefined {
    const settings = this.mmp.get(apiKey);
    if (!settings) return undefined;
    let until: number | undefined;
    for (const s of settings) if (covers(s.scope, info) && s.frozenUntilMs > atMs && (until === undefined || s.frozenUntilMs > until)) until = s.frozenUntilMs;
    return until;
  }

  /**
   * Counts a fill of the key's resting order in this market against every setting covering it,
   * and returns the settings it tripped: each is frozen from `fill.atMs` for its `frozenMs`, its
   * window emptied (the next trip needs fills of its own).
   */
  countFill(apiKey: string, info: MarketTradingInfo, fill: MmpFill): MmpSetting[] {
    const settings = this.mmp.get(apiKey);
    if (!settings) return [];
    const tripped: MmpSetting[] = [];
    for (const setting of settings) {
      if (!covers(setting.scope, info)) continue;
      setting.fills = slideWindow(setting.fills, fill, setting.windowMs);
      if (!reachesLimit(setting, setting.fills)) continue;
      setting.frozenUntilMs = fill.atMs + setting.frozenMs;
      setting.fills = [];
      tripped.push(setting);
    }
    return tripped;
  }
}

export const scopeKey = (scope: MmpScope) => `${scope.kind}:${scope.id}`;
export const covers = (scope: MmpScope, info: Pick<MarketTradingInfo, 'id' | 'eventId'>) => (scope.kind === 'market' ? scope.id === info.id : scope.id === info.eventId);
const sameScope = (a: MmpScope, b: MmpScope) => a.kind === b.kind && a.id === b.id;
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A live socket no longer live (closed, dropped by a takeover, or not named again in time): true when it was. */
export function forgetLive(sessions: KeySessions, sessionId: string): boolean {
  sessions.nodes.delete(sessionId);
  sessions.unconfirmed.delete(sessionId);
  return sessions.live.delete(sessionId);
}

/** A live socket dropped at `atMs` (closed, or taken by a takeover): its reconnect grace starts. True when it was live. */
export function dropLive(sessions: KeySessions, sessionId: string, atMs: number): boolean {
  if (!forgetLive(sessions, sessionId)) return false;
  sessions.closing.set(sessionId, atMs + DISCONNECT_GRACE_MS);
  return true;
}
