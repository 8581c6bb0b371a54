import type { Hex } from 'viem';
import type { ContractCall, OperatorSteps, SignedTransaction } from './operator.ts';

/** Where signed payments are recorded before they are sent (the store's chain_payment_intents). */
export interface PaymentIntents {
  /** The versions recorded for the key, oldest first (none when nothing was signed for it). */
  find(key: string): Promise<SignedTransaction[]>;
  /** Records a new transaction for the key in place of its earlier versions (none of which can be mined). */
  save(key: string, tx: SignedTransaction): Promise<void>;
  /** Records a replacement of the key's transaction (its nonce at higher fees) beside its earlier versions. */
  addVersion(key: string, tx: SignedTransaction): Promise<void>;
}

/**
 * Sends `call` for the move that `key` names (a ledger transaction's hash) so that it is mined at
 * most once, however often it is asked for and whatever crash comes between: each version of the
 * transaction (the first, and each replacement at higher fees while it waits) is signed, recorded,
 * and only then sent. When versions are recorded, the chain says what became of them:
 * - one mined: that was the payment; its hash is the answer, and nothing is sent;
 * - none mined, their nonce still free: the last is sent again (the same bytes, so it and any copy
 *   of it in a pool are one transaction), and replaced while it waits;
 * - one reverted, or their nonce taken by another transaction: it never paid, and a new one is signed.
 * `beforeSigning` runs only when a new transaction is needed: a check (a simulation) that must
 * not refuse a payment already made. Run inside `ChainOperator.exclusive`, so no other
 * transaction of the operator's comes between the record's reading and its sending.
 */
export async function sendOnce(chain: OperatorSteps, intents: PaymentIntents, key: string, call: ContractCall, beforeSigning: () => Promise<void> = async () => {}): Promise<Hex> {
  const record = (tx: SignedTransaction) => intents.addVersion(key, tx);
  const recorded = await intents.find(key);
  if (recorded.length > 0) {
    const fate = await chain.fateOf(recorded);
    if (fate.kind === 'mined' && fate.receipt.status === 'success') return fate.receipt.transactionHash;
    if (fate.kind === 'unsent') {
      const sent = await chain.broadcast(recorded, record);
      if (sent !== 'superseded') return sent;
    }
  }
  for (;;) {
    await beforeSigning();
    const signed = await chain.sign(call);
    await intents.save(key, signed);
    const sent = await chain.broadcast([signed], record);
    if (sent !== 'superseded') return sent;
  }
}
