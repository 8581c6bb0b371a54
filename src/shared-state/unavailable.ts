/**
 * Redis could not answer (lost connection, timeout): the check it backs can neither pass nor fail.
 * The HTTP error handler answers 503 SERVICE_UNAVAILABLE with Retry-After, never a 500.
 */
export class SharedStateUnavailableError extends Error {
  override name = 'SharedStateUnavailableError';
}

/** Runs a Redis operation, turning its failure into a SharedStateUnavailableError. */
export async function inRedis<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw new SharedStateUnavailableError(`Redis is unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
