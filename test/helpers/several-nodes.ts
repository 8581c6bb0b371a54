import { redisReachable, REDIS_URL } from '../realtime/helpers.ts';
import { createScratchDatabase, POSTGRES_URL, postgresReachable } from './database.ts';
import { startProcessServer, type ProcessServer } from './process-server.ts';

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

/** Server processes of one cluster: a scratch database on the test PostgreSQL, and the test Redis. */
export interface SeveralNodes {
  /** What every node gets: the database, Redis, and the environment the cluster was opened with. */
  readonly env: Readonly<Record<string, string>>;
  /** The nodes started, in order (crashed and stopped ones included). */
  readonly nodes: ProcessServer[];
  /** Starts one more node, `env` over the cluster's; `port`: where a crashed node's clients look. */
  start(env?: Record<string, string>, port?: number): Promise<ProcessServer>;
  /** Stops every node, the last started first, and drops the database. */
  close(): Promise<void>;
}

/** Opens a cluster and starts `count` nodes on it, one after the other (the first leads). */
export async function startSeveralNodes(count: number, env: Record<string, string> = {}): Promise<SeveralNodes> {
  const database = await createScratchDatabase(POSTGRES_URL);
  const shared = { DATABASE_URL: database.url, REDIS_URL, ...env };
  const nodes: ProcessServer[] = [];
  const cluster: SeveralNodes = {
    env: shared,
    nodes,
    async start(extra = {}, port) {
      const node = await startProcessServer({ ...shared, ...extra }, port);
      nodes.push(node);
      return node;
    },
    async close() {
      for (const node of [...nodes].reverse()) await node.stop();
      await database.drop();
    },
  };
  try {
    for (let i = 0; i < count; i++) await cluster.start();
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return cluster;
}
