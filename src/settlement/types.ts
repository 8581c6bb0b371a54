import type { Db } from '../store/database.ts';
import type { LockChange } from '../store/ledger-balances-repository.ts';

/**
 * The settlement layer as the rest of the server sees it (DESIGN.md "Balances are a ledger").
 * Amounts are bigint base units (6 decimals). Every method takes the caller's transaction `tx`, so
 * the engine commits orders, fills and their ledger effects in one transaction; callers outside
 * the engine get theirs from `MoveBalances`.
 */
export const COLLATERAL = 'collateral';
/** `collateral`, or an outcome token's id (a uint256 as a decimal string). */
export type Asset = typeof COLLATERAL | string;

/** A lock or unlock of `amount` of an account's asset; `ref` names why (an order id, a bond). */
export interface Movement {
  account: string;
  asset: Asset;
  amount: bigint;
  ref: string;
}

/** The account's available balance (balance − locked) does not cover the operation; nothing changed. */
export class InsufficientBalanceError extends Error {
  constructor(
    readonly account: string,
    readonly asset: Asset,
    readonly available: bigint,
    readonly needed: bigint,
  ) {
    super(`insufficient ${asset === COLLATERAL ? 'collateral' : `token ${asset}`} balance: ${available} available, ${needed} needed`);
    this.name = 'InsufficientBalanceError';
  }
}

/**
 * A call that breaks the ledger's contract with its caller (releasing what was not locked, a trade
 * whose legs do not balance, redeeming an unresolved market): a bug above the ledger, never user input.
 */
export class LedgerStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerStateError';
  }
}

/** A binary market's identity on the settlement layer. */
export interface MarketTokens {
  conditionId: string;
  tokenId1: string;
  tokenId2: string;
}

export interface PartyFill {
  account: string;
  side: 'BUY' | 'SELL';
  tokenId: string;
  /** This party's price for its own token, in millionths. */
  priceMicros: number;
  feeBaseUnits: bigint;
}

export interface TradeFill {
  tradeId: string;
  kind: 'TRANSFER' | 'MINT' | 'MERGE';
  market: MarketTokens;
  sizeBaseUnits: bigint;
  taker: PartyFill;
  maker: PartyFill;
}

/** Why collateral enters the exchange: the only operations that add value. */
export type CreditReason = 'DEPOSIT' | 'FAUCET' | 'TREASURY_DEPOSIT';

export interface Credit {
  account: string;
  amount: bigint;
  reason: CreditReason;
  ref: string;
}

export interface Transfer {
  from: string;
  to: string;
  asset: Asset;
  amount: bigint;
  /** Recorded as the transaction's kind, e.g. BOND_PAYOUT or REWARD. */
  kind: string;
  ref: string;
}

export interface SplitOrMerge {
  account: string;
  market: MarketTokens;
  amount: bigint;
  ref: string;
}

export type ResolutionOutcome = 'YES' | 'NO' | 'TIE';

/** A recorded ledger transaction: its hash identifies it (and its block, once sealed). */
export interface LedgerReceipt {
  txHash: string;
}

export interface RedeemReceipt extends LedgerReceipt {
  /** Tokens burned of outcome 1 and outcome 2. */
  burned: [bigint, bigint];
  payoutBaseUnits: bigint;
}

/** One ledger transaction redeeming several markets; markets where nothing was held are left out. */
export interface BatchRedeemReceipt extends LedgerReceipt {
  markets: Array<{ conditionId: string; burned: [bigint, bigint]; payoutBaseUnits: bigint }>;
}

/** One ledger transaction merging several markets; markets where nothing could merge are left out. */
export interface BatchMergeReceipt extends LedgerReceipt {
  markets: Array<{ conditionId: string; amount: bigint }>;
}

export interface BalanceRow {
  balance: bigint;
  locked: bigint;
  /** balance − locked */
  available: bigint;
}

export interface AccountBalances {
  collateral: BalanceRow;
  /** One row per token with a non-zero balance, by tokenId. */
  tokens: Array<BalanceRow & { tokenId: string }>;
}

export interface SealedBlock {
  number: bigint;
  hash: string;
  parentHash: string;
  /** The transactions the block confirms, in sequence order. */
  txHashes: string[];
}

/**
 * The reservations of one engine batch: reserve and release in memory, written by `flush` in one
 * statement inside the caller's transaction. Released amounts can be reserved again at once.
 */
export interface LockSession {
  /** available −= amount, locked += amount; throws InsufficientBalanceError. */
  reserve(m: Movement): void;
  /** locked −= amount. */
  release(m: Movement): void;
  /** Writes every change since the last flush. */
  flush(): Promise<void>;
  /**
   * The changes since the last flush, one per balance row, taken as written: the caller writes
   * them in the same transaction (the engine's batch writes them with its orders and trades).
   */
  takeChanges(): LockChange[];
}

/**
 * Runs work that moves balances (credits, transfers, splits, merges, redemptions, bond locks) in
 * the matching engine's queue, inside one of its batch transactions (MatchingEngine.moveBalances):
 * the engine's node is the only writer of balances, so what the engine reserves from never changes
 * under it. The work's changes commit with the batch, or none of them do and it throws.
 */
export type MoveBalances = <T>(work: (tx: Db) => Promise<T>) => Promise<T>;

/**
 * Balance rows a lock session may keep for the next one (`Settlement.heldBalances`). Only a sole
 * writer of balances may hold them (the engine), and it must `forget` them whenever balances move
 * any other way (in SQL: settlement rounds, ledger work) and whenever a transaction that flushed a
 * session failed.
 */
export interface HeldBalances {
  forget(): void;
}

/** Changes of `locked` that are durable elsewhere (the engine's journal) and not in the balance table yet. */
export interface UnprojectedLocks {
  /** Resolves once the table may be read: no write of those changes into it is on its way. */
  settled(): Promise<void>;
  /** The change of a row's `locked` the table does not have (read after `settled`). */
  locked(key: { account: string; asset: string }): bigint;
}

export interface Settlement {
  readonly kind: 'embedded';
  /** Adds collateral from outside (admin deposit, faucet, treasury deposit). */
  credit(tx: Db, credit: Credit): Promise<LedgerReceipt & { balance: bigint }>;
  /** available −= amount, locked += amount; throws InsufficientBalanceError. One SQL statement; no journal entry. */
  reserve(tx: Db, m: Movement): Promise<void>;
  /** locked −= amount; throws LedgerStateError when less than that is locked. One SQL statement; no journal entry. */
  release(tx: Db, m: Movement): Promise<void>;
  /**
   * Locks and reads the balances of `keys` (the accounts and assets that will reserve) for a batch
   * of reservations and releases written together; see LockSession. Rows in `held` are not read
   * again, and the session keeps them current. `unprojected` gives the change of `locked` that
   * the engine's journal holds and the table does not have yet (src/engine/README.md, "The
   * journal"), added to every row read.
   */
  openLockSession(tx: Db, keys: { account: string; asset: Asset }[], held?: HeldBalances, unprojected?: UnprojectedLocks): Promise<LockSession>;
  /** An empty set of held balance rows, for a sole writer's lock sessions. */
  heldBalances(): HeldBalances;
  /** Moves available balance between accounts; throws InsufficientBalanceError. */
  transfer(tx: Db, t: Transfer): Promise<LedgerReceipt>;
  /** Collateral → `amount` of both outcome tokens, the collateral held in the market's lock. */
  split(tx: Db, s: SplitOrMerge): Promise<LedgerReceipt>;
  /** `amount` of both outcome tokens → collateral out of the market's lock. */
  merge(tx: Db, s: SplitOrMerge): Promise<LedgerReceipt>;
  /**
   * Merges as much as each market allows: the smaller of the account's two available token balances,
   * so tokens that open orders reserve never move. One ledger transaction (one txHash) for all;
   * markets with nothing to merge are left out; null when none had any.
   */
  mergeBatch(tx: Db, r: { account: string; markets: MarketTokens[]; ref: string }): Promise<BatchMergeReceipt | null>;
  /** Registers a market's token pair (idempotent); split, merge and trades register on first use too. */
  registerMarket(tx: Db, market: MarketTokens): Promise<void>;
  /** Records the payout vector: YES [1, 0], NO [0, 1], TIE [1/2, 1/2]. Once only. */
  resolveMarket(tx: Db, market: MarketTokens, outcome: ResolutionOutcome): Promise<void>;
  /** Burns the account's available tokens of a resolved market and pays them out; null when it holds none. */
  redeem(tx: Db, r: { account: string; market: MarketTokens; ref: string }): Promise<RedeemReceipt | null>;
  /** Like `redeem` for several resolved markets at once, as one ledger transaction; null when none held anything. */
  redeemBatch(tx: Db, r: { account: string; markets: MarketTokens[]; ref: string }): Promise<BatchRedeemReceipt | null>;
  /** One ledger transaction per fill, written in a few batched statements. */
  settleTrades(tx: Db, fills: TradeFill[]): Promise<{ tradeId: string; txHash: string }[]>;
  balances(db: Db, account: string): Promise<AccountBalances>;
  /**
   * Seals every unsealed transaction (up to a bound) into the next block, in the caller's
   * transaction (a settlement round's: its trades' postings go into the block it seals); null
   * when there are none.
   */
  sealBlock(tx: Db): Promise<SealedBlock | null>;
}
