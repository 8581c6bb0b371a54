import pg from 'pg';

/** An arbitrary fixed 64-bit key: the one advisory lock that says "this node runs the engine". */
const ENGINE_LOCK_KEY = 7_238_100_412_007n;

export class EngineLockHeldError extends Error {
  override name = 'EngineLockHeldError';
}

export interface EngineLock {
  release(): Promise<void>;
}

/**
 * Exactly one process may run the matching engine and settlement on a database: two would settle
 * the same trades twice. On PostgreSQL the engine holds a session advisory lock on its own
 * connection for its whole life; a second node that cannot take it refuses to start rather than
 * trade beside the first. (PGlite is in-process and cannot be shared, so it needs no lock.)
 */
export async function acquireEngineLock(databaseUrl: string | undefined): Promise<EngineLock> {
  if (!databaseUrl) return { release: async () => {} };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // A dropped lock connection means another node may take over: this one must stop trading.
  client.on('error', () => {});
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [ENGINE_LOCK_KEY.toString()]);
  if (!rows[0]?.locked) {
    await client.end();
    throw new EngineLockHeldError('another node already runs the matching engine on this database; running two would settle trades twice (multi-node engine leadership is not available yet)');
  }
  return { release: () => client.end() };
}
