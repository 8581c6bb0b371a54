import { sql } from 'kysely';
import type { OracleState } from '../core/oracle/state-machine.ts';
import type { Db } from './database.ts';
import { listMarkets, type LedgerMarket } from './ledger-journal-repository.ts';
import { findQuestions } from './oracle-questions-repository.ts';
import type { OrderRow } from './orders-repository.ts';
import type { TradeRow } from './trades-repository.ts';

/** Rows per read of the larger tables, by keyset. */
const PAGE = 20_000;

/**
 * What the tables hold of the engine's state, for the one time the engine starts on a store that
 * has no snapshot yet (src/engine/genesis.ts): a store made before the journal existed, or a new
 * one, whose state is then empty. Read once; after it, snapshots and the journal are the truth.
 */
export interface TableState {
  balances: { account: string; asset: string; balance: bigint; locked: bigint }[];
  openOrders: OrderRow[];
  unsettledTrades: TradeRow[];
  latestTrades: TradeRow[];
  ledgerMarkets: (LedgerMarket & { resolvedAtMs: number | null })[];
  questions: Map<string, OracleState>;
  winningMarkets: { eventId: string; marketId: string }[];
  counters: { maxBookSeq: bigint; maxTradeSeq: bigint; maxLedgerSeq: bigint; credited: bigint };
  chain: { head: { number: bigint; hash: string }; unsealed: { seq: bigint; txHash: string }[] };
  onceRefs: { ref: string; txHash: string }[];
}

export async function readTableState(db: Db, creditKinds: string[], onceKinds: string[], marketIds: string[]): Promise<TableState> {
  const [balances, openOrders, unsettledTrades, latestTrades, ledgerMarkets, questions, winningMarkets, counters, chain, onceRefs] = await Promise.all([
    db.selectFrom('ledger_balances').select(['account', 'asset', 'balance', 'locked']).execute(),
    pagesOf<OrderRow>((after) => db.selectFrom('orders').selectAll().where('status', 'in', ['PENDING', 'EXECUTING']).$if(after !== undefined, (q) => q.where('id', '>', after!)).orderBy('id').limit(PAGE).execute()),
    pagesOf<TradeRow>((after) => db.selectFrom('trades').selectAll().where('status', 'in', ['MATCHED', 'MINED']).$if(after !== undefined, (q) => q.where('id', '>', after!)).orderBy('id').limit(PAGE).execute()),
    db.selectFrom('trades').selectAll().distinctOn('market_id').where('status', '!=', 'FAILED').orderBy('market_id').orderBy('seq', 'desc').execute(),
    ledgerMarketsWithTimes(db),
    findQuestions(db, marketIds),
    db.selectFrom('events').select(['id as eventId', 'winning_market_id as marketId']).where('winning_market_id', 'is not', null).execute(),
    sql<{ book: string | null; trade: string | null; ledger: string | null; credited: string }>`
      SELECT (SELECT max(book_seq) FROM orders)::text AS book, (SELECT max(seq) FROM trades)::text AS trade,
             (SELECT max(seq) FROM ledger_transactions)::text AS ledger,
             (SELECT coalesce(sum(e.amount), 0) FROM ledger_entries e JOIN ledger_transactions t ON t.seq = e.tx_seq
              WHERE t.kind = ANY(${creditKinds}::text[]) AND e.asset = 'collateral')::text AS credited`.execute(db).then(({ rows }) => rows[0]!),
    Promise.all([
      db.selectFrom('ledger_chain_head').select(['number', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow(),
      db.selectFrom('ledger_transactions').select(['seq', 'tx_hash']).where('block_number', 'is', null).orderBy('seq').execute(),
    ]),
    db.selectFrom('ledger_transactions').select(['ref', 'tx_hash']).where('kind', 'in', onceKinds).orderBy('seq').execute(),
  ]);
  return {
    balances: balances.map((b) => ({ account: b.account, asset: b.asset, balance: BigInt(b.balance), locked: BigInt(b.locked) })),
    openOrders,
    unsettledTrades,
    latestTrades,
    ledgerMarkets,
    questions,
    winningMarkets: winningMarkets.map((w) => ({ eventId: w.eventId, marketId: w.marketId! })),
    counters: {
      maxBookSeq: BigInt(counters.book ?? 0), maxTradeSeq: BigInt(counters.trade ?? 0), maxLedgerSeq: BigInt(counters.ledger ?? 0), credited: BigInt(counters.credited),
    },
    chain: { head: { number: BigInt(chain[0].number), hash: chain[0].hash }, unsealed: chain[1].map((t) => ({ seq: BigInt(t.seq), txHash: t.tx_hash })) },
    onceRefs: onceRefs.map((r) => ({ ref: r.ref, txHash: r.tx_hash })),
  };
}

async function ledgerMarketsWithTimes(db: Db): Promise<(LedgerMarket & { resolvedAtMs: number | null })[]> {
  const times = new Map((await db.selectFrom('ledger_markets').select(['condition_id', 'resolved_at']).execute()).map((r) => [r.condition_id, r.resolved_at?.getTime() ?? null]));
  return (await listMarkets(db)).map((m) => ({ ...m, resolvedAtMs: times.get(m.conditionId) ?? null }));
}

async function pagesOf<Row extends { id: string }>(read: (after: string | undefined) => Promise<Row[]>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = await read(undefined); page.length > 0; page = page.length === PAGE ? await read(page.at(-1)!.id) : []) rows.push(...page);
  return rows;
}
