import type { FillKind } from '../../core/book/types.ts';
import type { NormalizedOrder } from '../../core/orders/create-order-rules.ts';

/**
 * The engine's domain: what its state holds and its commands act on (DESIGN.md "engine/"). These
 * are not store rows: the projection (engine/projection/) turns them into rows, and the API shapes
 * come from those rows (engine/shapes.ts).
 */
export type OrderStatus = 'PENDING' | 'EXECUTING' | 'EXECUTED' | 'CANCELLED' | 'REJECTED';
export type TradeStatus = 'MATCHED' | 'MINED' | 'CONFIRMED' | 'FAILED';
export type Side = 'BUY' | 'SELL';

/** The signed fields of an order, which never change once accepted and which matching never reads. */
export interface SignedFields {
  salt: string;
  maker: string;
  signer: string;
  taker: string;
  makerAmount: string;
  takerAmount: string;
  nonce: string;
  signatureType: number;
  signature: string;
  hash: string;
  idempotencyKey: string | null;
}

/**
 * An order the engine holds: open (resting or speed-bumped) orders, and the orders a record closes
 * while it applies. `signed` is present on orders accepted since this process started; orders
 * restored from a snapshot carry only what matching and reservations need (a snapshot of a
 * million orders stays small), and their signed fields are read from the store, which has had
 * them since before the snapshot, when an announcement needs them.
 */
export interface EngineOrder {
  readonly id: string;
  readonly userId: string;
  /** The ledger account that reserves and settles for it (the owner's proxy wallet, lowercase). */
  readonly account: string;
  /** The API key that placed it (null: a sign-in session did): heartbeats, disconnects and MMP act on a key's orders. */
  readonly apiKey: string | null;
  readonly marketId: string;
  readonly tokenId: string;
  readonly outcome: 0 | 1;
  readonly side: Side;
  readonly type: 'GTC' | 'FOK' | 'FAK';
  readonly postOnly: boolean;
  /** Limit price on its own token, millionths. */
  readonly priceMicros: number;
  readonly sizeBaseUnits: bigint;
  /** Unix seconds; 0 never expires. */
  readonly expirationSec: number;
  /** The signed fee rate it pays as taker. */
  readonly takerFeeBps: number;
  /** The fee rate it pays as maker: the market's maker rate when it was accepted, at most its signed rate (`NewOrder.makerFee`). */
  readonly makerFeeBps: number;
  /**
   * Time priority: the order of entering the book (acceptance, or the end of a speed bump), so
   * that a book rebuilt in this order keeps every level's queue as it was.
   */
  bookSeq: bigint;
  readonly createdAtMs: number;
  matchedBaseUnits: bigint;
  status: OrderStatus;
  /** Set while a taker order waits out the market's speed bump (it is not in the book meanwhile). */
  delayedUntilMs: number | null;
  updatedAtMs: number;
  /**
   * Placed without a signature (EXTENSIONS.md section 11): it settles on the operator's word, which
   * the proxy wallet takes only while its owner leaves operator trading on (wallet-approvals.ts).
   */
  readonly unsigned?: true;
  signed?: SignedFields;
}

/** One side of a trade, as that party traded: its own order, token, side, price and fee. */
export interface TradeParty {
  orderId: string;
  userId: string;
  account: string;
  tokenId: string;
  side: Side;
  priceMicros: number;
  feeBaseUnits: bigint;
}

/** A fill between a taker and a resting maker, from its match to its settlement. */
export interface EngineTrade {
  readonly id: string;
  /** Match order across the exchange. */
  readonly seq: bigint;
  readonly marketId: string;
  readonly kind: FillKind;
  readonly sizeBaseUnits: bigint;
  /** The taker's notional, price × size. */
  readonly notionalBaseUnits: bigint;
  readonly taker: TradeParty;
  readonly maker: TradeParty;
  readonly matchedAtMs: number;
  /** Which part of its taker's match settles it, when not the first (match-parts.ts). */
  readonly matchPart?: number;
  status: TradeStatus;
  txHash: string | null;
  minedAtMs: number | null;
  confirmedAtMs: number | null;
  /**
   * Set once the ledger moved the trade's amounts (at its first MINED on a real chain), so a trade
   * a reorg took back to MATCHED is not moved twice when it is mined again. Absent on CHAIN=none,
   * whose rounds move and mine in one step.
   */
  inLedger?: true;
}

/** An order as CreateOrder accepted it (its rules and signature checked before the engine). */
export interface NewOrder {
  userId: string;
  account: string;
  /** The API key that signed the request (null: a sign-in session). */
  apiKey: string | null;
  marketId: string;
  order: NormalizedOrder;
  /** Its EIP-712 hash: the order's identity, used once. */
  hash: string;
  idempotencyKey: string | null;
  /**
   * `uncapped` only on places of records before version 4 (journal/record-codec.ts): their orders
   * pay the market's maker rate as maker even above the rate they signed, as they were applied.
   * New ones pay at most their signed rate, as PmxExchange charges (contracts/exchange/Fees.sol).
   */
  makerFee?: 'uncapped';
}

export interface LastTrade {
  price: string;
  side: 'buy' | 'sell';
}

/** Why the exchange, not the owner, cancelled an order (EXTENSIONS.md section 15: `reason` of an order-update CANCELLATION). */
export type CancelReason = 'HEARTBEAT_EXPIRED' | 'DISCONNECTED' | 'MMP_TRIGGERED' | 'UNFUNDED' | 'MARKET_RESOLVED' | 'EXPIRED';
