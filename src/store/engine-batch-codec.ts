import { columnTexts, rowsFromColumnTexts, type ColumnTypes } from './column-arrays.ts';
import type { EngineBatchWrites } from './engine-batch-writes.ts';
import type { LockChange } from './ledger-balances-repository.ts';
import { ORDER_COLUMN_TYPES, ORDER_FILL_UPDATE_TYPES, type OrderFillUpdate, type OrderRow } from './orders-repository.ts';
import { TRADE_COLUMN_TYPES, type TradeRow } from './trades-repository.ts';

const LOCK_CHANGE_TYPES: ColumnTypes<LockChange> = { account: 'text', asset: 'text', locked: 'bigint' };

/**
 * What an engine batch writes, as one line of text for the engine journal (src/engine/README.md,
 * "The journal"): each table's rows as one array of PostgreSQL text per column, the encoding the
 * batch's statement sends, so a value read back is the value written whatever text it holds.
 * JSON escapes every line break, so a record never spans lines.
 */
export function encodeEngineBatch(writes: EngineBatchWrites): string {
  return JSON.stringify({
    locks: columnTexts(writes.lockChanges, LOCK_CHANGE_TYPES),
    orders: columnTexts(writes.newOrders, ORDER_COLUMN_TYPES),
    fills: columnTexts(writes.changedOrders, ORDER_FILL_UPDATE_TYPES),
    trades: columnTexts(writes.trades, TRADE_COLUMN_TYPES),
  });
}

export function decodeEngineBatch(line: string): EngineBatchWrites {
  const record = JSON.parse(line) as { [Part in 'locks' | 'orders' | 'fills' | 'trades']: Record<string, (string | null)[]> };
  return {
    lockChanges: rowsFromColumnTexts<LockChange>(record.locks, LOCK_CHANGE_TYPES),
    newOrders: rowsFromColumnTexts<OrderRow>(record.orders, ORDER_COLUMN_TYPES),
    changedOrders: rowsFromColumnTexts<OrderFillUpdate>(record.fills, ORDER_FILL_UPDATE_TYPES),
    trades: rowsFromColumnTexts<TradeRow>(record.trades, TRADE_COLUMN_TYPES),
  };
}
