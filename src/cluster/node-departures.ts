import type { Db } from '../store/database.ts';
import { presentNodeHashes } from '../store/engine-leadership-repository.ts';

export interface NodeDepartures {
  stop(): void;
}

/** How often the engine's node looks at who is present: a departure is noticed within it. */
export const DEPARTURE_LOOK_MS = 1_000;

/**
 * On the engine's node: calls `departed` when a node of the database that was present (its
 * presence lock, src/store/node-presence.ts) is gone, which is what `kill -9` of a node looks like
 * to the others. A node that stops cleanly departs too; a node whose presence connection dropped
 * and came back departs once. Looks are made one at a time; one that fails is skipped.
 */
export function watchNodeDepartures(options: {
  db: Db;
  departed: () => Promise<void>;
  warn: (error: unknown, message: string) => void;
  everyMs?: number;
}): NodeDepartures {
  let present: Set<string> | undefined;
  let looking = false;
  let stopped = false;
  const look = async () => {
    const now = await presentNodeHashes(options.db);
    const gone = present !== undefined && [...present].some((node) => !now.has(node));
    present = now;
    if (gone && !stopped) await options.departed();
  };
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    look()
      .catch((error: unknown) => options.warn(error, 'looking for nodes that left failed; the next look tries again'))
      .finally(() => {
        looking = false;
      });
  }, options.everyMs ?? DEPARTURE_LOOK_MS);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
