import { complementPrice, formatPrice, formatUnits } from '../../core/money.ts';
import type { Fill } from '../../core/book/types.ts';
import { buyReleaseOnFill, costBaseUnits, reservationFor, type ReservationTerms } from '../../core/orders/reservation.ts';
import { COLLATERAL, InsufficientBalanceError } from '../../settlement/types.ts';
import type { MarketTradingInfo } from '../types.ts';
import { failure, type ApplyContext, type EngineFailure } from './apply-context.ts';
import type { MarketRuntime } from './engine-state.ts';
import { bookOrderOf, remainingOf } from './book-orders.ts';
import type { MmpSetting } from './maker-safety.ts';
import { covers } from './maker-safety.ts';
import { matchPartOf } from './match-parts.ts';
import type { CancelReason, EngineOrder, EngineTrade, NewOrder, TradeParty } from './types.ts';
import { approvalsNeeded, missingApprovalRefusal } from './wallet-approvals.ts';

export type PlaceOutcome = { ok: true; order: EngineOrder; replayed: boolean } | (EngineFailure & { order?: EngineOrder });
/** NOT_OPEN: the engine does not hold the order open; who owns it and what became of it the store says. */
export type CancelOutcome = { ok: true; order: EngineOrder } | EngineFailure;

/**
 * The order commands (SPEC.md 4.4), applied to the engine's state within a record: place and
 * match, fills and trades, cancels, expiries and speed bumps, and the retirement of resolved
 * markets. Reservations move the balances in memory (DESIGN.md "Balances are a ledger": an order
 * reserves its worst case, each fill releases what it did not need, a close releases the rest).
 */
export function placeOrder(ctx: ApplyContext, request: NewOrder): PlaceOutcome {
  const { state, effects, taken } = ctx;
  const key = request.idempotencyKey ? `${request.userId}|${request.idempotencyKey}` : undefined;
  const prior = key ? taken.keys.get(key) : undefined;
  if (prior) return prior.signed?.hash === request.hash ? { ok: true, order: { ...prior }, replayed: true } : failure('CONFLICT', 'idempotencyKey was already used for a different order');
  if (taken.hashes.has(request.hash)) return failure('CONFLICT', `an order with hash ${request.hash} already exists`);
  const runtime = state.runtimes.get(request.marketId);
  if (!runtime || !isTradable(runtime.info)) return failure('MARKET_NOT_TRADABLE', 'the market is not accepting orders (not active, paused or resolved)');
  const frozenUntil = request.apiKey === null ? undefined : state.safety.frozenUntil(request.apiKey, runtime.info, ctx.atMs);
  if (frozenUntil !== undefined) return failure('MMP_FROZEN', `market-maker protection tripped: this API key's new orders in this market are refused until ${new Date(frozenUntil).toISOString()}`);
  // A wallet that revoked the exchange's right to move what the order sells or pays could not settle it: unfunded, as a short balance is.
  const unsigned = request.order.signature === '' ? true : undefined;
  const missing = approvalsNeeded({ side: request.order.side, unsigned }, runtime.info).find((approval) => state.chainIndex.missingApprovals.has(request.account, approval));
  if (missing) {
    const refusal = missingApprovalRefusal(request.account, missing);
    return failure(refusal.code, refusal.message);
  }

  const order = newOrder(ctx, request, runtime.info, unsigned);
  const asset = order.side === 'BUY' ? COLLATERAL : order.tokenId;
  const reserve = reservationFor(termsOf(order), order.sizeBaseUnits);
  try {
    state.balances.reserve(order.account, asset, reserve);
  } catch (error) {
    if (error instanceof InsufficientBalanceError) return failure('INSUFFICIENT_BALANCE', insufficientMessage(asset, reserve, error));
    throw error;
  }
  // Only an accepted order takes a place in the acceptance order (a refused one leaves no trace in the state).
  order.bookSeq = state.nextBookSeq++;
  taken.hashes.add(request.hash);
  if (key) taken.keys.set(key, order);
  effects.orderAccepted(order);

  if (runtime.info.speedBumpDelayMs > 0 && runtime.book.wouldCross(bookOrderOf(order), ctx.nowSec)) {
    order.delayedUntilMs = ctx.atMs + runtime.info.speedBumpDelayMs;
    runtime.delayed.push({ orderId: order.id, dueMs: order.delayedUntilMs });
    state.open.set(order.id, order);
    announceOrder(ctx, order, 'PLACEMENT');
    return { ok: true, order: { ...order }, replayed: false };
  }
  // The answer shows the order as this record leaves it (a copy): a later record, applied before
  // this one is durable, may fill it further, and that fill is not this answer's to show.
  if (!match(ctx, runtime, order, 'PLACEMENT')) {
    return { ...failure('POST_ONLY_WOULD_CROSS', 'the post-only order would cross the book and take liquidity; nothing rests'), order: { ...order } };
  }
  return { ok: true, order: { ...order }, replayed: false };
}

export function cancelOrder(ctx: ApplyContext, userId: string, orderId: string): CancelOutcome {
  const order = ctx.state.open.get(orderId);
  if (!order) return failure('NOT_OPEN', 'the engine does not hold this order open');
  if (order.userId !== userId) return failure('FORBIDDEN', 'this order belongs to another user');
  closeOpenOrder(ctx, orderId);
  return { ok: true, order: { ...order } };
}

/** Cancels every open order of the user in these markets; returns them in acceptance order. */
export function cancelUserOrders(ctx: ApplyContext, userId: string, marketIds: ReadonlySet<string>): EngineOrder[] {
  const mine = [...ctx.state.open.values()].filter((order) => order.userId === userId && marketIds.has(order.marketId));
  for (const order of mine) closeOpenOrder(ctx, order.id);
  return mine.map((order) => ({ ...order }));
}

/** Cancels the open orders placed with an API key that `inScope` picks, in acceptance order: the exchange's cancels for `reason`. */
export function cancelOrdersOfKey(ctx: ApplyContext, apiKey: string, inScope: (order: EngineOrder) => boolean, reason: CancelReason): void {
  for (const order of [...ctx.state.open.values()]) if (order.apiKey === apiKey && inScope(order)) closeOpenOrder(ctx, order.id, reason);
}

/** Resolved markets stop trading: later commands see them resolved, their open orders are cancelled, their books go. */
export function retireMarkets(ctx: ApplyContext, marketIds: readonly string[]): void {
  const retiring = new Set(marketIds);
  for (const order of [...ctx.state.open.values()]) if (retiring.has(order.marketId)) closeOpenOrder(ctx, order.id, 'MARKET_RESOLVED');
  for (const marketId of retiring) {
    ctx.state.dropRuntime(marketId);
    ctx.effects.touchedMarkets.delete(marketId);
    ctx.effects.announcements.retiredMarkets.push(marketId);
  }
}

/** Expires due orders and releases due speed-bumped ones into their books. */
export function expireAndRelease(ctx: ApplyContext): void {
  // In market-id order: a release makes trades, whose ids and sequences follow this order.
  for (const runtime of [...ctx.state.runtimes.values()].sort((a, b) => (a.info.id < b.info.id ? -1 : 1))) {
    for (const expired of runtime.book.expireUntil(ctx.nowSec)) {
      ctx.effects.touchedMarkets.add(runtime.info.id);
      const order = ctx.state.open.get(expired.id);
      if (order) recordCancelled(ctx, order, 'EXPIRED');
    }
    while (runtime.delayed.length > 0 && runtime.delayed[0]!.dueMs <= ctx.atMs) {
      const { orderId } = runtime.delayed.shift()!;
      const order = ctx.state.open.get(orderId);
      if (!order) continue;
      order.delayedUntilMs = null;
      order.bookSeq = ctx.state.nextBookSeq++;
      // Its new place in the acceptance order is its place among the open orders too, where a
      // snapshot restores it (by bookSeq): cancels that walk the open orders list them in that order.
      ctx.state.open.delete(orderId);
      ctx.state.open.set(orderId, order);
      match(ctx, runtime, order, 'UPDATE');
    }
  }
}

/**
 * Puts an accepted order to the book: fills, rests or ends, and settles its reservation. False
 * when it is a post-only order that would have taken liquidity (rejected, nothing rests).
 */
function match(ctx: ApplyContext, runtime: MarketRuntime, order: EngineOrder, announceAs: 'PLACEMENT' | 'UPDATE'): boolean {
  const { state, effects } = ctx;
  const trips: MmpSetting[] = [];
  const result = runtime.book.submit(bookOrderOf(order), ctx.nowSec, state.safety.mmp.size > 0 ? (fill) => countMmpFill(ctx, runtime, fill, trips) : undefined);
  effects.touchedMarkets.add(runtime.info.id);
  for (const gone of result.expired) closeOpenOrder(ctx, gone.id, 'EXPIRED');
  for (const gone of result.cancelledOwn) closeOpenOrder(ctx, gone.id);
  if (result.rejectReason === 'POST_ONLY_WOULD_CROSS') {
    // A speed-bumped order is open while it waits: rejected on its release, it is no longer.
    state.open.delete(order.id);
    releaseRemaining(ctx, order);
    order.status = 'REJECTED';
    effects.orderChanged(order);
    return false;
  }
  for (const [index, fill] of result.fills.entries()) recordFill(ctx, runtime, fill, order, index);
  for (const trip of trips) cancelTripped(ctx, trip);
  order.status = result.status;
  effects.orderChanged(order);
  if (result.rested) {
    state.open.set(order.id, order);
  } else {
    state.open.delete(order.id);
    releaseRemaining(ctx, order);
  }
  announceOrder(ctx, order, announceAs);
  return true;
}

function recordFill(ctx: ApplyContext, runtime: MarketRuntime, fill: Fill, taker: EngineOrder, fillIndex: number): void {
  const { state, effects } = ctx;
  const maker = state.open.get(fill.maker.orderId);
  if (!maker) throw new Error(`resting order ${fill.maker.orderId} is not open in the engine`);
  for (const [order, party] of [[maker, fill.maker], [taker, fill.taker]] as const) {
    if (party.side === 'BUY') {
      const release = buyReleaseOnFill(termsOf(order), remainingOf(order), fill.sizeBaseUnits, party.priceMicros, party.feeBaseUnits);
      if (release > 0n) state.balances.release(order.account, COLLATERAL, release);
    }
    order.matchedBaseUnits += fill.sizeBaseUnits;
  }
  maker.status = maker.matchedBaseUnits === maker.sizeBaseUnits ? 'EXECUTED' : 'EXECUTING';
  if (maker.status === 'EXECUTED') state.open.delete(maker.id);
  effects.orderChanged(maker);
  announceOrder(ctx, maker, 'UPDATE');

  const trade: EngineTrade = {
    id: ctx.ids.next('trade'),
    seq: state.nextTradeSeq++,
    marketId: runtime.info.id,
    kind: fill.kind,
    sizeBaseUnits: fill.sizeBaseUnits,
    notionalBaseUnits: costBaseUnits(fill.taker.priceMicros, fill.sizeBaseUnits),
    taker: partyOf(taker, fill.taker),
    maker: partyOf(maker, fill.maker),
    matchedAtMs: ctx.atMs,
    ...(ctx.wholeMatches ? {} : matchPartOf(fillIndex)),
    status: 'MATCHED',
    txHash: null,
    minedAtMs: null,
    confirmedAtMs: null,
  };
  state.unsettled.set(trade.id, trade);
  effects.tradeChanged(trade);
  effects.announcements.tradeUpdates.push({ ...trade });
  recordLastTrade(ctx, runtime.info, taker, fill.taker.priceMicros);
}

/**
 * MMP, inside matching (EXTENSIONS.md section 15): a fill of a resting order counts against its
 * key's settings; a setting it trips freezes the key's scope, and the key's other resting orders
 * in this book leave it before the taker goes on, so no later fill of this sweep, or of any later
 * command, reaches them. Only resting (maker) fills count: MMP guards quotes, not what a key takes.
 */
function countMmpFill(ctx: ApplyContext, runtime: MarketRuntime, fill: Fill, trips: MmpSetting[]): string[] | undefined {
  const maker = ctx.state.open.get(fill.maker.orderId);
  if (!maker?.apiKey) return undefined;
  const tripped = ctx.state.safety.countFill(maker.apiKey, runtime.info, { atMs: ctx.atMs, sizeBaseUnits: fill.sizeBaseUnits, notionalBaseUnits: costBaseUnits(fill.maker.priceMicros, fill.sizeBaseUnits) });
  if (tripped.length === 0) return undefined;
  trips.push(...tripped);
  return [...ctx.state.open.values()].filter((o) => o.apiKey === maker.apiKey && o.marketId === runtime.info.id && o.delayedUntilMs === null).map((o) => o.id);
}

/** A tripped setting: the key's open orders in its scope are cancelled in this record, and its owner told. */
function cancelTripped(ctx: ApplyContext, trip: MmpSetting): void {
  cancelOrdersOfKey(ctx, trip.apiKey, (order) => covers(trip.scope, ctx.state.markets.get(order.marketId)!), 'MMP_TRIGGERED');
  ctx.effects.safetyChanged = true;
  ctx.effects.announcements.mmpTrips.push({ userId: trip.userId, apiKey: trip.apiKey, scope: trip.scope, trippedAtMs: ctx.atMs, frozenUntilMs: trip.frozenUntilMs });
}

function partyOf(order: EngineOrder, party: Fill['taker']): TradeParty {
  return { orderId: order.id, userId: order.userId, account: order.account, tokenId: order.tokenId, side: order.side, priceMicros: party.priceMicros, feeBaseUnits: party.feeBaseUnits };
}

/** Last trade price of both tokens: the taker's price and side, and their mirror on the other token. */
function recordLastTrade(ctx: ApplyContext, info: MarketTradingInfo, taker: EngineOrder, priceMicros: number): void {
  const takerSide = taker.side === 'BUY' ? 'buy' : 'sell';
  const otherToken = taker.tokenId === info.tokenId1 ? info.tokenId2 : info.tokenId1;
  const prints = [
    { assetId: taker.tokenId, price: formatPrice(priceMicros), side: takerSide },
    { assetId: otherToken, price: formatPrice(complementPrice(priceMicros)), side: takerSide === 'buy' ? 'sell' : 'buy' },
  ] as const;
  for (const print of prints) {
    ctx.effects.lastTradeTouched(print.assetId, ctx.state.lastTrade.get(print.assetId));
    ctx.state.lastTrade.set(print.assetId, { price: print.price, side: print.side });
    ctx.effects.announcements.lastTrades.push({ marketId: info.id, ...print });
  }
}

/** Cancels an open order (by its owner, by self-trade prevention, or by the exchange for `reason`) and frees its reservation. */
export function closeOpenOrder(ctx: ApplyContext, orderId: string, reason?: CancelReason): void {
  const order = ctx.state.open.get(orderId);
  if (!order) throw new Error(`order ${orderId} is not open`);
  const runtime = ctx.state.runtimes.get(order.marketId);
  if (runtime) {
    if (order.delayedUntilMs !== null) runtime.delayed = runtime.delayed.filter((d) => d.orderId !== orderId);
    else if (runtime.book.cancel(orderId)) ctx.effects.touchedMarkets.add(order.marketId);
  }
  recordCancelled(ctx, order, reason);
}

/** An open order leaves the engine CANCELLED: its reservation freed, the change recorded and announced. */
function recordCancelled(ctx: ApplyContext, order: EngineOrder, reason: CancelReason | undefined): void {
  ctx.state.open.delete(order.id);
  releaseRemaining(ctx, order);
  order.status = 'CANCELLED';
  order.delayedUntilMs = null;
  ctx.effects.orderChanged(order);
  announceOrder(ctx, order, 'CANCELLATION', reason);
}

function releaseRemaining(ctx: ApplyContext, order: EngineOrder): void {
  const amount = reservationFor(termsOf(order), remainingOf(order));
  if (amount === 0n) return;
  ctx.state.balances.release(order.account, order.side === 'BUY' ? COLLATERAL : order.tokenId, amount);
}

function newOrder(ctx: ApplyContext, request: NewOrder, info: MarketTradingInfo, unsigned: true | undefined): EngineOrder {
  const { order } = request;
  return {
    id: ctx.ids.next('order'),
    userId: request.userId,
    account: request.account,
    apiKey: request.apiKey,
    marketId: info.id,
    tokenId: order.tokenId,
    outcome: order.outcome,
    side: order.side,
    type: order.orderType,
    postOnly: order.postOnly,
    priceMicros: order.priceMicros,
    sizeBaseUnits: order.sizeBaseUnits,
    expirationSec: order.expirationSec,
    takerFeeBps: order.feeRateBps,
    makerFeeBps: request.makerFee === 'uncapped' ? info.passiveOrderFeeRateBps : Math.min(info.passiveOrderFeeRateBps, order.feeRateBps),
    bookSeq: 0n, // placed in the acceptance order once accepted (placeOrder)
    createdAtMs: ctx.atMs,
    matchedBaseUnits: 0n,
    status: 'PENDING',
    delayedUntilMs: null,
    updatedAtMs: ctx.atMs,
    unsigned,
    signed: {
      salt: order.salt.toString(),
      maker: order.maker,
      signer: order.signer,
      taker: order.taker,
      makerAmount: order.makerAmount.toString(),
      takerAmount: order.takerAmount.toString(),
      nonce: order.nonce.toString(),
      signatureType: order.signatureType,
      signature: order.signature,
      hash: request.hash,
      idempotencyKey: request.idempotencyKey,
    },
  };
}

/** The order's update as it stands now, sent once the record is durable. */
function announceOrder(ctx: ApplyContext, order: EngineOrder, type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION', reason?: CancelReason): void {
  ctx.effects.announcements.orderUpdates.push({ order, type, status: order.status, matchedBaseUnits: order.matchedBaseUnits, ...(reason ? { reason } : {}) });
}

export function termsOf(order: EngineOrder): ReservationTerms {
  return { side: order.side, limitMicros: order.priceMicros, takerFeeBps: order.takerFeeBps, makerFeeBps: order.makerFeeBps };
}

function isTradable(info: MarketTradingInfo): boolean {
  return info.status === 'ACTIVE' && !info.isPaused && !info.isResolved;
}

function insufficientMessage(asset: string, needed: bigint, error: InsufficientBalanceError): string {
  const what = asset === COLLATERAL ? 'collateral' : `tokens of ${asset}`;
  return `available ${what} ${formatUnits(error.available)} is less than the ${formatUnits(needed)} this order must reserve`;
}
