import type { Clock } from '../clock.ts';
import type { RestingQuote } from '../core/rewards/index.ts';
import { COLLATERAL } from '../settlement/types.ts';
import type { Payout } from '../settlement/embedded/postings.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import type { BookPublisher } from './book-publisher.ts';
import { toOrderBook, type OrderBookResponse } from './book-view.ts';
import type { AccountBalances, EngineReads } from './engine-reads.ts';
import type { UnprojectedRecords } from './projection/unprojected-records.ts';
import type { EngineState } from './state/engine-state.ts';
import type { MmpSetting } from './state/maker-safety.ts';
import type { Approval } from './state/wallet-approvals.ts';
import type { LastTrade } from './state/types.ts';
import type { MarketTradingInfo } from './types.ts';

/** The engine's memory as its readers see it (EngineReads): the live books, balances, open orders and last trades. */
export class EngineReadModel implements EngineReads {
  constructor(
    private readonly state: () => EngineState,
    private readonly publisher: BookPublisher,
    private readonly clock: Clock,
    private readonly unprojected: UnprojectedRecords,
    /** Whether this node runs the engine (its publisher follows every book), rather than following the journal. */
    private readonly leading: () => boolean,
  ) {}

  marketForToken(tokenId: string): MarketTradingInfo | undefined {
    return this.state().runtimeOfToken(tokenId)?.runtime.info;
  }

  marketOfToken(tokenId: string): { info: MarketTradingInfo; outcome: 0 | 1 } | undefined {
    return this.state().marketOfTokenId(tokenId);
  }

  hasMarket(marketId: string): boolean {
    return this.state().runtimes.has(marketId);
  }

  /**
   * Leading, the book as the durable records left it (the publisher's): a record whose append is
   * in flight is not shown, as it could vanish, and the hash is one the socket feed reaches. A
   * standby's state holds only durable records: its live book is that.
   */
  orderBook(tokenId: string): OrderBookResponse | undefined {
    const found = this.state().runtimeOfToken(tokenId);
    if (!found) return undefined;
    if (this.leading()) return this.publisher.durableBook(found.runtime.info.id, found.outcome);
    const { runtime: { info, book }, outcome } = found;
    const levels = book.levels(outcome);
    return toOrderBook({ marketId: info.id, tokenId, tickSize: info.tickSize, timestampMs: this.clock.nowMs(), bids: levels.bids, asks: levels.asks });
  }

  /** A change waiting for its frame is published first (BookPublisher.snapshot), so the seq continues from it. */
  bookSnapshot(tokenId: string): (OrderBookResponse & { seq: number }) | undefined {
    const found = this.state().runtimeOfToken(tokenId);
    return found && this.publisher.snapshot(found.runtime.info.id, found.outcome);
  }

  /** As the durable records left it, like balances. */
  lastTradePrice(tokenId: string): LastTrade | undefined {
    const undurable = this.unprojected.lastTradeBeforeUndurable(tokenId);
    return undurable.changed ? undurable.lastTrade : this.state().lastTrade.get(tokenId);
  }

  /**
   * The account's balances as the journal holds them: rows a record not durable yet changed show
   * their value before it (README.md "What a reader sees"), so nothing is shown that could vanish.
   */
  balances(account: string): AccountBalances {
    const state = this.state();
    const rows = new Map([...state.balances.of(account)].map(([asset, row]) => [asset, { balance: row.balance, locked: row.locked }]));
    for (const [asset, before] of this.unprojected.balancesBeforeUndurable(account)) {
      if (before.balance === 0n && before.locked === 0n) rows.delete(asset);
      else rows.set(asset, before);
    }
    const view = (row: { balance: bigint; locked: bigint }) => ({ balance: row.balance, locked: row.locked, available: row.balance - row.locked });
    const tokens = [...rows].filter(([asset, row]) => asset !== COLLATERAL && row.balance > 0n).sort(([a], [b]) => (a < b ? -1 : 1));
    return { collateral: view(rows.get(COLLATERAL) ?? { balance: 0n, locked: 0n }), tokens: tokens.map(([tokenId, row]) => ({ tokenId, ...view(row) })) };
  }

  creditMade(idempotencyKey: string): boolean {
    return this.state().ledger.creditKeys.has(idempotencyKey);
  }

  onceTransaction(ref: string): string | undefined {
    return this.state().ledger.onceRefs.get(ref);
  }

  revokedApprovals(account: string): readonly Approval[] {
    return this.state().chainIndex.missingApprovals.of(account);
  }

  /** Speed-bumped orders are not in a book yet; one pass over the open orders for all markets. */
  restingOrdersByMarket(): Map<string, RestingQuote[]> {
    const state = this.state();
    const byMarket = new Map<string, RestingQuote[]>();
    for (const order of state.open.values()) {
      const resting = state.runtimes.get(order.marketId)?.book.get(order.id);
      if (!resting || resting.remainingBaseUnits <= 0n) continue;
      const list = byMarket.get(order.marketId) ?? [];
      list.push({ orderId: order.id, makerId: order.userId, outcome: resting.outcome, side: resting.side, priceMicros: resting.priceMicros, remainingBaseUnits: resting.remainingBaseUnits });
      byMarket.set(order.marketId, list);
    }
    return byMarket;
  }

  marketsWithOpenOrders(userId: string): string[] {
    const markets = new Set<string>();
    for (const order of this.state().open.values()) if (order.userId === userId) markets.add(order.marketId);
    return [...markets];
  }

  mmpSettings(apiKey: string): readonly MmpSetting[] {
    return this.state().safety.mmp.get(apiKey) ?? [];
  }

  outcomeLabelOf(row: Pick<OrderRow, 'market_id' | 'outcome_index'>): string {
    return this.state().outcomeLabelOf({ marketId: row.market_id, outcome: row.outcome_index as 0 | 1 });
  }

  market(marketId: string): MarketTradingInfo | undefined {
    return this.state().markets.get(marketId);
  }

  payoutOf(marketId: string): Payout | undefined {
    const state = this.state();
    const info = state.markets.get(marketId);
    return (info && state.ledger.markets.get(info.conditionId)?.payout) ?? undefined;
  }

  resolvedMarketIds(): string[] {
    return [...this.state().markets.values()].filter((m) => m.isResolved).map((m) => m.id);
  }

  tradesAwaitingChain(marketId: string): number {
    let count = 0;
    for (const trade of this.state().unsettled.values()) if (trade.marketId === marketId && trade.status === 'MATCHED') count += 1;
    return count;
  }

  dueQuestions(nowMs: number): string[] {
    const due: string[] = [];
    for (const [marketId, question] of this.state().questions) if (question.status === 'PROPOSED' && question.disputeEndsAtMs! <= nowMs) due.push(marketId);
    return due;
  }

  bookStats(): { books: number; levels: number; openOrders: number } {
    const state = this.state();
    return { books: state.runtimes.size, levels: this.publisher.levelCount(), openOrders: state.open.size };
  }
}
