/** Retries of a chain call that failed start here and double up to the cap (an anvil restarting answers within a second). */
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

/**
 * Runs `attempt` until it resolves or `stopped()` says to give up, pausing after each failure
 * (250 ms doubling to 10 s) once `failed` was told of it.
 */
export async function retryUntilDone(attempt: () => Promise<void>, options: { stopped: () => boolean; failed: (error: unknown, retryInMs: number) => void }): Promise<void> {
  for (let delayMs = FIRST_RETRY_MS; !options.stopped(); delayMs = Math.min(delayMs * 2, MAX_RETRY_MS)) {
    try {
      await attempt();
      return;
    } catch (error) {
      options.failed(error, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
    }
  }
}
