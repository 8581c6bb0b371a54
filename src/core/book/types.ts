/**
 * The matching core's vocabulary. One book per market, priced in the terms of the market's first
 * token (outcome 0): BUY outcome 0 at p is a bid at p, SELL outcome 0 at p an ask at p, BUY
 * outcome 1 at q an ask at 1e6 − q, SELL outcome 1 at q a bid at 1e6 − q (DESIGN.md "One book per
 * market, two views"). Prices are integer millionths of collateral, sizes bigint token base units.
 */
export type BookSide = 'BUY' | 'SELL';

export interface IncomingOrder {
  id: string;
  ownerId: string;
  outcome: 0 | 1;
  side: BookSide;
  /** Limit price on the order's own token, millionths, strictly between 0 and 1e6. */
  priceMicros: number;
  /** Size still to trade. */
  sizeBaseUnits: bigint;
  type: 'GTC' | 'FOK' | 'FAK';
  postOnly: boolean;
  /** Unix seconds; 0 never expires. */
  expirationSec: number;
  takerFeeBps: number;
  makerFeeBps: number;
}

/** A resting order as restore() takes it back after a restart. */
export interface RestingOrderInit extends IncomingOrder {
  remainingBaseUnits: bigint;
}

/**
 * A resting order as get() shows it. `sizeBaseUnits` is the size it arrived with (what submit()
 * or restore() was given); `remainingBaseUnits` what still rests.
 */
export type RestingOrder = RestingOrderInit;

export interface FillParty {
  orderId: string;
  ownerId: string;
  outcome: 0 | 1;
  side: BookSide;
  /** Execution price on this party's own token. */
  priceMicros: number;
  /** This party's fee on this fill. */
  feeBaseUnits: bigint;
}

/**
 * TRANSFER: the two parties trade the same token on opposite sides. MINT: both buy (different
 * tokens), so their collateral becomes a complete set. MERGE: both sell, a complete set becomes
 * collateral.
 */
export type FillKind = 'TRANSFER' | 'MINT' | 'MERGE';

export interface Fill {
  kind: FillKind;
  sizeBaseUnits: bigint;
  maker: FillParty;
  taker: FillParty;
}

export type SubmitStatus = 'PENDING' | 'EXECUTING' | 'EXECUTED' | 'CANCELLED' | 'REJECTED';

export interface SubmitResult {
  fills: Fill[];
  /** Status of the incoming order (SPEC.md section 3, EXTENSIONS.md section 11). */
  status: SubmitStatus;
  /** Its remainder now rests in the book. */
  rested: boolean;
  /** Present exactly when status is REJECTED; then nothing changed. */
  rejectReason?: 'POST_ONLY_WOULD_CROSS';
  /** Resting orders found expired while matching, removed from the book. */
  expired: { id: string }[];
  /** The caller's own resting orders removed by self-trade prevention. */
  cancelledOwn: { id: string }[];
}

/** One aggregated price level of one token's view, in that token's terms (same shape as engine/book-view.ts LevelView). */
export interface BookLevel {
  priceMicros: number;
  sizeBaseUnits: bigint;
  orderCount: number;
}

export interface BookLevels {
  /** Best (highest) first. */
  bids: BookLevel[];
  /** Best (lowest) first. */
  asks: BookLevel[];
}
