import { CREDITED_KINDS } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { readTableState } from '../store/engine-genesis-repository.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import type { TradeRow } from '../store/trades-repository.ts';
import { complementPrice, formatPrice } from '../core/money.ts';
import { WITHDRAW_KIND } from './state/balance-commands.ts';
import { bookOrderOf } from './state/book-orders.ts';
import { EngineState } from './state/engine-state.ts';
import type { EngineOrder, EngineTrade } from './state/types.ts';
import type { MarketTradingInfo } from './types.ts';

/** The transaction kinds whose references are recorded once (Ledger.onceRefs): reward claims and withdrawals. */
const ONCE_KINDS = ['REWARD', WITHDRAW_KIND];

/**
 * The engine's state read from the tables (README.md "Snapshots"): the start of a store that has
 * no snapshot yet, before the first record of its journal. On a new store it is empty; on a
 * store of an earlier version of the exchange (tables without a journal) it is everything the
 * tables say: markets, balances, open orders in time priority, unsettled trades, questions, the
 * ledger's counters and chain. The engine writes it as the snapshot at position 0 at once.
 */
export async function genesisState(db: Db, publishedMarkets: MarketTradingInfo[]): Promise<EngineState> {
  const tables = await readTableState(db, [...CREDITED_KINDS], ONCE_KINDS, publishedMarkets.map((m) => m.id));
  const state = new EngineState();
  for (const info of publishedMarkets) state.putMarket(info);
  for (const m of tables.ledgerMarkets) state.ledger.markets.set(m.conditionId, { conditionId: m.conditionId, tokenId1: m.tokenId1, tokenId2: m.tokenId2, payout: m.payout, resolvedAtMs: m.resolvedAtMs });
  for (const b of tables.balances) state.balances.restore(b.account, b.asset, { balance: b.balance, locked: b.locked });
  for (const [marketId, question] of tables.questions) state.questions.set(marketId, question);
  for (const { eventId, marketId } of tables.winningMarkets) state.winningMarketOfEvent.set(eventId, marketId);
  for (const row of tables.openOrders.sort((a, b) => (a.book_seq < b.book_seq ? -1 : 1))) {
    const order = engineOrderOf(row);
    const runtime = state.runtimes.get(order.marketId);
    if (!runtime) continue;
    state.open.set(order.id, order);
    if (order.delayedUntilMs !== null) runtime.delayed.push({ orderId: order.id, dueMs: order.delayedUntilMs });
    else runtime.book.restore(bookOrderOf(order, order.sizeBaseUnits));
  }
  for (const row of tables.unsettledTrades.sort((a, b) => (a.seq < b.seq ? -1 : 1))) state.unsettled.set(row.id, engineTradeOf(row));
  for (const trade of tables.latestTrades) {
    const info = state.markets.get(trade.market_id);
    if (!info) continue;
    const price = Number(trade.price_micros);
    const side = trade.side === 0 ? 'buy' : 'sell';
    state.lastTrade.set(trade.token_id, { price: formatPrice(price), side });
    state.lastTrade.set(trade.token_id === info.tokenId1 ? info.tokenId2 : info.tokenId1, { price: formatPrice(complementPrice(price)), side: side === 'buy' ? 'sell' : 'buy' });
  }
  for (const { ref, txHash } of tables.onceRefs) if (ref.startsWith('reward-claim:') || ref.startsWith('withdraw:')) state.ledger.onceRefs.set(ref, txHash);
  state.nextBookSeq = tables.counters.maxBookSeq + 1n;
  state.nextTradeSeq = tables.counters.maxTradeSeq + 1n;
  state.ledger.nextSeq = tables.counters.maxLedgerSeq + 1n;
  state.ledger.credited = tables.counters.credited;
  state.ledger.head = tables.chain.head;
  state.ledger.unsealed = tables.chain.unsealed;
  return state;
}

function engineOrderOf(row: OrderRow): EngineOrder {
  return {
    id: row.id, userId: row.user_id, account: row.account, marketId: row.market_id, tokenId: row.token_id, outcome: row.outcome_index as 0 | 1,
    side: row.side === 0 ? 'BUY' : 'SELL', type: row.order_type, postOnly: row.post_only, priceMicros: Number(row.price_micros), sizeBaseUnits: row.size_base_units,
    expirationSec: Number(row.expiration), takerFeeBps: row.fee_rate_bps, makerFeeBps: row.passive_fee_rate_bps, bookSeq: row.book_seq,
    createdAtMs: row.created_at.getTime(), matchedBaseUnits: row.matched_base_units, status: row.status, delayedUntilMs: row.delayed_until?.getTime() ?? null,
    // The tables do not keep which key placed an order: a store without a snapshot predates keys mattering to the engine.
    updatedAtMs: row.updated_at.getTime(), apiKey: null, unsigned: row.signature === '' ? true : undefined,
  };
}

function engineTradeOf(row: TradeRow): EngineTrade {
  const side = (s: number) => (s === 0 ? 'BUY' : 'SELL') as 'BUY' | 'SELL';
  return {
    id: row.id, seq: row.seq, marketId: row.market_id, kind: row.kind, sizeBaseUnits: row.size_base_units, notionalBaseUnits: row.notional_base_units,
    taker: { orderId: row.taker_order_id, userId: row.taker_user_id, account: row.taker_wallet, tokenId: row.token_id, side: side(row.side), priceMicros: Number(row.price_micros), feeBaseUnits: row.taker_fee_base_units },
    maker: { orderId: row.maker_order_id, userId: row.maker_user_id, account: row.maker_wallet, tokenId: row.maker_token_id, side: side(row.maker_side), priceMicros: Number(row.maker_price_micros), feeBaseUnits: row.maker_fee_base_units },
    matchedAtMs: row.matched_at.getTime(), status: row.status, txHash: row.tx_hash, minedAtMs: row.mined_at?.getTime() ?? null, confirmedAtMs: row.confirmed_at?.getTime() ?? null,
  };
}
