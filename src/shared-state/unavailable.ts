/**
 * Redis could not answer (lost connection, timeout): the check it backs can neither pass nor fail.
 * The HTTP error handler answers 503 SERVICE_UNAVAILABLE with Retry-After, never a 500.
 */
export class SharedStateUnavailableError extends Error {
  override name = 'SharedStateUnavailableError';
}

/**
 * How long a command may wait for Redis's answer. Redis answers in well under a millisecond; one
 * that stopped answering with its connection still open (frozen, paused, its host swapping) gives
 * no error at all, and without a bound every signed or rate-limited request would hang with it.
 */
const REDIS_ANSWER_TIMEOUT_MS = 2_000;

/**
 * Runs a Redis operation, turning its failure, or no answer within REDIS_ANSWER_TIMEOUT_MS, into a
 * SharedStateUnavailableError. A command that timed out may still be carried out by Redis later
 * (a replay record written after its request was answered 503 refuses that exact request once
 * more: a client signs its retry anew, with a new timestamp).
 */
export async function inRedis<T>(operation: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const noAnswer = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REDIS_ANSWER_TIMEOUT_MS} ms`)), REDIS_ANSWER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([operation(), noAnswer]);
  } catch (error) {
    throw new SharedStateUnavailableError(`Redis is unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
