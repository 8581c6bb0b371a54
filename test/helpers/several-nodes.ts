import { redisReachable, REDIS_URL } from '../realtime/helpers.ts';
import { POSTGRES_URL, postgresReachable } from './database.ts';

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
