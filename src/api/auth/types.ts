import type { Caller } from '../../identity/caller.ts';

/**
 * Route-level authentication choices. A route declares one in `config.auth`; the auth hook
 * enforces it before validation, so a bad credential is a 401 whatever the body holds.
 * - public: no credentials (an admin bearer token still marks the request as an admin read)
 * - optionalUser: public, but a valid JWT or API-key HMAC identifies the caller
 * - apiKey: API-key HMAC only
 * - jwt: a sign-in JWT only
 * - jwtOrApiKey: either
 * - admin: the operator's bearer token
 */
export type AuthMode = 'public' | 'optionalUser' | 'apiKey' | 'jwt' | 'jwtOrApiKey' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** An order command: counted against RATE_LIMIT_ORDERS of its API key (src/api/limits). */
    orderCommand?: boolean;
    /** How many requests this one counts as against RATE_LIMIT_REQUESTS or RATE_LIMIT_PUBLIC (a JSON-RPC batch: its calls); one when unset. */
    requestWeight?: (body: unknown) => number;
  }
  interface FastifyRequest {
    caller: Caller | null;
    isAdmin: boolean;
    /** The exact request body text, as the HMAC signature covers it. */
    rawBody: string | undefined;
  }
}
