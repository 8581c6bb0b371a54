import { decodeFunctionData, encodeFunctionData, parseTransaction, type Abi, type Address, type Hex } from 'viem';
import type { ContractCall, OperatorSteps, SignedTransaction } from './operator.ts';
import { latestNonce } from './until-mined.ts';

/** Where signed payments are recorded before they are sent (the store's chain_payment_intents), shared by every node. */
export interface PaymentIntents {
  /** Every version recorded for the key in the order signed, across its attempts (none when nothing was signed for it). */
  find(key: string): Promise<SignedTransaction[]>;
  /**
   * Records a new attempt (a transaction at a new nonce) as the key's version `version`, the
   * number of versions its payer read: false, recording nothing, when another payer recorded a
   * version since, so that of two payers of one key only one starts an attempt on what it read.
   */
  startAttempt(key: string, version: number, tx: SignedTransaction): Promise<boolean>;
  /** Records a replacement of one of the key's attempts (its nonce at higher fees) after every version recorded. */
  addVersion(key: string, tx: SignedTransaction): Promise<void>;
}

export interface SendOnceOptions {
  /** Runs only when a new transaction is needed: a check (a simulation) that must not refuse a payment already made. */
  beforeSigning?: () => Promise<void>;
  /**
   * Whether the key may be paid by another call than the one first recorded for it. By default not:
   * a key names one payment, so an idempotency key asked again for another amount is refused. A
   * bond's fee half may: it goes to whoever receives the exchange's fees when it is signed.
   */
  callMayChange?: boolean;
}

/**
 * Sends `call` for the move that `key` names (a ledger transaction's hash) so that it is mined at
 * most once, however often it is asked for, by however many nodes at once, and whatever crash
 * comes between: each version of the transaction (the first of each attempt, and each replacement
 * at higher fees while it waits) is signed, recorded, and only then sent. Versions are never
 * forgotten, so the chain can always say what became of them:
 * - one mined successfully: that was the payment; its hash is the answer, and nothing is sent;
 * - none mined, the latest attempt's nonce still free: its last version is sent again (the same
 *   bytes, so it and any copy of it in a pool are one transaction), and replaced while it waits;
 * - the latest attempt reverted, or its nonce taken by another transaction: it never paid, and a
 *   new attempt is signed, recorded only if no other payer recorded one since it read (else the
 *   record is read again, and the other's attempt is what this payer sends and waits for).
 * A key asked with another call than the one recorded for it is refused (PaymentConflictError),
 * unless `callMayChange`. Run inside `ChainOperator.exclusive`, so no other transaction of this
 * node's operator comes between the record's reading and its sending.
 */
export async function sendOnce(chain: OperatorSteps, intents: PaymentIntents, key: string, call: ContractCall, { beforeSigning = async () => {}, callMayChange = false }: SendOnceOptions = {}): Promise<Hex> {
  const record = (tx: SignedTransaction) => intents.addVersion(key, tx);
  for (;;) {
    const recorded = await intents.find(key);
    if (recorded.length > 0) {
      if (!callMayChange && !isCallOf(recorded[0]!, call)) throw new PaymentConflictError(`the payment ${key} was recorded for another call (another recipient or amount): a key names one payment`);
      const fate = await chain.fateOf(recorded);
      if (fate.kind === 'mined' && fate.receipt.status === 'success') return fate.receipt.transactionHash;
      if (fate.kind === 'unsent') {
        const sent = await chain.broadcast(lastAttempt(recorded), record);
        if (sent !== 'superseded') return sent;
        continue;
      }
    }
    await beforeSigning();
    const signed = await chain.sign(call);
    if (!(await intents.startAttempt(key, recorded.length, signed))) continue;
    const sent = await chain.broadcast([signed], record);
    if (sent !== 'superseded') return sent;
  }
}

/**
 * Asked to pay a key with another call than the one recorded for it (an idempotency key sent again
 * with another amount or recipient): nothing is sent, whatever became of the recorded one.
 */
export class PaymentConflictError extends Error {}

/**
 * What a key's recorded payment calls, read from its first version (every version of a key makes
 * one call): the contract and the arguments, decoded with the contract's `abi`.
 */
export function recordedCall(versions: readonly SignedTransaction[], abi: Abi): { to: Address; args: readonly unknown[] } {
  const tx = parseTransaction(versions[0]!.raw);
  return { to: tx.to!, args: decodeFunctionData({ abi, data: tx.data! }).args ?? [] };
}

/** Whether a recorded transaction makes `call`: the same contract, function and arguments. */
function isCallOf(recorded: SignedTransaction, call: ContractCall): boolean {
  const tx = parseTransaction(recorded.raw);
  return tx.to?.toLowerCase() === call.address.toLowerCase() && tx.data === encodeFunctionData(call);
}

/** The versions of the latest attempt: those at the highest nonce (until-mined.ts `latestNonce`). */
function lastAttempt(versions: readonly SignedTransaction[]): SignedTransaction[] {
  const nonce = latestNonce(versions);
  return versions.filter((version) => version.nonce === nonce);
}
