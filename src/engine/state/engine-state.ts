import { MarketBook } from '../../core/book/market-book.ts';
import type { OracleState } from '../../core/oracle/state-machine.ts';
import { GENESIS_HASH } from '../../settlement/embedded/hashes.ts';
import type { MarketTradingInfo } from '../types.ts';
import { Balances } from './balances.ts';
import { Ledger } from './ledger.ts';
import { MakerSafety } from './maker-safety.ts';
import type { EngineOrder, EngineTrade, LastTrade } from './types.ts';
import type { ChainTx } from './chain-settlement-commands.ts';
import { ChainIndex } from './chain-transfer-commands.ts';

/** One tradable market: what the engine knows of it, its book, its speed-bumped orders. */
export interface MarketRuntime {
  info: MarketTradingInfo;
  book: MarketBook;
  /** Speed-bumped taker orders, FIFO, with the time they may enter the book. */
  delayed: { orderId: string; dueMs: number }[];
}

/**
 * The whole state of the engine, in memory (DESIGN.md "One journal is the truth"): a deterministic
 * function of the journal's records, so that state = replay(snapshot, journal tail) and two
 * replays agree on every field. Nothing here reads a clock, draws a random number or touches the
 * store: commands bring their time, and ids derive from the record's position (ids.ts).
 */
export class EngineState {
  readonly balances = new Balances();
  readonly ledger = new Ledger(this.balances);
  /** Every published market the engine has been told of, resolved ones included (redemptions read them). */
  readonly markets = new Map<string, MarketTradingInfo>();
  /** The tradable ones (ACTIVE, not resolved), with their books. */
  readonly runtimes = new Map<string, MarketRuntime>();
  private readonly marketOfToken = new Map<string, string>();
  /** Open orders (resting or speed-bumped), in acceptance order. */
  readonly open = new Map<string, EngineOrder>();
  /** Trades not settled yet: MATCHED ones waiting to be mined, MINED ones waiting to be confirmed, in match order. */
  readonly unsettled = new Map<string, EngineTrade>();
  readonly lastTrade = new Map<string, LastTrade>();
  /** Each market's oracle question, once proposed (no entry: UNPROPOSED). */
  readonly questions = new Map<string, OracleState>();
  /** Each market's oracle reward reserved in the reward treasury since its publication, until its question settles (oracle-commands.ts). */
  readonly oracleEscrows = new Map<string, bigint>();
  /** The market of each neg-risk event that resolved YES: no other market of the event may. */
  readonly winningMarketOfEvent = new Map<string, string>();
  /** The settlement senders' live transaction records (CHAIN≠none), by sender and record key: what a takeover resumes. */
  readonly chainTxs = new Map<string, ChainTx>();
  /** The chain's indexer (CHAIN=embedded): the last block it indexed and what wallets still owe the ledger. */
  readonly chainIndex = new ChainIndex();
  /** Heartbeats, cancel-on-disconnect sessions and MMP settings (EXTENSIONS.md section 15). */
  readonly safety = new MakerSafety();
  nextBookSeq = 1n;
  nextTradeSeq = 1n;
  /** The last record applied, and its hash (the journal's chain). */
  seq = 0n;
  hash = GENESIS_HASH;

  /** The market a token belongs to (tradable or not), and which of its outcomes the token is. */
  marketOfTokenId(tokenId: string): { info: MarketTradingInfo; outcome: 0 | 1 } | undefined {
    const marketId = this.marketOfToken.get(tokenId);
    const info = marketId ? this.markets.get(marketId) : undefined;
    return info ? { info, outcome: tokenId === info.tokenId1 ? 0 : 1 } : undefined;
  }

  /** The tradable market of a token, and which outcome the token is. */
  runtimeOfToken(tokenId: string): { runtime: MarketRuntime; outcome: 0 | 1 } | undefined {
    const marketId = this.marketOfToken.get(tokenId);
    const runtime = marketId ? this.runtimes.get(marketId) : undefined;
    return runtime ? { runtime, outcome: tokenId === runtime.info.tokenId1 ? 0 : 1 } : undefined;
  }

  /** Adds a market or updates what the engine knows of it; a tradable market gets a book. */
  putMarket(info: MarketTradingInfo): MarketRuntime | undefined {
    this.markets.set(info.id, info);
    this.marketOfToken.set(info.tokenId1, info.id);
    this.marketOfToken.set(info.tokenId2, info.id);
    const runtime = this.runtimes.get(info.id);
    if (runtime) {
      runtime.info = info;
      return runtime;
    }
    if (info.status !== 'ACTIVE' || info.isResolved) return undefined;
    const added: MarketRuntime = { info, book: new MarketBook(), delayed: [] };
    this.runtimes.set(info.id, added);
    return added;
  }

  /** A market stops trading for good (resolved): its book goes; what it was stays in `markets`. */
  dropRuntime(marketId: string): void {
    this.runtimes.delete(marketId);
  }

  /** The outcome label of an order's token ("" for a market the engine does not know). */
  outcomeLabelOf(order: Pick<EngineOrder, 'marketId' | 'outcome'>): string {
    const info = this.markets.get(order.marketId);
    return info ? (order.outcome === 0 ? info.outcome1 : info.outcome2) : '';
  }
}
