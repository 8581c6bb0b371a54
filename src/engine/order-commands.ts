import { randomUUID } from 'node:crypto';
import { complementPrice, formatPrice, formatUnits } from '../core/money.ts';
import type { Fill } from '../core/book/types.ts';
import { buyReleaseOnFill, costBaseUnits, reservationFor } from '../core/orders/reservation.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { COLLATERAL, InsufficientBalanceError } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import type { Batch } from './batch.ts';
import { detailed, type EngineOrder } from './engine-order.ts';
import type { StoredOrders } from './pending-projection.ts';
import { termsOf, toIncoming, type EngineState, type MarketRuntime } from './engine-state.ts';
import { toOrderResponse, toTradeResponse } from './shapes.ts';
import { failure, type EngineFailure, type MarketTradingInfo, type PlaceOrderOutcome, type PlaceOrderRequest } from './types.ts';

/** Order hashes and idempotency keys taken, in the store or earlier in the same batch. */
export interface UsedKeys {
  hashes: Set<string>;
  idempotency: Map<string, OrderRow>;
}

/** Work that records markets' resolution in the engine's transaction and names the markets it resolved. */
export type RetireWork<T> = (tx: Db) => Promise<{ marketIds: string[]; result: T }>;

export type CancelOutcome = { ok: true; order: EngineOrder } | EngineFailure;

/**
 * The order commands, applied inside a batch to the engine's state (engine-state.ts) and to the
 * batch (what it writes, reserves and announces): place and match, fills and trades, cancels,
 * expiries and speed bumps, and the retirement of resolved markets. The engine (engine.ts) runs
 * them in its batches and answers and publishes only after a batch is durable.
 */
export class OrderCommands {
  /** `retired` runs after the commit that retired a market: the engine forgets its book. */
  constructor(private readonly state: EngineState, private readonly events: DomainEvents, private readonly retired: (marketId: string) => void) {}

  async place(stored: StoredOrders, batch: Batch, request: PlaceOrderRequest, used: UsedKeys): Promise<PlaceOrderOutcome> {
    const { order } = request;
    if (request.idempotencyKey) {
      const key = `${request.userId}|${request.idempotencyKey}`;
      const prior = used.idempotency.get(key) ?? (await stored.byIdempotencyKey(request.userId, request.idempotencyKey));
      if (prior) {
        if (prior.hash === request.hash) return { ok: true, order: prior, replayed: true };
        return failure('CONFLICT', 'idempotencyKey was already used for a different order');
      }
    }
    if (used.hashes.has(request.hash)) return failure('CONFLICT', `an order with hash ${request.hash} already exists`);
    const runtime = this.state.runtimes.get(request.marketId);
    if (!runtime || !isTradable(runtime.info)) return failure('MARKET_NOT_TRADABLE', 'the market is not accepting orders (not active, paused or resolved)');

    const row = this.newOrderRow(batch, request, runtime.info);
    const asset = order.side === 'BUY' ? COLLATERAL : order.tokenId;
    const reserve = reservationFor(termsOf(row), order.sizeBaseUnits);
    try {
      batch.locks.reserve({ account: request.account, asset, amount: reserve, ref: row.id });
    } catch (error) {
      if (error instanceof InsufficientBalanceError) return failure('INSUFFICIENT_BALANCE', insufficientMessage(asset, reserve, error));
      throw error;
    }
    used.hashes.add(request.hash);
    if (request.idempotencyKey) used.idempotency.set(`${request.userId}|${request.idempotencyKey}`, row);
    batch.addOrder(row);

    const incoming = toIncoming(row);
    if (runtime.info.speedBumpDelayMs > 0 && runtime.book.wouldCross(incoming, batch.nowSec)) {
      row.delayed_until = new Date(batch.nowMs + runtime.info.speedBumpDelayMs);
      runtime.delayed.push({ orderId: row.id, dueMs: row.delayed_until.getTime() });
      this.state.open.set(row.id, row);
      this.announceOrder(batch, row, 'PLACEMENT');
      return { ok: true, order: row, replayed: false };
    }
    if (!this.match(batch, runtime, row, 'PLACEMENT')) {
      return { ...failure('POST_ONLY_WOULD_CROSS', 'the post-only order would cross the book and take liquidity; nothing rests'), order: row };
    }
    return { ok: true, order: row, replayed: false };
  }

  /**
   * Puts an accepted order to the book: fills, rests or ends, and settles its reservation. False
   * when it is a post-only order that would have taken liquidity (it is rejected, nothing rests).
   */
  private match(batch: Batch, runtime: MarketRuntime, row: EngineOrder, announceAs: 'PLACEMENT' | 'UPDATE'): boolean {
    const result = runtime.book.submit(toIncoming(row), batch.nowSec);
    batch.touchedMarkets.add(runtime.info.id);
    for (const gone of [...result.expired, ...result.cancelledOwn]) this.closeOpenOrder(batch, gone.id);
    if (result.rejectReason === 'POST_ONLY_WOULD_CROSS') {
      this.releaseRemaining(batch, row);
      row.status = 'REJECTED';
      batch.orderChanged(row);
      return false;
    }
    for (const fill of result.fills) this.recordFill(batch, runtime, fill, row);
    row.status = result.status;
    batch.orderChanged(row);
    if (result.rested) {
      this.state.open.set(row.id, row);
    } else {
      this.state.open.delete(row.id);
      this.releaseRemaining(batch, row);
    }
    this.announceOrder(batch, row, announceAs);
    return true;
  }

  private recordFill(batch: Batch, runtime: MarketRuntime, fill: Fill, takerRow: EngineOrder): void {
    const makerRow = this.state.open.get(fill.maker.orderId);
    if (!makerRow) throw new Error(`resting order ${fill.maker.orderId} is not open in the engine`);
    for (const [row, party] of [[makerRow, fill.maker], [takerRow, fill.taker]] as const) {
      if (party.side === 'BUY') {
        const remainingBefore = row.size_base_units - row.matched_base_units;
        const release = buyReleaseOnFill(termsOf(row), remainingBefore, fill.sizeBaseUnits, party.priceMicros, party.feeBaseUnits);
        if (release > 0n) batch.locks.release({ account: row.account, asset: COLLATERAL, amount: release, ref: row.id });
      }
      row.matched_base_units += fill.sizeBaseUnits;
    }
    makerRow.status = makerRow.matched_base_units === makerRow.size_base_units ? 'EXECUTED' : 'EXECUTING';
    if (makerRow.status === 'EXECUTED') this.state.open.delete(makerRow.id);
    batch.orderChanged(makerRow);
    this.announceOrder(batch, makerRow, 'UPDATE');

    const trade = {
      id: randomUUID(),
      seq: this.state.nextTradeSeq++,
      market_id: runtime.info.id,
      kind: fill.kind,
      status: 'MATCHED' as const,
      token_id: takerRow.token_id,
      side: takerRow.side,
      price_micros: BigInt(fill.taker.priceMicros),
      maker_token_id: makerRow.token_id,
      maker_side: makerRow.side,
      maker_price_micros: BigInt(fill.maker.priceMicros),
      size_base_units: fill.sizeBaseUnits,
      notional_base_units: costBaseUnits(fill.taker.priceMicros, fill.sizeBaseUnits),
      taker_order_id: takerRow.id,
      maker_order_id: makerRow.id,
      taker_user_id: takerRow.user_id,
      maker_user_id: makerRow.user_id,
      taker_wallet: takerRow.account,
      maker_wallet: makerRow.account,
      taker_fee_base_units: fill.taker.feeBaseUnits,
      maker_fee_base_units: fill.maker.feeBaseUnits,
      tx_hash: null,
      matched_at: batch.now,
      mined_at: null,
      confirmed_at: null,
    };
    batch.addTrade(trade);
    batch.announce(this.events, 'trade-update', { userIds: unique([takerRow.user_id, makerRow.user_id]), trade: toTradeResponse(trade) });
    this.recordLastTrade(batch, runtime.info, takerRow, fill.taker.priceMicros);
  }

  /** Last trade price of both tokens: the taker's price and side, and their mirror on the other token. */
  private recordLastTrade(batch: Batch, info: MarketTradingInfo, takerRow: EngineOrder, priceMicros: number): void {
    const takerSide = takerRow.side === 0 ? 'buy' : 'sell';
    const otherToken = takerRow.token_id === info.tokenId1 ? info.tokenId2 : info.tokenId1;
    const prints = [
      { assetId: takerRow.token_id, price: formatPrice(priceMicros), side: takerSide },
      { assetId: otherToken, price: formatPrice(complementPrice(priceMicros)), side: takerSide === 'buy' ? 'sell' : 'buy' },
    ] as const;
    for (const print of prints) {
      this.state.lastTrade.set(print.assetId, { price: print.price, side: print.side });
      batch.announce(this.events, 'last-trade-price', { marketId: info.id, assetId: print.assetId, price: print.price, side: print.side, timestampMs: batch.nowMs });
    }
  }

  async cancel(stored: StoredOrders, batch: Batch, userId: string, orderId: string): Promise<CancelOutcome> {
    // An earlier command of this batch may have closed the order: its status is not written yet.
    const row = this.state.open.get(orderId) ?? batch.changedOrder(orderId) ?? (await stored.byId(orderId));
    if (!row) return failure('NOT_FOUND', 'order not found');
    if (row.user_id !== userId) return failure('FORBIDDEN', 'this order belongs to another user');
    if (!this.state.open.has(orderId)) return failure('ORDER_NOT_OPEN', `the order is ${row.status} and can no longer be cancelled`);
    this.closeOpenOrder(batch, orderId);
    return { ok: true, order: row };
  }

  cancelUserOrders(batch: Batch, userId: string, marketIds: Set<string>): EngineOrder[] {
    const mine = [...this.state.open.values()].filter((row) => row.user_id === userId && marketIds.has(row.market_id));
    for (const row of mine) this.closeOpenOrder(batch, row.id);
    return mine;
  }

  /** Retires markets whose resolution the batch recorded: later commands see them resolved, their open orders are cancelled. */
  retire(batch: Batch, marketIds: string[]): void {
    const retiring = new Set(marketIds);
    for (const marketId of retiring) {
      const runtime = this.state.runtimes.get(marketId);
      // Later commands of this batch see the market as resolved and are refused.
      if (runtime) runtime.info = { ...runtime.info, status: 'RESOLVED', isResolved: true };
    }
    for (const row of [...this.state.open.values()]) if (retiring.has(row.market_id)) this.closeOpenOrder(batch, row.id);
    batch.afterCommit(() => {
      for (const marketId of retiring) this.retired(marketId);
    });
  }

  /** Cancels an open order (by its owner, by self-trade prevention or by expiry) and frees its reservation. */
  private closeOpenOrder(batch: Batch, orderId: string): void {
    const row = this.state.open.get(orderId);
    if (!row) throw new Error(`order ${orderId} is not open`);
    const runtime = this.state.runtimes.get(row.market_id);
    if (runtime) {
      if (row.delayed_until) runtime.delayed = runtime.delayed.filter((d) => d.orderId !== orderId);
      else if (runtime.book.cancel(orderId)) batch.touchedMarkets.add(row.market_id);
    }
    this.recordCancelled(batch, row);
  }

  /** An open order leaves the engine CANCELLED: its reservation freed, the change written and announced. */
  private recordCancelled(batch: Batch, row: EngineOrder): void {
    this.state.open.delete(row.id);
    this.releaseRemaining(batch, row);
    row.status = 'CANCELLED';
    row.delayed_until = null;
    batch.orderChanged(row);
    this.announceOrder(batch, row, 'CANCELLATION');
  }

  private releaseRemaining(batch: Batch, row: EngineOrder): void {
    const amount = reservationFor(termsOf(row), row.size_base_units - row.matched_base_units);
    if (amount === 0n) return;
    const asset = row.side === 0 ? COLLATERAL : row.token_id;
    batch.locks.release({ account: row.account, asset, amount, ref: row.id });
  }

  expireAndRelease(batch: Batch): void {
    for (const runtime of this.state.runtimes.values()) {
      for (const expired of runtime.book.expireUntil(batch.nowSec)) {
        batch.touchedMarkets.add(runtime.info.id);
        this.closeExpired(batch, expired.id);
      }
      while (runtime.delayed.length > 0 && runtime.delayed[0]!.dueMs <= batch.nowMs) {
        const { orderId } = runtime.delayed.shift()!;
        const row = this.state.open.get(orderId);
        if (!row) continue;
        row.delayed_until = null;
        this.match(batch, runtime, row, 'UPDATE');
      }
    }
  }

  /** The book already dropped the expired order; free its reservation and record it. */
  private closeExpired(batch: Batch, orderId: string): void {
    const row = this.state.open.get(orderId);
    if (row) this.recordCancelled(batch, row);
  }

  private newOrderRow(batch: Batch, request: PlaceOrderRequest, info: MarketTradingInfo): OrderRow {
    const { order } = request;
    return {
      id: randomUUID(),
      user_id: request.userId,
      account: request.account,
      market_id: info.id,
      token_id: order.tokenId,
      outcome_index: order.outcome,
      side: order.side === 'BUY' ? 0 : 1,
      order_type: order.orderType,
      post_only: order.postOnly,
      status: 'PENDING',
      price_micros: BigInt(order.priceMicros),
      size_base_units: order.sizeBaseUnits,
      matched_base_units: 0n,
      salt: order.salt.toString(),
      maker: order.maker,
      signer: order.signer,
      taker: order.taker,
      maker_amount: order.makerAmount.toString(),
      taker_amount: order.takerAmount.toString(),
      expiration: BigInt(order.expirationSec),
      nonce: order.nonce.toString(),
      fee_rate_bps: order.feeRateBps,
      passive_fee_rate_bps: info.passiveOrderFeeRateBps,
      signature_type: order.signatureType,
      signature: order.signature,
      hash: request.hash,
      idempotency_key: request.idempotencyKey,
      metadata: null,
      book_seq: this.state.nextBookSeq++,
      delayed_until: null,
      created_at: batch.now,
      updated_at: batch.now,
    };
  }

  /**
   * The order's update as it stands now, sent after commit. Its details (the signed fields) may be
   * read only later in the batch (engine-order.ts), so the changing fields are taken now and the
   * message is made when it is sent.
   */
  private announceOrder(batch: Batch, row: EngineOrder, type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION'): void {
    const now = { status: row.status, matched_base_units: row.matched_base_units };
    const outcome = this.state.outcomeLabelOf(row);
    batch.needsDetails(row);
    batch.afterCommit(() => this.events.publish('order-update', { userId: row.user_id, type, order: toOrderResponse({ ...detailed(row), ...now }, outcome) }));
  }
}

function isTradable(info: MarketTradingInfo): boolean {
  return info.status === 'ACTIVE' && !info.isPaused && !info.isResolved;
}

function insufficientMessage(asset: string, needed: bigint, error: InsufficientBalanceError): string {
  const what = asset === COLLATERAL ? 'collateral' : `tokens of ${asset}`;
  return `available ${what} ${formatUnits(error.available)} is less than the ${formatUnits(needed)} this order must reserve`;
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];
