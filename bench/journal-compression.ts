/**
 * What compressing the journal costs PostgreSQL (migration 0030): `npm run bench -- journal-compression`.
 * Records of single orders, encoded as the engine encodes them (15 place commands, about 11 KB of
 * text, compressed and stored out of line), appended one statement each through the engine's own
 * append, and snapshot parts of 8 MB of open-order lines, written with the column's compression
 * set to pglz (the default before) and to lz4, in alternating rounds on one scratch database.
 * PostgreSQL's CPU is every `postgres` process's, from /proc.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { EngineCommand } from '../src/engine/state/commands.ts';
import { encodeRecord } from '../src/engine/journal/record-codec.ts';
import type { Db } from '../src/store/database.ts';
import { appendRecords, writeSnapshot } from '../src/store/engine-journal-repository.ts';
import { openAndMigrate } from '../src/store/open-and-migrate.ts';
import { createScratchDatabase } from '../test/helpers/database.ts';
import { cpuSpent, sampleCpu } from './machine-cpu.ts';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 3_000);
const ORDERS_PER_RECORD = 15;
const SNAPSHOT_PARTS = 6;
const PART_BYTES = 8_000_000;
const ROUNDS = 2;
const COMPRESSIONS = ['pglz', 'lz4'] as const;

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}` as `0x${string}`;
const wallets = Array.from({ length: 50 }, () => hex(20));

function placeCommand(i: number): EngineCommand {
  const maker = wallets[i % wallets.length]!;
  return {
    kind: 'place',
    order: {
      userId: randomUUID(), account: maker, apiKey: randomUUID(), marketId: randomUUID(), hash: hex(32), idempotencyKey: null,
      order: {
        tokenId: '71321045679252212594626385532706912750332728571942532289631379312455583992563', outcome: 0, side: 'BUY', priceMicros: 500_000 + (i % 90) * 1_000,
        sizeBaseUnits: 5_000_000n, makerAmount: 2_500_000n, takerAmount: 5_000_000n, orderType: 'GTC', postOnly: false, expirationSec: 0,
        maker, signer: maker, taker: '0x0000000000000000000000000000000000000000', nonce: 0n, feeRateBps: 0, signatureType: 1, salt: BigInt(randomInt(2 ** 47)), signature: hex(65),
      },
    },
  } as EngineCommand;
}

/** Open-order lines as a snapshot holds them (their shape, not a decoded state). */
function snapshotPart(): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < PART_BYTES; i++) {
    const line = `O${randomUUID()},${randomUUID()},${wallets[i % wallets.length]},${500_000 + (i % 90) * 1_000},5000000,0,0,${i},${hex(32)},${randomUUID()}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return lines.join('\n');
}

async function setCompression(db: Db, compression: (typeof COMPRESSIONS)[number]): Promise<void> {
  await sql.raw(`ALTER TABLE engine_journal ALTER COLUMN record SET COMPRESSION ${compression}`).execute(db);
  await sql.raw(`ALTER TABLE engine_snapshot_parts ALTER COLUMN data SET COMPRESSION ${compression}`).execute(db);
}

/** PostgreSQL's CPU µs and the wall time of `work`. */
async function measured(work: () => Promise<void>): Promise<{ postgresMicros: number; wallMs: number }> {
  const startedMs = performance.now();
  const before = sampleCpu();
  await work();
  const spent = cpuSpent(before, sampleCpu());
  return { postgresMicros: (spent?.postgresSeconds ?? Number.NaN) * 1e6, wallMs: performance.now() - startedMs };
}

const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (!baseUrl) {
  console.log('journal-compression: needs PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL); skipped');
} else {
  const scratch = await createScratchDatabase(baseUrl);
  const store = await openAndMigrate({ databaseUrl: scratch.url, dataDir: 'memory://' }, () => {});
  try {
    const texts = Array.from({ length: APPENDS }, (_, n) => encodeRecord({ seq: BigInt(n + 1), atMs: Date.now(), commands: Array.from({ length: ORDERS_PER_RECORD }, (_, i) => placeCommand(n + i)) }));
    const parts = Array.from({ length: SNAPSHOT_PARTS }, snapshotPart);
    const rows = [];
    let seq = 0n;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const compression of COMPRESSIONS) {
        await setCompression(store.db, compression);
        await sql`CHECKPOINT`.execute(store.db);
        const appends = await measured(async () => {
          for (const text of texts) {
            seq += 1n;
            await appendRecords(store.db, [{ seq, atMs: Date.now(), hash: hex(32), text }]);
          }
        });
        const snapshot = await measured(() => writeSnapshot(store.db, { seq: 0n, hash: '', stateHash: '', parts: parts.length }, parts, Date.now()));
        await store.db.deleteFrom('engine_snapshots').execute();
        rows.push({
          round,
          compression,
          'record bytes': Math.round(texts.reduce((sum, t) => sum + t.length, 0) / texts.length),
          'PostgreSQL CPU µs/append': Math.round(appends.postgresMicros / texts.length),
          'append ms': (appends.wallMs / texts.length).toFixed(2),
          'snapshot MB': Math.round((parts.length * PART_BYTES) / 1e6),
          'snapshot write PostgreSQL CPU ms': Math.round(snapshot.postgresMicros / 1000),
          'snapshot write ms': Math.round(snapshot.wallMs),
        });
      }
    }
    console.log(`${APPENDS} appends of one record of ${ORDERS_PER_RECORD} place commands each, then one snapshot, per compression and round`);
    console.table(rows);
  } finally {
    await store.close();
    await scratch.drop();
  }
}
