import type { Clock } from '../clock.ts';
import type { Db } from '../store/database.ts';
import { endedSessionsAmong, insertEndedSession, listEndedSessions } from '../store/ended-sessions-repository.ts';
import { TurnBatchedLookup } from './turn-batched-lookup.ts';

/** A credential that stopped working: a revoked API key, or an ended session (JWT id and expiry). */
export type Revocation = { apiKey: string } | { sessionId: string; expiresAtMs: number };

/**
 * Where revocations are announced. The identity module announces its own; the boot code passes
 * them to the `/user` sockets and, with Redis, to the other nodes, whose announcements come back
 * through `applyRemote` of the Identity (EXTENSIONS.md section 2: they stop working everywhere).
 */
export class Revocations {
  private readonly listeners = new Set<(revocation: Revocation) => void>();

  /** Adds a listener; returns the function that removes it. */
  on(listener: (revocation: Revocation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  announce(revocation: Revocation): void {
    for (const listener of this.listeners) listener(revocation);
  }
}

/**
 * Sessions ended by POST /auth/logout before their expiry. The ids live in the database (a
 * restarted node and every other node agree) and in memory, loaded at boot. With PostgreSQL,
 * where other nodes may end a session, a session not known to be ended here is looked up (the JWT
 * requests of one event-loop turn share one read); PGlite is one process, so its memory is complete.
 */
export class EndedSessions {
  private readonly ended = new Map<string, number>();
  private readonly endedInStore: TurnBatchedLookup;

  constructor(private readonly db: Db, private readonly clock: Clock, private readonly storeIsShared: boolean, private readonly revocations: Revocations) {
    this.endedInStore = new TurnBatchedLookup((sessionIds) => endedSessionsAmong(db, sessionIds));
  }

  async load(): Promise<void> {
    for (const row of await listEndedSessions(this.db, new Date(this.clock.nowMs()))) this.remember(row.sessionId, row.expiresAt.getTime());
  }

  async end(sessionId: string, expiresAtMs: number): Promise<void> {
    await insertEndedSession(this.db, sessionId, new Date(expiresAtMs), new Date(this.clock.nowMs()));
    this.remember(sessionId, expiresAtMs);
    this.revocations.announce({ sessionId, expiresAtMs });
  }

  /** Notes an ended session (ended here, or announced by another node); expired ones leave. */
  remember(sessionId: string, expiresAtMs: number): void {
    const nowMs = this.clock.nowMs();
    for (const [id, expiry] of this.ended) if (expiry <= nowMs) this.ended.delete(id);
    this.ended.set(sessionId, expiresAtMs);
  }

  async isEnded(sessionId: string): Promise<boolean> {
    if (this.ended.has(sessionId)) return true;
    return this.storeIsShared && this.endedInStore.has(sessionId);
  }
}
