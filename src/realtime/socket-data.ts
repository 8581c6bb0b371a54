/** What the server keeps on each socket (`socket.data`); the events and their payloads are `src/contract/realtime.ts`. */
export interface SocketData {
  /** Set on `/user` sockets by the handshake. */
  userId: string;
  /** The credential that opened a `/user` socket: its API key, or its session and expiry. */
  apiKey?: string | undefined;
  sessionId?: string | undefined;
  expiresAtMs?: number | undefined;
  /** The id of the connection an API-key handshake resumed (its `auth.sessionId`): it is replaced by this one. */
  resumes?: string | undefined;
  /** The socket asked for cancel on disconnect and the engine recorded it (EXTENSIONS.md section 15). */
  cancelOnDisconnect?: boolean | undefined;
}
