import type { Abi, Address, Hex, LocalAccount, Log, PublicClient } from 'viem';

/** What the sender settles: anything with a stable id (the engine's trade id), in journal order. */
export interface Fill {
  readonly id: string;
}

/** Why a fill failed: the contract's custom error (or `Error(string)`, `Panic(uint)`) decoded through the ABI. */
export interface RevertReason {
  /** The error's name, `Error`/`Panic` for Solidity's own, `unknown` when the revert carried no decodable data. */
  readonly name: string;
  readonly args: readonly unknown[];
  /** The raw revert data, when there was any. */
  readonly data?: Hex;
  readonly message: string;
}

/** One signed version of a transaction: the original, or a fee-bumped replacement (same nonce). */
export interface TxVersion {
  readonly hash: Hex;
  /** Wei, as decimal strings so the record is plain JSON. */
  readonly maxFeePerGas: string;
  readonly maxPriorityFeePerGas: string;
}

/**
 * A transaction the sender is responsible for, as plain JSON data. The caller persists every
 * change (`persist`) and hands the live ones back to `resume` after a restart or a takeover.
 * Signing is deterministic (RFC 6979), so `to`, `data`, `gas`, `nonce` and a version's fees
 * re-sign to exactly that version's hash: a record can always be rebroadcast.
 */
export interface TxRecord {
  /** The operator's nonce; null for a transaction not sent by this sender (an earlier sender's, found by `findSettlement`), only watched. */
  readonly nonce: number | null;
  readonly fillIds: readonly string[];
  readonly to: Address;
  readonly data: Hex;
  readonly gas: string;
  /** Every version ever signed, oldest first. Each was persisted before it was broadcast. */
  readonly versions: readonly TxVersion[];
  /** Set while one version is in a canonical block with status success. */
  readonly mined: { readonly hash: Hex; readonly blockNumber: number; readonly blockHash: Hex } | null;
}

/** A change to persist: `put` before a version is broadcast and when a record is mined or unmined; `drop` when it is done with. */
export type RecordChange = { readonly kind: 'put'; readonly record: TxRecord } | { readonly kind: 'drop'; readonly record: TxRecord };

/** The lifecycle of each fill, in order per fill. Across a restart an event may come again (handlers are idempotent by fill id and txHash). */
export type FillEvent<F extends Fill> =
  | { readonly type: 'mined'; readonly fill: F; readonly txHash: Hex; readonly blockNumber: number; readonly blockHash: Hex; readonly logIndex?: number }
  | { readonly type: 'confirmed'; readonly fill: F; readonly txHash: Hex; readonly blockNumber: number }
  /** Back to MATCHED: the block that held it is no longer canonical; the sender resends it. */
  | { readonly type: 'reorged'; readonly fill: F; readonly txHash: Hex }
  | { readonly type: 'failed'; readonly fill: F; readonly reason: RevertReason; readonly txHash?: Hex };

export interface SenderOptions<F extends Fill> {
  /** Reads, simulations and broadcasts. A JSON-RPC batching transport makes the receipt checks one request. */
  readonly client: PublicClient;
  /** The operator key: signs locally, so a version's hash is known (and persisted) before it is broadcast. */
  readonly account: LocalAccount;
  /** The call that settles a batch, in order: any contract. */
  readonly encode: (batch: readonly F[]) => { to: Address; data: Hex };
  /** The contract's ABI, to decode its custom errors. */
  readonly abi: Abi;
  readonly onEvent: (event: FillEvent<F>) => void;
  /** Awaited before a version is broadcast and on every other change: the caller's write-ahead record. */
  readonly persist: (change: RecordChange) => Promise<void> | void;
  /** True when a single fill reverts because it is already settled on chain (a fill state check), not because it is bad. */
  readonly isAlreadySettled?: (reason: RevertReason, fill: F) => boolean;
  /** The transaction that settled `fill` (from the contract's fill events), when `isAlreadySettled` says it was. */
  readonly findSettlement?: (fill: F) => Promise<Hex | null>;
  /** The log index of each fill's log in a successful receipt, by fill id, for `mined.logIndex` (called once per receipt). */
  readonly logIndexesOf?: (logs: Log[], fills: readonly F[]) => ReadonlyMap<string, number>;
  readonly maxFillsPerTx?: number;
  readonly maxGasPerTx?: bigint;
  /**
   * A batch whose calldata is longer is halved before it is simulated, as one above `maxGasPerTx`
   * is: geth-based nodes refuse a transaction above 128 KiB into their pool (`oversized data`),
   * and the default leaves room for the rest of the transaction. A single fill is sent whatever
   * its length.
   */
  readonly maxCalldataBytes?: number;
  /**
   * A batch of fewer than `maxFillsPerTx` fills is sent at most once every `gatherMs`: fills that
   * arrive meanwhile wait and join the next one, so a steady flow goes out in a few larger
   * transactions, not one per step (each costs a simulation, a signature, a record, a broadcast,
   * receipts and a block, and on a public chain the first fill's gas). A full batch goes at once.
   * 0 (the default) sends whatever is queued at every step.
   */
  readonly gatherMs?: number;
  /** Transactions sent and not yet mined, at most. */
  readonly maxInFlight?: number;
  /** Blocks built on top of the inclusion block before `confirmed`; 0 confirms at inclusion. */
  readonly confirmations?: number;
  /** An unmined transaction is re-signed with higher fees (same nonce) after this long. */
  readonly replaceAfterMs?: number;
  /** Each replacement raises both fees by this much (nodes ask at least 10%). */
  readonly feeBumpPercent?: number;
  /** No transaction is signed at a `maxFeePerGas` above this (wei); replacements also stop at three times the market's estimate. */
  readonly maxFeePerGasCap?: bigint;
  readonly pollIntervalMs?: number;
  /**
   * Steps that fail in a row wait twice as long each time (from `pollIntervalMs`), up to this, and
   * new fills do not cut the wait short: a chain that refuses every step (a key out of gas, a
   * provider's rate limit, a node down) is not asked again ten times a second.
   */
  readonly maxBackoffMs?: number;
  /** Fills queued and not yet sent, at most; `submit` beyond it throws. */
  readonly maxQueuedFills?: number;
  /** A fill whose transactions revert on chain this many times (after passing simulation) fails. */
  readonly maxMinedReverts?: number;
  /** Added to the estimate so a batch still fits when state moves a little before inclusion. */
  readonly gasMarginPercent?: number;
  /** Simulations run on this block: `pending` sees the transactions already sent, which later fills may depend on. */
  readonly simulationBlockTag?: 'pending' | 'latest';
  /**
   * How a batch is simulated. `estimateGas` (the default): the node's estimate, which it finds by
   * a binary search that executes the batch about 25 times; the transaction's gas is the estimate
   * plus `gasMarginPercent`. `call`: one `eth_call` with `maxGasPerTx` gas, and every transaction's
   * gas limit is `maxGasPerTx` (a batch that runs out of it is halved): for a chain where a block
   * holds such a transaction and nobody else waits for the space (a local anvil that mines each
   * transaction as it comes), where the estimate's executions are the settlement's largest cost.
   */
  readonly simulation?: 'estimateGas' | 'call';
  readonly now?: () => number;
  /** A step that failed on a node error (it is retried after a wait that doubles, up to `maxBackoffMs`), or a transaction a node refused; console.error by default. */
  readonly onError?: (error: unknown) => void;
}
