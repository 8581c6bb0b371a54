import type { DomainEvents } from '../events/domain-events.ts';
import type { Settlement, TradeFill } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { confirmMinedTrades, findLatestTradePerMarket, findTradesByStatus, markTradesMined, type TradeRow } from '../store/trades-repository.ts';
import { complementPrice, formatPrice, unitsToNumber } from '../core/money.ts';
import { toTradeActivity } from '../market-data/trade-activity.ts';
import { findTradeActivity } from '../store/market-data-trades-repository.ts';
import type { Batch } from './batch.ts';
import type { MarketDirectory } from './market-directory.ts';
import { toTradeResponse } from './shapes.ts';
import type { MarketTradingInfo } from './types.ts';

const MINE_PER_ROUND = 500;
const CONFIRM_PER_ROUND = 2000;

interface RoundsOptions {
  settlement: Settlement;
  events: DomainEvents;
  markets: MarketDirectory;
  runtimeOf(marketId: string): MarketTradingInfo | undefined;
}

/**
 * Trade settlement as the embedded chain does it (EXTENSIONS.md section 8): each round is one
 * block. A round first confirms the trades mined by the previous round (CONFIRMED), then mines the
 * trades matched since (MINED with the ledger's txHash): their amounts move from the parties'
 * reservations to their new owners in the ledger, and the ledger seals them into a block. On
 * PGlite rounds run through the engine's queue; on PostgreSQL beside it, one at a time
 * (settlement-beside-queue.ts).
 */
export class SettlementRounds {
  private work = false;

  constructor(private readonly options: RoundsOptions) {}

  get hasWork(): boolean {
    return this.work;
  }

  noteMatched(): void {
    this.work = true;
  }

  /** After a (re)start: is anything left to settle, and what was each token's last trade. */
  async load(db: Db, lastTrade: Map<string, { price: string; side: 'buy' | 'sell' }>): Promise<void> {
    this.work = (await findTradesByStatus(db, 'MATCHED', 1)).length + (await findTradesByStatus(db, 'MINED', 1)).length > 0;
    lastTrade.clear();
    for (const trade of await findLatestTradePerMarket(db)) {
      const info = this.options.runtimeOf(trade.market_id);
      if (!info) continue;
      const price = Number(trade.price_micros);
      const side = trade.side === 0 ? 'buy' : 'sell';
      const other = trade.token_id === info.tokenId1 ? info.tokenId2 : info.tokenId1;
      lastTrade.set(trade.token_id, { price: formatPrice(price), side });
      lastTrade.set(other, { price: formatPrice(complementPrice(price)), side: side === 'buy' ? 'sell' : 'buy' });
    }
  }

  async run(tx: Db, batch: Batch): Promise<void> {
    // Trades matched from here on ask for another round: beside the queue, batches commit while a round runs.
    this.work = false;
    const confirmed = await confirmMinedTrades(tx, batch.now, CONFIRM_PER_ROUND);
    for (const trade of confirmed) this.announce(batch, trade);
    await this.announceActivity(tx, batch, confirmed.map((t) => t.id));

    const matched = await findTradesByStatus(tx, 'MATCHED', MINE_PER_ROUND);
    const fills = await Promise.all(matched.map((trade) => this.fillOf(trade)));
    const receipts = await this.options.settlement.settleTrades(tx, fills);
    const txHashOf = new Map(receipts.map((r) => [r.tradeId, r.txHash]));
    for (const trade of matched) this.announce(batch, { ...trade, status: 'MINED', tx_hash: txHashOf.get(trade.id) ?? null, mined_at: batch.now });
    await markTradesMined(tx, receipts.map((r) => ({ id: r.tradeId, txHash: r.txHash })), batch.now);
    // The block holds what this round mined (and any other ledger work since the last block); the
    // next round confirms it. Sealing in the round's own transaction spares a commit per block.
    await this.options.settlement.sealBlock(tx);
    if (matched.length > 0 || confirmed.length === CONFIRM_PER_ROUND) this.work = true;
  }

  private announce(batch: Batch, trade: TradeRow): void {
    batch.announce(this.options.events, 'trade-update', { userIds: [...new Set([trade.taker_user_id, trade.maker_user_id])], trade: toTradeResponse(trade) });
  }

  /** The public feed row of each confirmed trade; the realtime module applies the notional floor. */
  private async announceActivity(tx: Db, batch: Batch, ids: string[]): Promise<void> {
    for (const row of await findTradeActivity(tx, ids)) {
      batch.announce(this.options.events, 'trade-activity', { eventId: row.event_id, notionalUsd: unitsToNumber(row.notional_base_units), activity: toTradeActivity(row) });
    }
  }

  /** The ledger's view of a trade: both parties with their own token, side and price. */
  private async fillOf(trade: TradeRow): Promise<TradeFill> {
    const info = this.options.runtimeOf(trade.market_id) ?? (await this.options.markets.load(trade.market_id));
    if (!info) throw new Error(`trade ${trade.id} refers to unknown market ${trade.market_id}`);
    const sideOf = (side: number) => (side === 0 ? 'BUY' : 'SELL');
    return {
      tradeId: trade.id,
      kind: trade.kind,
      market: { conditionId: info.conditionId, tokenId1: info.tokenId1, tokenId2: info.tokenId2 },
      sizeBaseUnits: trade.size_base_units,
      taker: { account: trade.taker_wallet, side: sideOf(trade.side), tokenId: trade.token_id, priceMicros: Number(trade.price_micros), feeBaseUnits: trade.taker_fee_base_units },
      maker: { account: trade.maker_wallet, side: sideOf(trade.maker_side), tokenId: trade.maker_token_id, priceMicros: Number(trade.maker_price_micros), feeBaseUnits: trade.maker_fee_base_units },
    };
  }
}
