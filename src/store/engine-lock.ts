import pg from 'pg';

/** An arbitrary fixed 64-bit key: the one advisory lock that says "this node runs the engine". */
const ENGINE_LOCK_KEY = 7_238_100_412_007n;

export interface EngineLock {
  /** Whether this process holds the lock and so runs the engine. */
  readonly held: boolean;
  release(): Promise<void>;
}

/**
 * Exactly one process may run the matching engine, settlement and the oracle job on a database:
 * two would settle the same trades twice. On PostgreSQL the engine node holds a session advisory
 * lock on its own connection for its whole life; another node that cannot take it serves reads
 * and real-time fan-out but runs no engine, and refuses order commands with 503.
 * (PGlite is in-process and cannot be shared, so it needs no lock.)
 */
export async function tryEngineLock(databaseUrl: string | undefined): Promise<EngineLock> {
  if (!databaseUrl) return { held: true, release: async () => {} };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // A dropped lock connection means another node may take over: this one must stop trading.
  client.on('error', () => {});
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [ENGINE_LOCK_KEY.toString()]);
  if (!rows[0]?.locked) {
    await client.end();
    return { held: false, release: async () => {} };
  }
  return { held: true, release: () => client.end() };
}
