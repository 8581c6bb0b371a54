import { redisReachable } from '../realtime/helpers.ts';
import { postgresReachable } from './database.ts';

/** The PostgreSQL that tests of several server processes put their scratch databases on. */
export const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
/** The Redis those processes share. */
export const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/**
 * Why a test of several server processes on one PostgreSQL and one Redis is skipped, or false. Its
 * nodes run on PostgreSQL whichever store the suite runs on, so it runs in the PostgreSQL suite
 * (DATABASE_URL) only: in the PGlite suite, which CI runs beside it, it would run the same again.
 */
export async function severalNodesSkip(): Promise<string | false> {
  if (!process.env.DATABASE_URL) return 'several nodes on one PostgreSQL: runs with the PostgreSQL suite (DATABASE_URL)';
  const [postgresUp, redisUp] = await Promise.all([postgresReachable(POSTGRES_URL), redisReachable(REDIS_URL)]);
  return !postgresUp ? `PostgreSQL unreachable at ${POSTGRES_URL}` : !redisUp ? `Redis unreachable at ${REDIS_URL} (set REDIS_TEST_URL)` : false;
}
