import type { DomainEvents } from '../events/domain-events.ts';
import type { BookRelay } from './book-relay.ts';
import type { RedisFanout } from './redis-fanout.ts';
import type { BookSnapshot } from '../contract/realtime.ts';

/**
 * Implemented by the engine (its in-memory books). The snapshot must show exactly the state of
 * the last 'book-change' published for that token (its seq and hash), never a state whose change
 * has not been published yet: subscribers apply the stream on top of it, starting at seq + 1.
 */
export interface BookSnapshotSource {
  /** The book of one token with its seq, or undefined for an unknown token. */
  snapshot(tokenId: string): BookSnapshot | undefined;
}

/** Implemented by identity: the `/user` handshake check (EXTENSIONS.md section 6). */
export interface UserHandshakeVerifier {
  /**
   * `auth` is `socket.handshake.auth`: `{apiKey, passphrase, timestamp, signature, sessionId?}` or
   * `{token}`; `connectionId` the id of the socket asking (what a reconnect names as `sessionId`).
   * Throws on failure; an AppError's message is shown to the client, any other error is not.
   */
  verify(auth: unknown, connectionId: string): Promise<HandshakeIdentity>;
}

/** Who a `/user` socket belongs to, and by which credential (so revoking it disconnects the socket). */
export interface HandshakeIdentity {
  userId: string;
  apiKey?: string | undefined;
  sessionId?: string | undefined;
  /** When a session's token expires (server clock, ms): its sockets are disconnected then. */
  expiresAtMs?: number | undefined;
}

/**
 * Implemented by the engine's node (EXTENSIONS.md section 15): cancel-on-disconnect sockets are
 * engine state. `resumes` is the dropped socket a reconnect names (`auth.sessionId`).
 */
export interface DisconnectSessions {
  opened(apiKey: string, sessionId: string, resumes: string | null): Promise<void>;
  closed(apiKey: string, sessionId: string): Promise<void>;
}

/** A credential that stopped working: the sockets it opened are disconnected. */
export type RevokedCredential = { apiKey: string } | { sessionId: string };

/** The slice of a pino/Fastify logger the real-time module writes to. */
export interface RealtimeLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface RealtimeOptions {
  /** The bus the engine and services publish committed work on. */
  events: DomainEvents;
  /**
   * Where subscription snapshots come from: this node's books while it runs the engine (it
   * publishes their `book-change`), else the engine node's through the relay. `runsEngine` is
   * asked at every subscription, since the engine may move between nodes (section 12).
   */
  books: { local: BookSnapshotSource; relay?: BookRelay | undefined; runsEngine(): boolean };
  handshake: UserHandshakeVerifier;
  /** When set, rooms fan out through Redis so several nodes serve one exchange. The caller connects and closes it. */
  fanout?: RedisFanout | undefined;
  /** TRADE_ACTIVITY_MIN_USD: trades of a smaller USD notional are not sent on `trade-activity`. */
  tradeActivityMinUsd: number;
  logger: RealtimeLogger;
  /** The server clock: session sockets are disconnected when it passes their token's expiry. */
  clock: { nowMs(): number };
  /** Where cancel-on-disconnect sockets are recorded; without it `auth.cancelOnDisconnect` is ignored. */
  sessions?: DisconnectSessions | undefined;
  /** SOCKETS_PER_ADDRESS: open connections per client address (0: no bound). */
  socketsPerAddress: number;
  /** The client address of a handshake, as REST reads it (TRUST_PROXY: the rightmost untrusted X-Forwarded-For entry). */
  clientAddress(request: import('node:http').IncomingMessage): string;
}
