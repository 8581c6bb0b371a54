/** The authenticated user of a request or a `/user` socket, as the auth hook sets it. */
export interface Caller {
  readonly userId: string;
  readonly address: `0x${string}`;
  readonly proxyWallet: `0x${string}`;
  readonly via: 'jwt' | 'apiKey';
  /** The API key that signed the request, when `via` is apiKey. */
  readonly apiKey?: string;
  /** The session (JWT `jti`) and when it expires (server clock, ms), when `via` is jwt. */
  readonly sessionId?: string;
  readonly expiresAtMs?: number;
}

/** What the API-key HMAC check reads of an HTTP request (a FastifyRequest is one). */
export interface SignedHttpRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly method: string;
  readonly url: string;
  /** The exact request body text, as the HMAC signature covers it. */
  readonly rawBody: string | undefined;
}

/** Verifies user credentials; implemented by the identity module. Both throw 401 AppErrors. */
export interface UserAuthenticator {
  fromJwt(token: string): Promise<Caller>;
  fromHmac(request: SignedHttpRequest): Promise<Caller>;
  /** True when the request carries the API-key headers at all. */
  hasHmacHeaders(request: SignedHttpRequest): boolean;
}
