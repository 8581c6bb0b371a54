import { parseConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { createScratchDatabase } from './database.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** The chain test servers run on: `none` unless TEST_CHAIN names another (CI runs the API suites on `embedded` too). */
export const TEST_CHAIN = (process.env.TEST_CHAIN ?? 'none') as 'none' | 'embedded';

/** What HTTP-only helpers need of a server, in-process or not. */
export interface ApiServer {
  readonly url: string;
  /** Absolute URL of an API path: api('/events') → http://127.0.0.1:port/api/v1/events */
  api(path: string): string;
  adminHeaders: Record<string, string>;
}

export interface TestServer extends RunningServer, ApiServer {}

/**
 * A real server on a free loopback port with its own empty database: PGlite in memory by default,
 * or a fresh database on the PostgreSQL of DATABASE_URL (dropped again on close).
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const database = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
  const config = parseConfig({
    PORT: '0',
    DATA_DIR: 'memory://',
    ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    CLOCK: 'manual',
    FAUCET_ENABLED: 'true',
    SIGNATURE_WORKERS: '0',
    // The PostgreSQL suite runs without configured keys (EXTENSIONS.md section 10: --allow-generated-keys).
    ALLOW_GENERATED_KEYS: 'true',
    ...(database ? { DATABASE_URL: database.url } : {}),
    // TEST_CHAIN=embedded runs a suite's servers on the embedded chain (CI runs the API suites so).
    CHAIN: TEST_CHAIN,
    ...env,
  });
  const server = await startServer(config);
  return {
    ...server,
    api: (path: string) => `${server.url}/api/v1${path}`,
    adminHeaders: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    async close() {
      await server.close();
      await database?.drop();
    },
  };
}
