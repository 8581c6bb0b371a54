import { checkCreateOrder, tokenIdViolation, type CreateOrderInput, type NormalizedOrder, type OrderMarket } from '../core/orders/create-order-rules.ts';
import { orderStructOf } from '../core/orders/eip712-order.ts';
import type { TickSize } from '../core/orders/order-price.ts';
import { AppError, type ErrorCode, type OrderRuleCode } from '../contract/errors.ts';
import type { Caller } from '../identity/caller.ts';
import type { MatchingEngine } from '../engine/engine.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { EngineUnavailableError } from '../engine/queue-full-error.ts';
import type { SignatureVerifier } from '../engine/signatures/signature-verifier.ts';
import type { MarketTradingInfo } from '../engine/types.ts';
import type { OrderRow } from '../store/orders-repository.ts';

type Hex = `0x${string}`;

export interface OrderEntryDeps {
  engine: MatchingEngine;
  verifier: SignatureVerifier;
  hashOrder(order: ReturnType<typeof orderStructOf>, negRisk: boolean): Hex;
  nowSec(): number;
  /** Where each decision is announced ('order-decided'), for the exchange metrics. */
  events: DomainEvents;
}

export interface CreateOrderRequest extends CreateOrderInput {
  readonly idempotencyKey?: string | undefined;
}

/**
 * The outcome of one CreateOrder: the order, or the catalogued error it was refused with; `seq` is
 * the journal record that made it durable (absent when it never reached the engine).
 */
export type EntryOutcome = ({ ok: true; order: OrderRow } | { ok: false; error: AppError }) & { seq?: bigint };

/**
 * Order entry (SPEC.md 4.4 POST /orders and /orders/batch): the CreateOrder rules, the EIP-712
 * hash, the signature check off the event loop, then the engine. Every refusal is data here so a
 * batch can report it per item; the single-order route throws it.
 */
export class OrderEntry {
  constructor(private readonly deps: OrderEntryDeps) {}

  async submit(caller: Caller, request: CreateOrderRequest): Promise<EntryOutcome> {
    // An unsigned order reaches the engine's queue in this call's synchronous part: nothing to wait for.
    const checked = this.check(caller, request);
    return this.decided(this.place(checked.ok && checked.order.signature !== '' ? await this.verified(checked) : checked));
  }

  /**
   * Orders of one batch go to the engine together, so they share one group commit, and in
   * request order: their signatures are checked side by side, then every order that passed is
   * handed to the engine before any is answered, so which of them fill, rest or are refused never
   * depends on whose signature check ended first. A batch that cannot reach the engine at all is
   * one 503 (EXTENSIONS.md section 12), not a list of failures.
   */
  async submitBatch(caller: Caller, requests: CreateOrderRequest[]): Promise<EntryOutcome[]> {
    if (!this.deps.engine.takesCommands) throw new EngineUnavailableError();
    const checked = await Promise.all(requests.map(async (request) => {
      try {
        const item = this.check(caller, request);
        return item.ok && item.order.signature !== '' ? await this.verified(item) : item;
      } catch (error) {
        return failed(error);
      }
    }));
    const outcomes = await Promise.all(checked.map((item) => this.decided(this.place(item).catch(failed))));
    const lostEngine = outcomes.map((outcome) => (!outcome.ok && outcome.error instanceof EngineUnavailableError ? outcome.error : undefined));
    if (lostEngine.length > 0 && lostEngine.every((error) => error !== undefined)) throw lostEngine[0];
    return outcomes;
  }

  private async decided(outcome: Promise<EntryOutcome>): Promise<EntryOutcome> {
    const settled = await outcome;
    this.deps.events.publish('order-decided', settled.ok ? { accepted: true, code: null } : { accepted: false, code: settled.error.code });
    return settled;
  }

  /** The CreateOrder rules and the EIP-712 hash: an order ready for its signature check, or its refusal. */
  private check(caller: Caller, request: CreateOrderRequest): CheckedOrder | Refusal {
    // A node without the engine has no markets loaded: it must say 503, not "market not tradable".
    if (!this.deps.engine.takesCommands) throw new EngineUnavailableError();
    const badTokenId = tokenIdViolation(request.tokenId);
    if (badTokenId) return refused(badTokenId.code, badTokenId.message);
    const market = this.deps.engine.reads.marketForToken(request.tokenId);
    if (!market) return refused('MARKET_NOT_TRADABLE', `no tradable market has token ${request.tokenId} (unknown, not published, or resolved)`);
    const checked = checkCreateOrder(request, orderMarketOf(market), caller, this.deps.nowSec());
    if (!checked.ok) return refused(checked.violation.code, checked.violation.message);
    const order = checked.order;
    const hash = this.deps.hashOrder(orderStructOf(order), market.negRisk);
    return { ok: true, caller, marketId: market.id, order, hash, idempotencyKey: request.idempotencyKey ?? null };
  }

  /** A signed order whose signature recovers to its signer, off the event loop; else its refusal. */
  private async verified(checked: CheckedOrder): Promise<CheckedOrder | Refusal> {
    const { order, hash } = checked;
    if (order.signature === '' || (await this.deps.verifier.verify(hash, order.signature, order.signer))) return checked;
    return refused('INVALID_SIGNATURE', `the signature does not recover to the signer ${order.signer} for order hash ${hash}`);
  }

  /** Hands a checked order to the engine; its queue takes it before this returns a promise. */
  private async place(checked: CheckedOrder | Refusal): Promise<EntryOutcome> {
    if (!checked.ok) return checked;
    const { caller, marketId, order, hash, idempotencyKey } = checked;
    const placed = await this.deps.engine.place({
      userId: caller.userId,
      // Every order settles from the proxy wallet, an EOA-signed one (type 0) too (contracts/README.md "Signature types").
      account: caller.proxyWallet.toLowerCase(),
      apiKey: caller.apiKey ?? null,
      marketId,
      order,
      hash,
      idempotencyKey,
    });
    return placed.ok ? { ok: true, order: placed.order, seq: placed.seq } : { ...refused(placed.code, placed.message), seq: placed.seq };
  }
}

/** An order that passed every check before the engine. */
interface CheckedOrder {
  ok: true;
  caller: Caller;
  marketId: string;
  order: NormalizedOrder;
  hash: Hex;
  idempotencyKey: string | null;
}

type Refusal = Extract<EntryOutcome, { ok: false }>;

function orderMarketOf(info: MarketTradingInfo): OrderMarket {
  return {
    id: info.id,
    status: info.status,
    isPaused: info.isPaused,
    isResolved: info.isResolved,
    tokenId1: info.tokenId1,
    tokenId2: info.tokenId2,
    tickSize: info.tickSize as TickSize,
    orderFeeRateBps: info.orderFeeRateBps,
    passiveOrderFeeRateBps: info.passiveOrderFeeRateBps,
    negRisk: info.negRisk,
  };
}

const refused = (code: string, message: string): Refusal => ({ ok: false, error: new AppError(code as ErrorCode | OrderRuleCode, message) });

/** A batch item that threw (a full queue, a failed commit) fails alone; AppErrors keep their code. */
function failed(error: unknown): Refusal {
  if (error instanceof AppError) return { ok: false, error };
  return refused('SERVICE_UNAVAILABLE', 'the order could not be processed; retry');
}
