import type { Db } from './database.ts';

type Hex = `0x${string}`;

/** A signed transaction of the operator's as recorded before it is sent (chain/once-payments.ts `PaymentIntents`). */
export interface RecordedPayment {
  hash: Hex;
  nonce: number;
  raw: Hex;
}

/** The chain_payment_intents table as chain/once-payments.ts reads and writes it. */
export function paymentIntentsIn(db: Db): { find(key: string): Promise<RecordedPayment | undefined>; save(key: string, tx: RecordedPayment): Promise<void> } {
  return {
    async find(key) {
      const row = await db.selectFrom('chain_payment_intents').select(['chain_tx_hash', 'nonce', 'raw_tx']).where('key', '=', key).executeTakeFirst();
      return row && { hash: row.chain_tx_hash as Hex, nonce: Number(row.nonce), raw: row.raw_tx as Hex };
    },
    async save(key, tx) {
      const values = { chain_tx_hash: tx.hash, nonce: BigInt(tx.nonce), raw_tx: tx.raw, signed_at: new Date() };
      await db.insertInto('chain_payment_intents').values({ key, ...values }).onConflict((c) => c.column('key').doUpdateSet(values)).execute();
    },
  };
}
