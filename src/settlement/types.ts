/**
 * The settlement ledger's vocabulary (DESIGN.md "Balances are a ledger"): assets, the errors of its
 * rules, and the shapes of what moves. Amounts are bigint base units (6 decimals). The ledger
 * itself is the engine's (src/engine/state/ledger.ts); its tables are a projection.
 */
import { formatUnits } from '../core/money.ts';

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
    // In display units, as the API takes amounts: base units read as a sum a thousand or a million times larger.
    super(`insufficient ${asset === COLLATERAL ? 'collateral' : `token ${asset}`} balance: ${formatUnits(available)} available, ${formatUnits(needed)} needed`);
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

/**
 * The ledger transaction kinds whose collateral entries count as credited: the credits, and value
 * the chain's indexer saw arrive from outside the exchange (`CHAIN_DEPOSIT`,
 * src/engine/state/chain-transfer-commands.ts). What the audit and a store's genesis add up.
 */
export const CREDITED_KINDS: readonly string[] = ['DEPOSIT', 'FAUCET', 'TREASURY_DEPOSIT', 'CHAIN_DEPOSIT'];

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
