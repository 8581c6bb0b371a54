import { costBaseUnits } from '../../core/orders/reservation.ts';
import { tradePosting } from '../../settlement/embedded/postings.ts';
import { recordKey, type RecordChange, type TxRecord } from '../../settlement/chain/sender/index.ts';
import { COLLATERAL } from '../../settlement/types.ts';
import type { ApplyContext } from './apply-context.ts';
import type { EngineState } from './engine-state.ts';
import { closeOpenOrder } from './order-commands.ts';
import { announceTrade, fillOf } from './settlement-commands.ts';
import type { EngineTrade, TradeParty } from './types.ts';
import { tradesByMatch } from './match-parts.ts';

/**
 * Settlement on a real chain (CHAIN≠none, EXTENSIONS.md section 14) as commands: what the leader's
 * settlement senders persist before they broadcast, and what the chain did with each match. A
 * match is one taker order's trades (one `matchOrders` call), named by the taker order's id.
 */

/** A sender's live transaction: which sender (one per exchange contract and key) and its record, as the sender persisted it. */
export interface ChainTx {
  readonly sender: string;
  readonly record: TxRecord;
}

/**
 * A sender's change as journaled. A record's call (its calldata, tens of kilobytes for a batch of
 * matches, and its fill ids) never changes after its first `put`: a later change of the same record
 * (a new version, mined or unmined, dropped) leaves them out (`callHeld`) and takes them from the
 * record the state holds, which keeps a settled batch's journal to one copy of its calldata.
 */
export type ChainTxChange =
  | ({ readonly sender: string } & RecordChange)
  | { readonly sender: string; readonly kind: RecordChange['kind']; readonly record: Omit<TxRecord, 'data' | 'fillIds'>; readonly callHeld: true };

export type ChainFillEvent =
  | { readonly type: 'mined'; readonly matchId: string; readonly txHash: string; readonly blockNumber: number }
  | { readonly type: 'confirmed'; readonly matchId: string; readonly txHash: string }
  | { readonly type: 'reorged'; readonly matchId: string }
  /** `faultOrderIds`: the orders the revert names (their hash, or their maker's wallet); all of the match's when it names none. */
  | { readonly type: 'failed'; readonly matchId: string; readonly reason: string; readonly faultOrderIds: readonly string[] };

export const chainTxKey = (sender: string, record: Pick<TxRecord, 'nonce' | 'versions'>): string => `${sender}/${recordKey(record)}`;

/** The change to journal for a sender's `change`: without the call when the state already holds this record with it. */
export function journaledChainTxChange(state: EngineState, sender: string, change: RecordChange): ChainTxChange {
  const held = state.chainTxs.get(chainTxKey(sender, change.record))?.record;
  const { data, fillIds, ...rest } = change.record;
  const sameCall = held !== undefined && held.to === rest.to && held.data === data && held.fillIds.length === fillIds.length && held.fillIds.every((id, i) => id === fillIds[i]);
  return sameCall ? { sender, kind: change.kind, record: rest, callHeld: true } : { sender, ...change };
}

export function changeChainTx(ctx: ApplyContext, change: ChainTxChange): void {
  const key = chainTxKey(change.sender, change.record);
  if (change.kind === 'drop') ctx.state.chainTxs.delete(key);
  else ctx.state.chainTxs.set(key, { sender: change.sender, record: 'callHeld' in change ? withHeldCall(ctx, key, change.record) : change.record });
  ctx.effects.chainTxsChanged = true;
}

function withHeldCall(ctx: ApplyContext, key: string, record: Omit<TxRecord, 'data' | 'fillIds'>): TxRecord {
  const held = ctx.state.chainTxs.get(key)?.record;
  if (!held) throw new Error(`chain-tx ${key}: a change without its call for a record the state does not hold`);
  // TxRecord's own field order: the snapshot's text, and so the state hash, is the same as with the whole record journaled.
  return { nonce: record.nonce, fillIds: held.fillIds, to: record.to, data: held.data, gas: record.gas, versions: record.versions, mined: record.mined };
}

/**
 * Applies what the chain did, in order. A trade's amounts move in the ledger at its first MINED
 * (from the parties' reservations to their new owners, as a simulated round does); a reorg only
 * takes its status back. A FAILED trade's reservations return to both parties and the orders at
 * fault are cancelled (`UNFUNDED`: their wallet cannot settle them). Events about trades no longer
 * in that state (a resumed sender repeats what it reported before a restart) change nothing.
 */
export function applyChainFills(ctx: ApplyContext, events: readonly ChainFillEvent[]): void {
  const matches = tradesByMatch(ctx.state.unsettled.values());
  let moved = false;
  for (const event of events) {
    const trades = matches.get(event.matchId) ?? [];
    switch (event.type) {
      case 'mined':
        for (const trade of trades.filter((t) => t.status === 'MATCHED')) {
          if (!trade.inLedger) {
            ctx.state.ledger.record([tradePosting(fillOf(ctx, trade))], ctx.atMs);
            trade.inLedger = true;
            moved = true;
          }
          trade.status = 'MINED';
          trade.txHash = event.txHash;
          trade.minedAtMs = ctx.atMs;
          announceTrade(ctx, trade);
        }
        break;
      case 'confirmed':
        for (const trade of trades.filter((t) => t.status === 'MINED' && t.txHash === event.txHash)) {
          trade.status = 'CONFIRMED';
          trade.confirmedAtMs = ctx.atMs;
          ctx.state.unsettled.delete(trade.id);
          announceTrade(ctx, trade);
        }
        break;
      case 'reorged':
        for (const trade of trades.filter((t) => t.status === 'MINED')) {
          trade.status = 'MATCHED';
          trade.txHash = null;
          trade.minedAtMs = null;
          announceTrade(ctx, trade);
        }
        break;
      case 'failed':
        failMatch(ctx, trades.filter((t) => t.status === 'MATCHED'), event);
        break;
    }
  }
  // The ledger's transactions of this record form its next block, as a simulated round's do.
  if (moved) ctx.state.ledger.seal(ctx.atMs);
}

function failMatch(ctx: ApplyContext, trades: EngineTrade[], event: Extract<ChainFillEvent, { type: 'failed' }>): void {
  for (const trade of trades) {
    if (trade.inLedger) {
      // Mined once, reorged out, and now refused: the ledger moved amounts the chain no longer shows. Left to the operator.
      ctx.effects.warn({ tradeId: trade.id, reason: event.reason }, 'a trade mined before a reorg failed when it was sent again; its ledger moves stand');
    } else {
      releaseParty(ctx, trade.taker, trade.sizeBaseUnits);
      releaseParty(ctx, trade.maker, trade.sizeBaseUnits);
    }
    trade.status = 'FAILED';
    ctx.state.unsettled.delete(trade.id);
    announceTrade(ctx, trade);
  }
  for (const orderId of event.faultOrderIds) if (ctx.state.open.has(orderId)) closeOpenOrder(ctx, orderId, 'UNFUNDED');
}

/** What a matched party had reserved for the fill (tradePosting's legs): a BUY its cost and fee, a SELL its tokens. */
function releaseParty(ctx: ApplyContext, party: TradeParty, size: bigint): void {
  if (party.side === 'BUY') ctx.state.balances.release(party.account, COLLATERAL, costBaseUnits(party.priceMicros, size) + party.feeBaseUnits);
  else ctx.state.balances.release(party.account, party.tokenId, size);
}
