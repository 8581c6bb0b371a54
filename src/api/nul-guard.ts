import type { FastifyInstance } from 'fastify';
import { badRequest } from '../contract/errors.ts';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL anywhere in a request's path parameters, query or
 * JSON body would fail in the database as a 500. Every such request is a 400 before validation.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (holdsNul([request.params, request.query, request.body])) throw badRequest('text must not contain the NUL character (U+0000)');
  });
}

/** Walks with an explicit stack: a deeply nested body must not overflow the call stack. */
function holdsNul(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}
