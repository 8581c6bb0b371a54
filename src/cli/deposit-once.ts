import { randomUUID } from 'node:crypto';
import { ExchangeError } from '../client/index.ts';

const HINT = Symbol('hint');

/** The line `run` prints after a failure's own message, when the failure carries one (`depositOnce`). */
export const hintOf = (error: unknown): string | undefined => (error instanceof Object ? (error as { [HINT]?: string })[HINT] : undefined);

/**
 * Sends a deposit (`pmx credit`, `pmx rewards treasury`) with an idempotency key, the one given or
 * one made here, so the server makes it once per key (on a chain, where it is the treasury's money,
 * its transfer too) and the SDK retries a 429 or 503 with it. A failure that may have moved money
 * (an error of the server's, or an answer that never came) names the command that makes it once:
 * the same one, with that key; run again without it, a second deposit could be made.
 */
export async function depositOnce<T>(given: string | undefined, commandWithKey: (idempotencyKey: string) => string, send: (idempotencyKey: string) => Promise<T>): Promise<T> {
  const idempotencyKey = given ?? randomUUID();
  try {
    return await send(idempotencyKey);
  } catch (error) {
    if (!refusedOrUnsent(error) && error instanceof Object) Object.assign(error, { [HINT]: `it may have been made: to make it exactly once, run ${commandWithKey(idempotencyKey)}` });
    throw error;
  }
}

/** Connections that were never made: nothing was sent. */
const UNSENT = new Set(['ECONNREFUSED', 'ENOTFOUND']);

/** An answer of the server's that refused it (4xx: nothing moved), or a connection that was never made. */
function refusedOrUnsent(error: unknown): boolean {
  if (error instanceof ExchangeError) return error.status < 500;
  return UNSENT.has((error as { cause?: { code?: string } } | undefined)?.cause?.code ?? '');
}
