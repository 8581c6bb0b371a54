import { keepConnection } from './kept-connection.ts';

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
  return keepConnection(databaseUrl, async (client) => {
    client.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === 'pmx_journal') handlers.appended(BigInt(message.payload));
      else if (message.channel === 'pmx_projection') handlers.projected(BigInt(message.payload));
    });
    await client.query('LISTEN pmx_journal');
    await client.query('LISTEN pmx_projection');
  }, handlers.lost);
}
