import type { RestingQuote } from '../core/rewards/index.ts';
import type { Payout } from '../settlement/embedded/postings.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import type { OrderBookResponse } from './book-view.ts';
import type { MmpSetting } from './state/maker-safety.ts';
import type { Approval } from './state/wallet-approvals.ts';
import type { LastTrade } from './state/types.ts';
import type { MarketTradingInfo } from './types.ts';

export interface BalanceView {
  balance: bigint;
  locked: bigint;
  /** balance − locked */
  available: bigint;
}

/** One account's balances: collateral, and each token it holds (balance above zero), by token id. */
export interface AccountBalances {
  collateral: BalanceView;
  tokens: (BalanceView & { tokenId: string })[];
}

/**
 * What the rest of the exchange reads of the engine's memory, and nothing it can change: the
 * modules that only read (book reads, balances, metrics, reward sampling, the order routes' shapes)
 * depend on this, not on the engine.
 */
export interface EngineReads {
  /** The tradable market of this token: every published market that has not resolved. */
  marketForToken(tokenId: string): MarketTradingInfo | undefined;
  /** Any published market of this token (resolved ones too), and which outcome the token is. */
  marketOfToken(tokenId: string): { info: MarketTradingInfo; outcome: 0 | 1 } | undefined;
  /** Whether a market trades: every published, unresolved market does. */
  hasMarket(marketId: string): boolean;
  /** The book of a token as durable records left it (read your writes: every acknowledged order is in it, and no order not yet durable). */
  orderBook(tokenId: string): OrderBookResponse | undefined;
  /** The published book with its seq, for real-time snapshots. */
  bookSnapshot(tokenId: string): (OrderBookResponse & { seq: number }) | undefined;
  /** As durable records left it. */
  lastTradePrice(tokenId: string): LastTrade | undefined;
  /** An account's balances, every durable change in them. */
  balances(account: string): AccountBalances;
  /** Whether the ledger made a credit with this idempotency key (a credit's ledger side, made once per key). */
  creditMade(idempotencyKey: string): boolean;
  /** The ledger transaction (its hash) that recorded this once-only reference (a withdrawal's nonce, its reversal, a claim), if one did. */
  onceTransaction(ref: string): string | undefined;
  /** The approvals the account's wallet revoked on chain (none without a chain): what its balances cannot be spent through. */
  revokedApprovals(account: string): readonly Approval[];
  /** Every order resting in a book, grouped by market, in its own token's terms (reward sampling). */
  restingOrdersByMarket(): Map<string, RestingQuote[]>;
  /** Markets where the user has open orders (resting or speed-bumped). */
  marketsWithOpenOrders(userId: string): string[];
  /** The outcome label of an order's token ("" for a market the engine does not know). */
  outcomeLabelOf(row: Pick<OrderRow, 'market_id' | 'outcome_index'>): string;
  /** A market the engine knows, by id (resolved ones too). */
  market(marketId: string): MarketTradingInfo | undefined;
  /** What a resolved market pays per token (the ledger's payout vector); undefined while it is not resolved. */
  payoutOf(marketId: string): Payout | undefined;
  /** The ids of every resolved market. */
  resolvedMarketIds(): string[];
  /**
   * The market's trades that settlement still has to send or see mined (MATCHED: on a chain, not
   * in a mined transaction yet, or taken back out by a reorg). Its resolution is reported on chain
   * only once there are none, as the exchange refuses a resolved market's fills.
   */
  tradesAwaitingChain(marketId: string): number;
  /** Markets whose undisputed proposal's window has ended by `nowMs`: their questions settle at the next oracle tick. */
  dueQuestions(nowMs: number): string[];
  /** The key's MMP settings (EXTENSIONS.md section 15), with their freezes, in scope order. */
  mmpSettings(apiKey: string): readonly MmpSetting[];
  /** Books held (one per market), their price levels as last published, and open orders. */
  bookStats(): { books: number; levels: number; openOrders: number };
}
