import { blockHash, GENESIS_HASH, transactionHash } from '../../settlement/embedded/hashes.ts';
import { netChanges, type Payout, type Posting } from '../../settlement/embedded/postings.ts';
import { LedgerStateError, type MarketTokens } from '../../settlement/types.ts';
import type { Balances } from './balances.ts';

/** A recorded ledger transaction: its entries are the legs that moved a balance. */
export interface LedgerTx {
  seq: bigint;
  txHash: string;
  kind: string;
  ref: string;
  createdAtMs: number;
  entries: { account: string; asset: string; amount: bigint; reason: string }[];
  /** The chain's transaction that made the same move in the user's wallet, when one did (split, merge, redeem on a chain); outside `txHash`'s hash. */
  chainTxHash: string | null;
}

/** A market's token pair in the ledger and, once resolved, what each token pays. */
export interface LedgerMarket extends MarketTokens {
  payout: Payout | null;
  resolvedAtMs: number | null;
}

export interface ChainHead {
  number: bigint;
  hash: string;
}

export interface SealedBlock {
  number: bigint;
  hash: string;
  parentHash: string;
  sealedAtMs: number;
  /** The transactions it seals, in sequence order. */
  txs: { seq: bigint; txHash: string }[];
}

/** What the ledger made, for the projection of the tables and for the record's answers. */
export interface LedgerSink {
  transaction(tx: LedgerTx): void;
  market(market: LedgerMarket): void;
  block(block: SealedBlock): void;
}

/** A block holds at most this many transactions; a backlog is sealed over several blocks. */
export const MAX_BLOCK_TRANSACTIONS = 5_000;

/** What a credit made with an idempotency key was: the same key asks for the same credit, or is refused. */
export interface KeyedCredit {
  readonly account: string;
  readonly amount: bigint;
  readonly txHash: string;
}

/**
 * The settlement ledger in memory (DESIGN.md "Balances are a ledger"): every balance change is a
 * transaction of entries with a sequence, a kind, a reference and a hash over them
 * (settlement/embedded/hashes.ts), sealed into hash-chained blocks. Sequences come from this
 * state, not from the store, so a replay numbers and hashes every transaction as the first run
 * did; `ledger_transactions`, `ledger_entries`, `ledger_blocks` and `ledger_markets` are its
 * projection.
 */
export class Ledger {
  nextSeq = 1n;
  head: ChainHead = { number: 0n, hash: GENESIS_HASH };
  /** Transactions not sealed into a block yet, in sequence order. */
  unsealed: { seq: bigint; txHash: string }[] = [];
  readonly markets = new Map<string, LedgerMarket>();
  /**
   * References that may be recorded once only, with the hash of the transaction that recorded
   * each: reward claims (one sent again after a crash is answered with its first payment) and
   * withdrawals (a wallet's nonce, spent once).
   */
  readonly onceRefs = new Map<string, string>();
  /** Credits made with an idempotency key, by key: a credit asked again with its key is answered, not made again. */
  readonly creditKeys = new Map<string, KeyedCredit>();
  /** All collateral ever credited (deposits, the faucet, the treasury): what the exchange must hold. */
  credited = 0n;
  private sink: LedgerSink | undefined;

  constructor(private readonly balances: Balances) {}

  /** Who hears of the transactions, markets and blocks the next commands make. */
  listen(sink: LedgerSink | undefined): void {
    this.sink = sink;
  }

  /**
   * Records postings as transactions and applies them to the balances, all or none (an
   * InsufficientBalanceError of a guarded posting, or a LedgerStateError, changes nothing).
   * Returns each posting's transaction hash, in order. `chainTxHash` names the chain's transaction
   * of the same move (the activity shows it).
   */
  record(postings: readonly Posting[], atMs: number, options: { guarded?: boolean; chainTxHash?: string | undefined } = {}): string[] {
    if (postings.length === 0) return [];
    this.balances.post(netChanges([...postings]).map((c) => ({ account: c.account, asset: c.asset, balanceDelta: c.balance, lockedDelta: c.locked })), options);
    return postings.map((posting) => {
      const seq = this.nextSeq++;
      const entries = posting.legs.filter((l) => l.balanceDelta !== 0n).map((l) => ({ account: l.account, asset: l.asset, amount: l.balanceDelta, reason: l.reason }));
      const txHash = transactionHash({ seq, kind: posting.kind, ref: posting.ref, createdAtMs: atMs, entries });
      this.unsealed.push({ seq, txHash });
      this.sink?.transaction({ seq, txHash, kind: posting.kind, ref: posting.ref, createdAtMs: atMs, entries, chainTxHash: options.chainTxHash ?? null });
      return txHash;
    });
  }

  /** Registers a market's tokens (idempotent: a known market keeps its row). */
  register(tokens: MarketTokens): LedgerMarket {
    const known = this.markets.get(tokens.conditionId);
    if (known) return known;
    const market: LedgerMarket = { conditionId: tokens.conditionId, tokenId1: tokens.tokenId1, tokenId2: tokens.tokenId2, payout: null, resolvedAtMs: null };
    this.markets.set(market.conditionId, market);
    this.sink?.market(market);
    return market;
  }

  /** Records the payout vector of a market, once. */
  resolve(tokens: MarketTokens, payout: Payout, atMs: number): void {
    const market = this.register(tokens);
    if (market.payout) throw new LedgerStateError(`market ${market.conditionId} is already resolved`);
    market.payout = payout;
    market.resolvedAtMs = atMs;
    this.sink?.market(market);
  }

  /** Seals the unsealed transactions (up to a bound) into the next block; null when there are none. */
  seal(atMs: number): SealedBlock | null {
    if (this.unsealed.length === 0) return null;
    const txs = this.unsealed.splice(0, MAX_BLOCK_TRANSACTIONS);
    const number = this.head.number + 1n;
    const hash = blockHash({ number, parentHash: this.head.hash, sealedAtMs: atMs, txHashes: txs.map((t) => t.txHash) });
    const block: SealedBlock = { number, hash, parentHash: this.head.hash, sealedAtMs: atMs, txs };
    this.head = { number, hash };
    this.sink?.block(block);
    return block;
  }
}
