/**
 * `work`'s outcome, or `late()`'s if `waitMs` pass first (what `late` returns, or throws); the
 * timer is cleared either way. `work` itself is not stopped: `late` does what giving up needs.
 */
export async function within<T>(work: Promise<T>, waitMs: number, late: () => T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, waitMs);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
