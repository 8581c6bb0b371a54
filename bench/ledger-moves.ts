/**
 * The position projector's read of a batch's token moves (src/store/positions-repository.ts
 * `listTokenMoves`) as the ledger grows, beside the query it replaced (a plain join, below), in
 * the same run on each store (bench/stores.ts): `npm run bench -- ledger-moves`. The ledger is
 * written as the projection writes it, one transaction (one xid) per batch of 25 trades, each
 * trade six entries (two wallets' collateral and tokens, the market's lock and fees); each size is
 * read at its last batch, before and after ANALYZE (PGlite has no autovacuum: a table's
 * statistics may be old or absent), and the plan each query got is named.
 */
import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import { openAndMigrate } from '../src/store/open-and-migrate.ts';
import { listTokenMoves, tokenMovesQuery } from '../src/store/positions-repository.ts';
import type { Db } from '../src/store/database.ts';
import { onEachStore } from './stores.ts';

const TRADES_PER_BATCH = 25;
const SIZES = [6_000, 60_000, 240_000];
const READS = 20;

/** The query before: the planner may take the account index or scan every entry and hash it. */
const tokenMovesQueryBefore = (from: bigint, to: bigint) => sql`
    SELECT t.seq, t.kind, t.ref, t.created_at, e.account, e.asset, e.amount::text AS amount
    FROM ledger_transactions t JOIN ledger_entries e ON e.tx_seq = t.seq
    WHERE t.xid >= ${from.toString()}::bigint AND t.xid < ${to.toString()}::bigint
      AND e.account LIKE '0x%' AND e.asset <> 'collateral'
    ORDER BY t.seq, e.idx`;

const wallet = (n: number, pad: string) => `0x${n.toString(16).padStart(40, pad)}`;

/** Appends batches until the ledger holds `entries` entries; the xid of the last batch. */
async function growLedger(db: Db, fromSeq: number, entries: number): Promise<{ nextSeq: number; lastXid: bigint }> {
  let seq = fromSeq;
  let lastXid = 0n;
  while ((seq - 1) * 6 < entries) {
    lastXid = await db.transaction().execute(async (tx) => {
      const txs = [];
      const rows = [];
      for (let i = 0; i < TRADES_PER_BATCH; i++, seq++) {
        txs.push({ seq: BigInt(seq), tx_hash: `0x${seq.toString(16).padStart(64, '0')}`, kind: 'TRADE', ref: `trade:${seq}`, created_at: new Date(), block_number: null, chain_tx_hash: null });
        const [maker, taker] = [wallet(seq % 500, 'a'), wallet(seq % 377, 'b')];
        rows.push(
          { tx_seq: BigInt(seq), idx: 0, account: maker, asset: 'collateral', amount: -6_000_000n, reason: 'TRADE' },
          { tx_seq: BigInt(seq), idx: 1, account: taker, asset: 'collateral', amount: -4_020_000n, reason: 'TRADE' },
          { tx_seq: BigInt(seq), idx: 2, account: 'market-lock:0x01', asset: 'collateral', amount: 10_000_000n, reason: 'MINT' },
          { tx_seq: BigInt(seq), idx: 3, account: 'fees:0x01', asset: 'collateral', amount: 20_000n, reason: 'FEE' },
          { tx_seq: BigInt(seq), idx: 4, account: maker, asset: '1234567890', amount: 10_000_000n, reason: 'MINT' },
          { tx_seq: BigInt(seq), idx: 5, account: taker, asset: '1234567891', amount: 10_000_000n, reason: 'MINT' },
        );
      }
      await tx.insertInto('ledger_transactions').values(txs).execute();
      await tx.insertInto('ledger_entries').values(rows).execute();
      const { rows: xid } = await sql<{ xid: string }>`SELECT pg_current_xact_id()::text AS xid`.execute(tx);
      return BigInt(xid[0]!.xid);
    });
  }
  return { nextSeq: seq, lastXid };
}

/** The access path the plan of `query` (the exact statement a read sends) reads the entries by, in a word. */
async function entriesPath(db: Db, query: RawBuilder<unknown>): Promise<string> {
  const compiled = query.compile(db);
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]));
  const lines = rows.map((r) => r['QUERY PLAN']);
  const at = lines.findIndex((l) => /on ledger_entries/.test(l));
  const line = lines[at] ?? '';
  if (/Seq Scan/.test(line)) return 'scan of every entry';
  // A bitmap heap scan names its index on the first bitmap index scan below it.
  const bitmapIndex = lines.slice(at + 1).map((l) => /Bitmap Index Scan on (\w+)/.exec(l)?.[1]).find((name) => name !== undefined);
  return /using (\w+)/.exec(line)?.[1] ?? bitmapIndex ?? line.trim().slice(0, 40);
}

async function meanMs(read: () => Promise<unknown>): Promise<number> {
  await read();
  const started = performance.now();
  for (let i = 0; i < READS; i++) await read();
  return (performance.now() - started) / READS;
}

const rows: Record<string, string | number>[] = [];
await onEachStore(async (label, env) => {
  const store = await openAndMigrate({ dataDir: env.DATA_DIR ?? 'memory://', databaseUrl: env.DATABASE_URL || undefined }, () => {});
  try {
    let nextSeq = 1;
    for (const size of SIZES) {
      const grown = await growLedger(store.db, nextSeq, size);
      nextSeq = grown.nextSeq;
      for (const stats of ['as written', 'analyzed']) {
        if (stats === 'analyzed') await sql`ANALYZE ledger_transactions, ledger_entries`.execute(store.db);
        const [from, to] = [grown.lastXid, grown.lastXid + 1n];
        const before = await meanMs(() => tokenMovesQueryBefore(from, to).execute(store.db));
        const now = await meanMs(() => listTokenMoves(store.db, from, to));
        rows.push({
          store: label, entries: (nextSeq - 1) * 6, statistics: stats,
          'before (ms/read)': before.toFixed(2), 'before: entries by': await entriesPath(store.db, tokenMovesQueryBefore(from, to)),
          'this build (ms/read)': now.toFixed(2), 'this build: entries by': await entriesPath(store.db, tokenMovesQuery(from, to)),
        });
      }
    }
  } finally {
    await store.close();
  }
});
console.log(`one batch of ${TRADES_PER_BATCH} trades (${TRADES_PER_BATCH * 2} token moves) read ${READS} times at each ledger size`);
console.table(rows);
