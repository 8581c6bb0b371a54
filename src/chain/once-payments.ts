import type { Hex } from 'viem';
import type { ContractCall, OperatorSteps, SignedTransaction } from './operator.ts';

/** Where signed payments are recorded before they are sent (the store's chain_payment_intents). */
export interface PaymentIntents {
  find(key: string): Promise<SignedTransaction | undefined>;
  /** Replaces the key's earlier record, if any (one that can never be mined). */
  save(key: string, tx: SignedTransaction): Promise<void>;
}

/**
 * Sends `call` for the move that `key` names (a ledger transaction's hash) so that it is mined at
 * most once, however often it is asked for and whatever crash comes between: the transaction is
 * signed, recorded, and only then sent. When a record exists, the chain says what became of it:
 * - mined: that was the payment; its hash is the answer, and nothing is sent;
 * - not mined, its nonce still free: it is sent again (the same bytes, so it and any copy of it
 *   in a pool are one transaction);
 * - reverted, or its nonce taken by another transaction: it never paid, and a new one is signed.
 * `beforeSigning` runs only when a new transaction is needed: a check (a simulation) that must
 * not refuse a payment already made. Run inside `ChainOperator.exclusive`, so no other
 * transaction of the operator's comes between the record's reading and its sending.
 */
export async function sendOnce(chain: OperatorSteps, intents: PaymentIntents, key: string, call: ContractCall, beforeSigning: () => Promise<void> = async () => {}): Promise<Hex> {
  const recorded = await intents.find(key);
  if (recorded) {
    const fate = await chain.fateOf(recorded);
    if (fate === 'mined') return recorded.hash;
    if (fate === 'unsent') {
      await chain.broadcast(recorded);
      return recorded.hash;
    }
  }
  await beforeSigning();
  const signed = await chain.sign(call);
  await intents.save(key, signed);
  await chain.broadcast(signed);
  return signed.hash;
}
