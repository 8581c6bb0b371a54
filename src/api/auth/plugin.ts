import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, unauthorized } from '../../contract/errors.ts';
import type { RequestLimits } from '../limits/request-limits.ts';
import type { Caller, UserAuthenticator } from '../../identity/caller.ts';
import type { AuthMode } from './types.ts';

export interface AuthOptions {
  adminToken: string | undefined;
  users: UserAuthenticator;
  /** The rate limits, counted once the caller is known (src/api/limits). */
  limits?: RequestLimits;
}

/**
 * Installs the raw-body JSON parser (HMACs cover the exact body text) and the one hook that
 * enforces each route's declared auth mode.
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('isAdmin', false);
  app.decorateRequest('rawBody', undefined);

  // Fastify's own parser (secure-json-parse) refuses `__proto__` and `constructor.prototype` keys,
  // which could otherwise reach Object.assign or spreads as prototype pollution.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.rawBody = text;
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, (error, value) => {
      if (error) done(Object.assign(new Error('body is not valid JSON, or holds a __proto__ or constructor.prototype key'), { statusCode: 400 }), undefined);
      else done(null, value);
    });
  });

  // Bodies are JSON only: a text/plain one (fetch's default for a string body) is 415 before any
  // check of credentials, where Fastify's own text parser left it to fail the HMAC as a 401.
  app.removeContentTypeParser('text/plain');

  app.addHook('preValidation', async (request, reply) => {
    try {
      await authenticate(request, options);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 401) await options.limits?.afterAuthFailure(request, reply);
      throw error;
    }
    await options.limits?.afterAuth(request, reply);
  });
}

/** Enforces the route's declared auth mode, setting `request.caller` and `request.isAdmin`. */
async function authenticate(request: FastifyRequest, options: AuthOptions): Promise<void> {
  const mode: AuthMode = request.routeOptions.config.auth ?? 'public';
  const bearer = bearerToken(request);
  const isAdmin = bearer !== undefined && isAdminToken(bearer, options.adminToken);
  request.isAdmin = isAdmin;
  switch (mode) {
    case 'public':
      return;
    case 'admin':
      // Unset, no token opens them: say so, rather than what a wrong token hears.
      if (!isAdmin) throw unauthorized(options.adminToken ? 'a valid admin token is required' : 'the admin routes are off: the server was started without ADMIN_TOKEN');
      return;
    case 'apiKey':
      request.caller = await options.users.fromHmac(request);
      return;
    case 'jwt':
      if (bearer === undefined) throw unauthorized('a sign-in token (Authorization: Bearer) is required');
      request.caller = await options.users.fromJwt(bearer);
      return;
    case 'jwtOrApiKey':
      request.caller = await userFromEither(request, bearer, options.users);
      return;
    case 'optionalUser':
      if ((bearer !== undefined && !isAdmin) || options.users.hasHmacHeaders(request)) {
        request.caller = await userFromEither(request, isAdmin ? undefined : bearer, options.users);
      }
      return;
  }
}

async function userFromEither(request: FastifyRequest, bearer: string | undefined, users: UserAuthenticator): Promise<Caller> {
  if (bearer !== undefined) return users.fromJwt(bearer);
  return users.fromHmac(request);
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function isAdminToken(candidate: string, adminToken: string | undefined): boolean {
  if (adminToken === undefined) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(adminToken);
  return a.length === b.length && timingSafeEqual(a, b);
}
