import type { Db } from './database.ts';
import { readProjectedSeq } from './engine-projection-repository.ts';
import type { OrderStatus, TradeStatus } from './schema.ts';

/** What the journal audit compares with its replay (src/engine/journal-audit.ts), read in the caller's snapshot. */
export async function readEngineTables(db: Db) {
  const [projectedSeq, balances, openOrders, unsettledTrades, ledger, chainHead] = await Promise.all([
    readProjectedSeq(db),
    db.selectFrom('ledger_balances').select(['account', 'asset', 'balance', 'locked']).execute(),
    db.selectFrom('orders').select(['id', 'status', 'matched_base_units']).where('status', 'in', ['PENDING', 'EXECUTING']).execute(),
    db.selectFrom('trades').select(['id', 'status']).where('status', 'in', ['MATCHED', 'MINED']).execute(),
    db.selectFrom('ledger_transactions').select((eb) => eb.fn.max('seq').as('last')).executeTakeFirst(),
    db.selectFrom('ledger_chain_head').select(['number', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow(),
  ]);
  return {
    projectedSeq,
    balances: balances.map((b) => ({ account: b.account, asset: b.asset, balance: BigInt(b.balance), locked: BigInt(b.locked) })),
    openOrders: openOrders.map((o) => ({ id: o.id, status: o.status as OrderStatus, matched: BigInt(o.matched_base_units) })),
    unsettledTrades: unsettledTrades.map((t) => ({ id: t.id, status: t.status as TradeStatus })),
    lastLedgerSeq: ledger?.last == null ? 0n : BigInt(ledger.last),
    chainHead: { number: BigInt(chainHead.number), hash: chainHead.hash },
  };
}
