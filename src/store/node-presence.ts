import pg from 'pg';
import { PRESENCE_LOCK_SQL } from './engine-leadership-repository.ts';

export interface NodePresence {
  close(): Promise<void>;
}

/**
 * Holds this node's presence lock (engine-leadership-repository.ts, PRESENCE_LOCK_CLASS) on a
 * PostgreSQL connection of its own for as long as the process lives: other nodes then wait for
 * this node's lease to expire, and take it at once when the process is gone. A dropped connection
 * is made again after a second (meanwhile another node may take the lease: fencing keeps that
 * safe, and this node is deposed at its next renewal).
 */
export async function holdNodePresence(databaseUrl: string, nodeId: string, lost: (error: unknown) => void): Promise<NodePresence> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('error', (error) => {
      lost(error);
      void next.end().catch(() => {});
      if (client === next) client = undefined;
      if (!closed) retry = setTimeout(() => void connect().catch(lost), 1000);
    });
    await next.connect();
    const { rows } = await next.query<{ locked: boolean }>(PRESENCE_LOCK_SQL, [nodeId]);
    if (!rows[0]?.locked) lost(new Error(`the presence lock of node ${nodeId} is held by another session`));
    client = next;
  };
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
