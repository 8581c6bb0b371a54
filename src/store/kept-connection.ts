import pg from 'pg';
import { within } from '../core/within.ts';

export interface KeptConnection {
  close(): Promise<void>;
}

/**
 * A PostgreSQL connection of its own, kept for as long as the process wants it: `setUp` runs on
 * each new connection (what makes it worth keeping: a LISTEN, a session lock), and a connection
 * that drops is made again after a second, `lost` hearing of each failure.
 */
export async function keepConnection(databaseUrl: string, setUp: (client: pg.Client) => Promise<void>, lost: (error: unknown) => void): Promise<KeptConnection> {
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
    await setUp(next);
    client = next;
  };
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = client;
      if (open) await within(open.end().catch(() => {}), END_WAIT_MS, () => void open.connection.stream.destroy());
    },
  };
}

/**
 * How long closing waits for PostgreSQL to see the connection end. A database that stopped
 * answering (its network dropping every packet) never confirms it, and a node's shutdown must not
 * wait for it: the socket is then dropped, and the session ends when PostgreSQL notices.
 */
const END_WAIT_MS = 1_000;
