import { tradePosting } from '../../settlement/embedded/postings.ts';
import type { TradeFill } from '../../settlement/types.ts';
import type { ApplyContext } from './apply-context.ts';
import { tokensOf } from './balance-commands.ts';
import type { EngineTrade, TradeParty } from './types.ts';

/** Trades mined in one settlement round at most; the rest wait for the next. */
const MINE_PER_ROUND = 500;
/** Trades confirmed in one round at most. */
const CONFIRM_PER_ROUND = 2000;

/**
 * One round of the simulated chain (CHAIN=none, EXTENSIONS.md section 8), one block: the trades
 * mined by the previous round are CONFIRMED, then the trades matched since are MINED, each a
 * ledger transaction moving its amounts from the parties' reservations to their new owners, and
 * the ledger seals them into a block. Returns whether another round has work.
 */
export function settleRound(ctx: ApplyContext): { moreWork: boolean } {
  const { state } = ctx;
  const mined: EngineTrade[] = [];
  const matched: EngineTrade[] = [];
  for (const trade of state.unsettled.values()) {
    if (trade.status === 'MINED' && mined.length < CONFIRM_PER_ROUND) mined.push(trade);
    else if (trade.status === 'MATCHED' && matched.length < MINE_PER_ROUND) matched.push(trade);
  }
  for (const trade of mined) {
    trade.status = 'CONFIRMED';
    trade.confirmedAtMs = ctx.atMs;
    state.unsettled.delete(trade.id);
    announceTrade(ctx, trade);
  }
  const hashes = state.ledger.record(matched.map((trade) => tradePosting(fillOf(ctx, trade))), ctx.atMs);
  matched.forEach((trade, i) => {
    trade.status = 'MINED';
    trade.txHash = hashes[i]!;
    trade.minedAtMs = ctx.atMs;
    announceTrade(ctx, trade);
  });
  state.ledger.seal(ctx.atMs);
  // What was mined here is confirmed by the next round; what did not fit waits for it too.
  return { moreWork: state.unsettled.size > 0 };
}

export function announceTrade(ctx: ApplyContext, trade: EngineTrade): void {
  ctx.effects.tradeChanged(trade);
  ctx.effects.announcements.tradeUpdates.push({ ...trade });
}

/** The ledger's view of a trade: both parties with their own token, side and price. */
export function fillOf(ctx: ApplyContext, trade: EngineTrade): TradeFill {
  const info = ctx.state.markets.get(trade.marketId);
  if (!info) throw new Error(`trade ${trade.id} refers to unknown market ${trade.marketId}`);
  const market = tokensOf(info);
  if (trade.kind !== 'TRANSFER') ctx.state.ledger.register(market);
  const party = (p: TradeParty) => ({ account: p.account, side: p.side, tokenId: p.tokenId, priceMicros: p.priceMicros, feeBaseUnits: p.feeBaseUnits });
  return { tradeId: trade.id, kind: trade.kind, market, sizeBaseUnits: trade.sizeBaseUnits, taker: party(trade.taker), maker: party(trade.maker) };
}
