import type { FastifyInstance } from 'fastify';
import { badRequest } from '../contract/errors.ts';

/**
 * HTTP/1.1 requires a Host header (RFC 9112 section 3.2: 400 without it). Node's server would
 * answer such a request itself with an empty body; it is told not to (`requireHostHeader: false`,
 * given to the server at creation) so that this hook answers it with the error body every
 * non-2xx response carries (EXTENSIONS.md section 9). HTTP/1.0 has no Host rule.
 */
export const hostHeaderServerOptions = { requireHostHeader: false };

export function registerHostHeaderCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') throw badRequest('the Host header is required');
  });
}
