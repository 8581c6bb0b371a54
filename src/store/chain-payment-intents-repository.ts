import type { Db } from './database.ts';
import { isUniqueViolation } from './unique-violation.ts';

type Hex = `0x${string}`;

/** A signed transaction of the operator's as recorded before it is sent (chain/once-payments.ts `PaymentIntents`). */
export interface RecordedPayment {
  hash: Hex;
  nonce: number;
  raw: Hex;
}

/** The chain_payment_intents table as chain/once-payments.ts reads and writes it: each key's versions, numbered from 0 in the order recorded; a number is taken once (the payers' compare-and-record). */
export function paymentIntentsIn(db: Db) {
  const values = (tx: RecordedPayment) => ({ chain_tx_hash: tx.hash, nonce: BigInt(tx.nonce), raw_tx: tx.raw, signed_at: new Date() });
  /** False when the number is taken already. */
  const insertVersion = async (key: string, version: number, tx: RecordedPayment): Promise<boolean> => {
    try {
      await db.insertInto('chain_payment_intents').values({ key, version, ...values(tx) }).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  };
  return {
    async find(key: string): Promise<RecordedPayment[]> {
      const rows = await db.selectFrom('chain_payment_intents').select(['chain_tx_hash', 'nonce', 'raw_tx']).where('key', '=', key).orderBy('version').execute();
      return rows.map((row) => ({ hash: row.chain_tx_hash as Hex, nonce: Number(row.nonce), raw: row.raw_tx as Hex }));
    },
    /** The keys recorded under any of these prefixes (constants, without LIKE's wildcards), with a version signed since `signedSince` when given. */
    async keysStartingWith(prefixes: readonly string[], signedSince?: Date): Promise<string[]> {
      let query = db.selectFrom('chain_payment_intents').select('key').distinct()
        .where((eb) => eb.or(prefixes.map((prefix) => eb('key', 'like', `${prefix}%`))));
      if (signedSince) query = query.where('signed_at', '>=', signedSince);
      return (await query.orderBy('key').execute()).map((row) => row.key);
    },
    startAttempt: insertVersion,
    async addVersion(key: string, tx: RecordedPayment): Promise<void> {
      // Two payers waiting on one attempt may each replace it: the later insert takes the next number.
      for (;;) {
        const last = await db.selectFrom('chain_payment_intents').select((e) => e.fn.max('version').as('version')).where('key', '=', key).executeTakeFirst();
        if (await insertVersion(key, (last?.version ?? -1) + 1, tx)) return;
      }
    },
  };
}
