import { parseTransaction, type Hex, type TransactionReceipt } from 'viem';
import { refusalOutcome } from '../core/node-answers.ts';
import { replacementFees, type Fees } from '../core/transaction-fees.ts';

/** A transaction of the operator's, signed and not necessarily sent: what once-payments.ts records before sending it. */
export interface SignedTransaction {
  readonly hash: Hex;
  readonly nonce: number;
  readonly raw: Hex;
}

/**
 * What became of the versions of one transaction (its nonce and call at rising fees, at most one
 * of which can be mined): one mined (its receipt says whether it reverted); none mined and none
 * able ever to be (`superseded`: another transaction took the nonce); or none mined yet and each
 * still able to be (`unsent`: never sent, lost by the node, or waiting in a pool).
 */
export type VersionsFate = { kind: 'mined'; receipt: TransactionReceipt } | { kind: 'superseded' } | { kind: 'unsent' };

/** What the wait needs of the chain and of the key that signs. */
export interface VersionsChain {
  /** Hands the node the signed bytes; throws with the node's refusal. */
  sendRaw(tx: SignedTransaction): Promise<void>;
  /** How many of the key's transactions are mined (the next nonce of the latest block). */
  minedNonce(): Promise<number>;
  receipt(hash: Hex): Promise<TransactionReceipt | undefined>;
  /** The fees the market asks now. */
  marketFees(): Promise<Fees>;
  /** The same transaction (nonce, call, gas) signed at other fees. */
  resign(tx: SignedTransaction, fees: Fees): Promise<SignedTransaction>;
  /** Mines a block, on a chain that mines only when told (the embedded anvil: operator.ts says why). */
  readonly flush: (() => Promise<void>) | undefined;
}

export interface WaitRules {
  /** How long the last version waits unmined before it is replaced. */
  readonly replaceAfterMs: number;
  /** How much a replacement raises both fees, in percent. */
  readonly feeBumpPercent: number;
  /** No version is signed above this fee per gas (MAX_FEE_PER_GAS_GWEI). */
  readonly maxFeePerGas: bigint | undefined;
  /** How often a block is mined for the transaction where the chain needs one (`flush`). */
  readonly flushAfterMs: number;
  /** Past this, the wait throws (the versions stay recorded and pooled: a later wait takes them up). */
  readonly timeoutMs: number | undefined;
  /** How long the wait's looks at the chain may fail in a row before it gives up with FateUnknownError. */
  readonly readOutageMs: number;
}

/**
 * The transaction was handed to the chain and the chain then could not be asked what became of it
 * for `readOutageMs`: it may be mined yet. Whoever sends it again without a record of its versions
 * (once-payments.ts has one) may pay twice, so callers say so rather than "nothing was done".
 */
export class FateUnknownError extends Error {
  constructor(readonly hashes: readonly Hex[], cause: unknown) {
    super(`transaction ${hashes.at(-1)} was sent, and the chain could not be asked whether it was mined: it may still be (${hashes.length} version(s): ${hashes.join(', ')})`, { cause });
  }
}

/** The first and the longest pause between two looks at whether a version was mined. */
const POLL_FIRST_MS = 20;
const POLL_MAX_MS = 1_000;

/**
 * Sends the last of `versions` and waits until one of them is mined, replacing the last every
 * `replaceAfterMs` at higher fees (core/transaction-fees.ts: by the bump, never above the cap nor
 * three times the market's estimate, else the last is sent again as it is). Each new version is
 * handed to `record` before it is sent, so whoever recorded the versions can tell later which one
 * paid. A transaction the base fee passed in the pool would otherwise hold every later one of the
 * key's behind it for as long as the fees stay up. The mined version's receipt, or `superseded`
 * when another transaction took the nonce. Throws when the node refuses the first send for another
 * reason (a key without gas, a node down); a refused replacement leaves the earlier versions to be
 * mined, and the next round tries again. A look at the chain that fails (a node restarting, a
 * provider's rate limit) is tried again at the next pause, the version neither replaced nor
 * flushed meanwhile: after the first send the transaction may be mined whatever the wait sees, so
 * only `readOutageMs` of failures in a row end it, with FateUnknownError.
 */
export async function untilMined(chain: VersionsChain, versions: readonly SignedTransaction[], record: (tx: SignedTransaction) => Promise<void>, rules: WaitRules): Promise<TransactionReceipt | 'superseded'> {
  const all = [...versions];
  const nonce = all[0]!.nonce;
  const startedAt = Date.now();
  let sentAt = startedAt;
  let flushedAt = startedAt;
  let pause = POLL_FIRST_MS;
  await send(chain, all.at(-1)!, true);
  let failingSince: number | undefined;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, POLL_MAX_MS);
    let lookFailed: unknown;
    try {
      if ((await chain.minedNonce()) > nonce) {
        const fate = await fateOf(chain, all);
        if (fate.kind === 'mined') return fate.receipt;
        if (fate.kind === 'superseded') return 'superseded';
      }
      failingSince = undefined;
    } catch (error) {
      lookFailed = error;
    }
    const now = Date.now();
    if (rules.timeoutMs !== undefined && now - startedAt >= rules.timeoutMs) throw new Error(`transaction ${all.at(-1)!.hash} was not mined within ${rules.timeoutMs} ms`);
    if (lookFailed !== undefined) {
      failingSince ??= now;
      if (now - failingSince >= rules.readOutageMs) throw new FateUnknownError(all.map((version) => version.hash), lookFailed);
      continue;
    }
    if (chain.flush && now - flushedAt >= rules.flushAfterMs) {
      flushedAt = now;
      await chain.flush().catch(() => {});
    }
    if (now - sentAt >= rules.replaceAfterMs) {
      sentAt = now;
      await replace(chain, all, record, rules).catch(() => {});
    }
  }
}

/**
 * Signs the last version again at higher fees when the rules allow, records it, then sends it (or
 * sends the last again as it is). A failure here (the chain's estimate unreadable, the record not
 * written) leaves the versions as they were for the next round: nothing unrecorded is ever sent.
 */
async function replace(chain: VersionsChain, all: SignedTransaction[], record: (tx: SignedTransaction) => Promise<void>, rules: WaitRules): Promise<void> {
  const fees = replacementFees(feesOf(all.at(-1)!), await chain.marketFees(), rules.feeBumpPercent, rules.maxFeePerGas);
  if (fees) {
    const next = await chain.resign(all.at(-1)!, fees);
    await record(next);
    all.push(next);
  }
  await send(chain, all.at(-1)!, false);
}

/**
 * The key's mined nonce first, the receipts second: a version mined between the two reads is seen
 * as mined, never as superseded. `versions` may span attempts (a payment's record keeps its
 * earlier ones, once-payments.ts), the latest at the highest nonce: a success anywhere is the
 * answer; otherwise the latest attempt's revert, or whether its nonce was taken.
 */
export async function fateOf(chain: VersionsChain, versions: readonly SignedTransaction[]): Promise<VersionsFate> {
  const mined = await chain.minedNonce();
  const nonce = latestNonce(versions);
  let reverted: TransactionReceipt | undefined;
  for (const version of versions) {
    const receipt = await chain.receipt(version.hash);
    if (receipt?.status === 'success') return { kind: 'mined', receipt };
    if (receipt && version.nonce === nonce) reverted = receipt;
  }
  if (reverted) return { kind: 'mined', receipt: reverted };
  return mined > nonce ? { kind: 'superseded' } : { kind: 'unsent' };
}

/**
 * The nonce of the latest attempt among `versions`: the highest, since a new attempt is signed only
 * once the one before can never be mined (its nonce taken, or mined and reverted), at the chain's
 * mined nonce, past it. Not the last recorded: a replacement of an older attempt, signed by a payer
 * still waiting on it, may be recorded after a newer attempt.
 */
export function latestNonce(versions: readonly SignedTransaction[]): number {
  return Math.max(...versions.map((version) => version.nonce));
}

export function feesOf(tx: SignedTransaction): Fees {
  const { maxFeePerGas, maxPriorityFeePerGas } = parseTransaction(tx.raw);
  if (maxFeePerGas === undefined || maxPriorityFeePerGas === undefined) throw new Error(`transaction ${tx.hash} is not an EIP-1559 transaction`);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/**
 * A node's refusal leaves the wait to go on unless it is an `error` (core/node-answers.ts): it has
 * the version already; a version or another transaction took the nonce (the next look says which);
 * or it holds a version at higher fees, or the fee is under the base fee (the wait's own rise
 * passes either). An `error` of the first send is thrown; of a replacement, the earlier versions
 * are left to be mined.
 */
async function send(chain: VersionsChain, tx: SignedTransaction, first: boolean): Promise<void> {
  try {
    await chain.sendRaw(tx);
  } catch (error) {
    if (first && refusalOutcome(error) === 'error') throw error;
  }
}
