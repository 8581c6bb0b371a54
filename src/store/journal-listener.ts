import pg from 'pg';

/**
 * Hears, on PostgreSQL, of the engine journal's appends and projections as they commit
 * (`pg_notify` in the append and projection statements: src/store/engine-journal-repository.ts,
 * engine-projection-writes.ts), on one connection of its own kept for it. Notifications can be
 * lost (a dropped connection), so listeners also poll: this only makes them prompt.
 */
export interface JournalListener {
  close(): Promise<void>;
}

export async function listenToJournal(databaseUrl: string, handlers: { appended(seq: bigint): void; projected(seq: bigint): void; lost(error: unknown): void }): Promise<JournalListener> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === 'pmx_journal') handlers.appended(BigInt(message.payload));
      else if (message.channel === 'pmx_projection') handlers.projected(BigInt(message.payload));
    });
    next.on('error', (error) => {
      handlers.lost(error);
      void next.end().catch(() => {});
      if (client === next) client = undefined;
      if (!closed) retry = setTimeout(() => void connect().catch(handlers.lost), 1000);
    });
    await next.connect();
    await next.query('LISTEN pmx_journal');
    await next.query('LISTEN pmx_projection');
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
