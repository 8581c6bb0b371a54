import type { Db } from '../store/database.ts';
import { presentNodeHashes } from '../store/engine-leadership-repository.ts';

/** How often the engine's node looks at who is present: a departure is noticed within it. */
export const DEPARTURE_LOOK_MS = 1_000;

/**
 * On the engine's node: `look` answers whether a node of the database that was present at the last
 * look (its presence lock, src/store/node-presence.ts) is gone, which is what `kill -9` of a node
 * looks like to the others. A node that stops cleanly departs too; a node whose presence connection
 * dropped and came back departs once. The first look only learns who is present.
 */
export function nodeDepartures(db: Db): { look(): Promise<boolean> } {
  let present: Set<string> | undefined;
  return {
    async look() {
      const now = await presentNodeHashes(db);
      const gone = present !== undefined && [...present].some((node) => !now.has(node));
      present = now;
      return gone;
    },
  };
}
