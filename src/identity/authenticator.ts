import { unauthorized } from '../contract/errors.ts';
import type { Caller, SignedHttpRequest, UserAuthenticator } from './caller.ts';
import type { Clock } from '../clock.ts';
import { passphraseMatches } from './api-key-crypto.ts';
import type { ApiKeyService } from './api-keys.ts';
import { hmacSignature, pathWithoutQuery, signaturesEqual, signedMessage } from './hmac.ts';
import type { ReplayRecord } from './replay-guard.ts';
import type { SessionTokens } from './session-tokens.ts';

/** The four API-key credentials, as sent in headers or in a Socket.IO handshake. */
export interface ApiKeyCredentialsSent {
  apiKey: unknown;
  passphrase: unknown;
  timestamp: unknown;
  signature: unknown;
}

/** What the signature covers besides the timestamp. */
export interface SignedContent {
  method: string;
  path: string;
  body: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MILLISECONDS = /^\d{1,16}$/;

/**
 * How a signature seen before is treated: refused (REST), or (a `/user` handshake) accepted again
 * only for the connection that names the one it last opened.
 */
type ReplayRule = { replay: 'refuse'; unsignedPart: string } | { replay: 'reconnect'; connectionId: string; previousConnectionId: string | undefined };

/** The signed content of the Socket.IO `/user` handshake (EXTENSIONS.md section 6). */
const SOCKET_HANDSHAKE_CONTENT: SignedContent = { method: 'GET', path: '/user', body: '' };

/**
 * Verifies users' credentials: session JWTs, and API-key HMAC signatures on REST requests and on
 * the Socket.IO `/user` handshake. Every failure is a 401 AppError.
 */
export class IdentityAuthenticator implements UserAuthenticator {
  private readonly headerNames: { apiKey: string; passphrase: string; timestamp: string; signature: string };

  constructor(
    private readonly sessions: SessionTokens,
    private readonly apiKeys: ApiKeyService,
    private readonly clock: Clock,
    private readonly options: { headerPrefix: string; hmacWindowMs: number },
    private readonly replays: ReplayRecord,
  ) {
    const prefix = options.headerPrefix.toLowerCase();
    this.headerNames = {
      apiKey: `${prefix}-api-key`,
      passphrase: `${prefix}-passphrase`,
      timestamp: `${prefix}-timestamp`,
      signature: `${prefix}-signature`,
    };
  }

  fromJwt(token: string): Promise<Caller> {
    return this.sessions.verify(token);
  }

  fromHmac(request: SignedHttpRequest): Promise<Caller> {
    const header = (name: string) => request.headers[name];
    const credentials: ApiKeyCredentialsSent = {
      apiKey: header(this.headerNames.apiKey),
      passphrase: header(this.headerNames.passphrase),
      timestamp: header(this.headerNames.timestamp),
      signature: header(this.headerNames.signature),
    };
    const path = pathWithoutQuery(request.url);
    const content = { method: request.method, path, body: request.rawBody ?? '' };
    // The query is not signed (SPEC.md 5.4), so two reads that differ only in their query carry one
    // signature when sent in the same millisecond: both are fine (EXTENSIONS.md section 2), so a
    // read's query is part of what counts as seen. A write's is not: no write takes a query, and a
    // captured write must not be sent again with one appended.
    const unsignedPart = request.method === 'GET' ? request.url.slice(path.length) : '';
    return this.verifyApiKey(credentials, content, { replay: 'refuse', unsignedPart });
  }

  hasHmacHeaders(request: SignedHttpRequest): boolean {
    return Object.values(this.headerNames).some((name) => request.headers[name] !== undefined);
  }

  /**
   * The Socket.IO `/user` handshake of connection `connectionId`: `{token}` (a session JWT) or
   * `{apiKey, passphrase, timestamp, signature}` signed over `timestamp + "GET" + "/user"`. A
   * signature opens one connection; presenting it again is a replay, unless the handshake also
   * carries `sessionId`, the id of the connection that signature opened last (a client
   * reconnecting: the id was sent to that client only, never in a handshake anyone could copy).
   */
  authenticateSocket(auth: unknown, connectionId: string): Promise<Caller> {
    if (typeof auth !== 'object' || auth === null) return Promise.reject(unauthorized('the handshake carries no credentials'));
    const fields = auth as Record<string, unknown>;
    if (typeof fields.token === 'string') return this.fromJwt(fields.token);
    const credentials = { apiKey: fields.apiKey, passphrase: fields.passphrase, timestamp: fields.timestamp, signature: fields.signature };
    const previous = fields.sessionId;
    if (previous !== undefined && (typeof previous !== 'string' || previous === '' || previous.length > 64)) return Promise.reject(unauthorized('sessionId must be the id of the connection being resumed'));
    return this.verifyApiKey(credentials, SOCKET_HANDSHAKE_CONTENT, { replay: 'reconnect', connectionId, previousConnectionId: previous });
  }

  /**
   * Cheap checks first (shapes, the time window), then the key from memory, passphrase and
   * signature; the replay check and record are one step of the replay record (no await between
   * them in memory, one `SET NX` in Redis), so two copies of one request cannot both pass.
   */
  async verifyApiKey(sent: ApiKeyCredentialsSent, content: SignedContent, rules: ReplayRule): Promise<Caller> {
    const { apiKey, passphrase, signature } = sent;
    const timestamp = typeof sent.timestamp === 'number' ? String(sent.timestamp) : sent.timestamp;
    if (typeof apiKey !== 'string' || typeof passphrase !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') {
      throw unauthorized(`API-key credentials are required (${Object.values(this.headerNames).join(', ')})`);
    }
    if (!UUID.test(apiKey)) throw unauthorized('invalid API key');
    if (!MILLISECONDS.test(timestamp)) throw unauthorized('the timestamp must be Unix milliseconds');
    const timestampMs = Number(timestamp);
    if (Math.abs(this.clock.nowMs() - timestampMs) > this.options.hmacWindowMs) throw unauthorized('the timestamp is outside the accepted window');
    const key = await this.apiKeys.resolve(apiKey.toLowerCase());
    if (!key || !passphraseMatches(passphrase, key.passphraseHash)) throw unauthorized('invalid API key or passphrase');
    const expected = hmacSignature(key.secret, signedMessage(timestamp, content.method, content.path, content.body));
    if (!signaturesEqual(expected, signature)) throw unauthorized('the signature does not match the request');
    const nowMs = this.clock.nowMs();
    const firstUse = rules.replay === 'refuse'
      ? await this.replays.firstSighting(`${key.apiKey}:${signature}${rules.unsignedPart}`, timestampMs, nowMs)
      : await this.replays.claim(`socket:${key.apiKey}:${signature}`, rules.previousConnectionId, rules.connectionId, timestampMs, nowMs);
    if (!firstUse) throw unauthorized('this signature was already used');
    await this.apiKeys.markUsed(key);
    return { userId: key.userId, address: key.address, proxyWallet: key.proxyWallet, via: 'apiKey', apiKey: key.apiKey };
  }
}
