import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../contract/errors.ts';
import type { Caller } from '../../identity/caller.ts';

/** The authenticated caller of a route whose auth mode guarantees one. */
export function requireCaller(request: FastifyRequest): Caller {
  if (request.caller === null) throw unauthorized();
  return request.caller;
}
