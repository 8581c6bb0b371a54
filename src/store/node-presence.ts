import { PRESENCE_LOCK_SQL } from './engine-leadership-repository.ts';
import { keepConnection, type KeptConnection } from './kept-connection.ts';

export type NodePresence = KeptConnection;

/**
 * Holds this node's presence lock (engine-leadership-repository.ts, PRESENCE_LOCK_CLASS) on a
 * PostgreSQL connection of its own for as long as the process lives: other nodes then wait for
 * this node's lease to expire, and take it at once when the process is gone. A dropped connection
 * is made again after a second (meanwhile another node may take the lease: fencing keeps that
 * safe, and this node is deposed at its next renewal).
 */
export function holdNodePresence(databaseUrl: string, nodeId: string, lost: (error: unknown) => void): Promise<NodePresence> {
  return keepConnection(databaseUrl, async (client) => {
    const { rows } = await client.query<{ locked: boolean }>(PRESENCE_LOCK_SQL, [nodeId]);
    if (!rows[0]?.locked) lost(new Error(`the presence lock of node ${nodeId} is held by another session`));
  }, lost);
}
