/**
 * Takeover at scale: `npm run bench -- takeover` (needs PostgreSQL: BENCH_DATABASE_URL or
 * DATABASE_URL). Two nodes on one database; the engine's node holds BENCH_OPEN_ORDERS open orders
 * (default 1,000,000) and the other follows its journal. The engine's node is killed with
 * `kill -9`; measured: from the kill, and from the moment its lease would expire (read from the
 * lease row, by the database's clock; negative when the standby took it before, the killed node's
 * presence lock being gone: src/cluster/README.md "Presence"), to the first order the standby
 * acknowledges, and the book's hash after it.
 * Issue 37 asks for under 2 s at a million open orders: a takeover applies the few records the
 * standby had not seen, whatever the size of the books.
 */
import { sql } from 'kysely';
import { openStore } from '../src/store/database.ts';
import { createScratchDatabase } from '../test/helpers/database.ts';
import { startProcessServer, type ProcessServer } from '../test/helpers/process-server.ts';
import { hmacHeaders, json, setUpMarket, setUpTrader, unsignedBuyJson } from './exchange-client.ts';
import { seedOpenOrders } from '../test/helpers/seed-open-orders.ts';
import { startFollower } from './follower-node.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const COUNTS = (process.env.BENCH_OPEN_ORDERS ?? '1000000').split(',').map(Number);
const FAILOVER_TIMEOUT_MS = 5_000;
/** The lease of src/cluster/leadership.ts: 0.6 of the failover timeout after its last renewal. */
const LEASE_MS = FAILOVER_TIMEOUT_MS * 0.6;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 6_000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} never happened`);
}

async function measure(count: number): Promise<Record<string, unknown>> {
  const scratch = await createScratchDatabase(databaseUrl!);
  // Two nodes on one database share a Redis (a node without one refuses to join another's cluster) and the key material.
  const env = { DATABASE_URL: scratch.url, FAILOVER_TIMEOUT_MS: String(FAILOVER_TIMEOUT_MS), REDIS_URL: redisUrl, ALLOW_GENERATED_KEYS: 'true' };
  const nodes: ProcessServer[] = [];
  try {
    let leader = await startProcessServer(env);
    const market = await setUpMarket(leader);
    const trader = await setUpTrader(leader);
    const buy = (salt: bigint) => JSON.stringify(unsignedBuyJson({ salt, tokenId: market.tokenId1, makerAmount: 100_000n, takerAmount: 10_000_000n }));
    const first = buy(1n);
    const template = await json(leader.api('/orders'), { method: 'POST', headers: hmacHeaders(trader, 'POST', '/api/v1/orders', first), body: first });
    await leader.stop();
    await seedOpenOrders(env, template.id, count);
    leader = await startProcessServer(env);
    nodes.push(leader);
    const standby = await startFollower(env);
    nodes.push(standby);
    const before = await json(standby.api(`/order-book/book?token_id=${market.tokenId1}`));

    await leader.crash();
    const killedAt = performance.now();
    const store = await openStore({ databaseUrl: scratch.url, dataDir: '' });
    const { rows } = await sql<{ ms: number }>`SELECT extract(epoch FROM (renewed_at + ${`${LEASE_MS} milliseconds`}::interval - clock_timestamp())) * 1000 AS ms FROM engine_leadership WHERE id = 1`.execute(store.db);
    await store.close();
    const expiresAt = killedAt + Number(rows[0]!.ms);
    let salt = 2n;
    let acknowledgedAt = 0;
    await until(async () => {
      const body = buy(salt++);
      const answer = await fetch(standby.api('/orders'), { method: 'POST', headers: hmacHeaders(trader, 'POST', '/api/v1/orders', body), body }).catch(() => undefined);
      acknowledgedAt = performance.now();
      return answer?.status === 200;
    }, 'an order acknowledged by the standby');
    const after = await json(standby.api(`/order-book/book?token_id=${market.tokenId1}`));
    const levels = (book: { bids: { size: string }[] }) => book.bids.reduce((sum, level) => sum + Number(level.size), 0);
    if (levels(after) !== levels(before) + 10) throw new Error(`the standby's book holds ${levels(after)}, not ${levels(before)} + 10`);
    return {
      'open orders': count + 1,
      'kill to first acknowledged order (ms)': Math.round(acknowledgedAt - killedAt),
      'lease expiry to first acknowledged order (ms)': Math.round(acknowledgedAt - expiresAt),
    };
  } finally {
    await Promise.all(nodes.map((node) => node.stop().catch(() => {})));
    await scratch.drop();
  }
}

if (!databaseUrl) {
  console.log('takeover needs PostgreSQL: set BENCH_DATABASE_URL or DATABASE_URL');
} else {
  const rows = [];
  for (const count of COUNTS) rows.push(await measure(count));
  console.table(rows);
}
