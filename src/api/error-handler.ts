import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../contract/errors.ts';
import { InsufficientBalanceError } from '../settlement/types.ts';
import { SharedStateUnavailableError } from '../shared-state/unavailable.ts';
import { isStoreUnavailable } from '../store/store-unavailable.ts';

/** Fastify's own errors (validation, body parsing, limits) mapped onto the catalogue. */
function fromFastifyError(error: FastifyError): { status: number; code: string; message: string } {
  if (error.validation) {
    const where = error.validationContext ?? 'request';
    return { status: 400, code: 'VALIDATION_FAILED', message: `${where}${error.message.replace(/^(body|querystring|params|headers)/, '')}` };
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return { status, code: 'PAYLOAD_TOO_LARGE', message: error.message };
  if (status === 415) return { status, code: 'UNSUPPORTED_MEDIA_TYPE', message: error.message };
  if (status === 404) return { status, code: 'NOT_FOUND', message: error.message };
  if (status === 429) return { status, code: 'RATE_LIMITED', message: error.message };
  if (status >= 400 && status < 500) return { status: 400, code: 'VALIDATION_FAILED', message: error.message };
  return { status: 500, code: 'INTERNAL_ERROR', message: 'internal error' };
}

export function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof InsufficientBalanceError) error = new AppError('INSUFFICIENT_BALANCE', error.message);
  if (error instanceof SharedStateUnavailableError) error = new AppError('SERVICE_UNAVAILABLE', 'rate limits or the replay guard cannot be checked now; retry', { 'retry-after': '1' });
  // The socket errors it names are any network peer's (an error's cause is read too): a chain RPC
  // refusing its connection is named the same way, and said so rather than blamed on the database.
  if (isStoreUnavailable(error)) {
    request.log.warn({ err: error }, 'the database, or another service the request needs, cannot be reached');
    error = new AppError('SERVICE_UNAVAILABLE', 'the database, or another service this request needs, cannot be reached now; retry shortly', { 'retry-after': '1' });
  }
  if (error instanceof AppError) {
    reply.headers(error.headers).code(error.statusCode).send(errorBody(error.statusCode, error.code, error.message));
    return;
  }
  const mapped = fromFastifyError(error as FastifyError);
  if (mapped.status >= 500) request.log.error({ err: error }, 'unhandled error');
  reply.code(mapped.status).send(errorBody(mapped.status, mapped.code, mapped.message));
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  reply.code(404).send(errorBody(404, 'NOT_FOUND', `route ${request.method} ${request.url.split('?')[0]} not found`));
}
