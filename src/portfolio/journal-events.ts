import type { PositionEvent } from '../core/positions/position.ts';
import { redeemShares } from '../settlement/embedded/postings.ts';
import type { JournalTokenMove, TokenMarket, TradeTerms } from '../store/positions-repository.ts';

/** One position event of one holder's token, with where it came from. */
export interface KeyedPositionEvent {
  account: string;
  tokenId: string;
  marketId: string;
  outcomeIndex: 0 | 1;
  seq: bigint;
  at: Date;
  event: PositionEvent;
}

export interface JournalLookups {
  market(tokenId: string): TokenMarket | undefined;
  trade(tradeId: string): TradeTerms | undefined;
}

/**
 * The position events of one ledger transaction's token moves (all of one `seq`). A trade's
 * parties take their price and fee from the trade row, each its own as recorded (a MINT's or MERGE's
 * maker: the complementary price on the other token). A REDEEM burns both tokens for one rounded-down payout, split per token so the parts
 * sum to what was paid. Any other token movement (a plain transfer) moves tokens at price 0.
 */
export function journalEvents(moves: JournalTokenMove[], lookups: JournalLookups): KeyedPositionEvent[] {
  const out: KeyedPositionEvent[] = [];
  const first = moves[0];
  if (!first) return out;
  const trade = first.kind.startsWith('TRADE_') ? lookups.trade(first.ref) : undefined;
  for (const move of moves) {
    const market = lookups.market(move.tokenId);
    if (!market || move.amount === 0n) continue;
    const outcomeIndex: 0 | 1 = move.tokenId === market.tokenId1 ? 0 : 1;
    const event = eventOf(move, outcomeIndex, market, trade, moves);
    out.push({ account: move.account, tokenId: move.tokenId, marketId: market.marketId, outcomeIndex, seq: move.seq, at: move.createdAt, event });
  }
  return out;
}

function eventOf(move: JournalTokenMove, outcomeIndex: 0 | 1, market: TokenMarket, trade: TradeTerms | undefined, moves: JournalTokenMove[]): PositionEvent {
  const amount = move.amount < 0n ? -move.amount : move.amount;
  if (trade) {
    const taker = move.account === trade.takerWallet;
    const priceMicros = taker ? trade.priceMicros : trade.makerPriceMicros;
    const feeBaseUnits = taker ? trade.takerFee : trade.makerFee;
    return { type: move.amount > 0n ? 'BUY' : 'SELL', amount, priceMicros, feeBaseUnits };
  }
  if (move.kind === 'SPLIT' && move.amount > 0n) return { type: 'SPLIT', amount, outcomeIndex };
  if (move.kind === 'MERGE' && move.amount < 0n) return { type: 'MERGE', amount, outcomeIndex };
  if (move.kind === 'REDEEM' && move.amount < 0n && market.payout) return { type: 'REDEEM', amount, proceeds: redeemShare(move, outcomeIndex, market, moves) };
  return { type: move.amount > 0n ? 'BUY' : 'SELL', amount, priceMicros: 0n, feeBaseUnits: 0n };
}

/** This token's part of a redeem's payout, rounded down per token as the ledger pays it (redeemShares). */
function redeemShare(move: JournalTokenMove, outcomeIndex: 0 | 1, market: TokenMarket, moves: JournalTokenMove[]): bigint {
  const burned = (tokenId: string) => -moves.filter((m) => m.account === move.account && m.tokenId === tokenId).reduce((s, m) => s + m.amount, 0n);
  return redeemShares(market.payout!, burned(market.tokenId1), burned(market.tokenId2))[outcomeIndex];
}
