import type { Db } from './database.ts';

type Hex = `0x${string}`;

/** A signed transaction of the operator's as recorded before it is sent (chain/once-payments.ts `PaymentIntents`). */
export interface RecordedPayment {
  hash: Hex;
  nonce: number;
  raw: Hex;
}

/** The chain_payment_intents table as chain/once-payments.ts reads and writes it: each key's versions, numbered from 0. */
export function paymentIntentsIn(db: Db) {
  const values = (tx: RecordedPayment) => ({ chain_tx_hash: tx.hash, nonce: BigInt(tx.nonce), raw_tx: tx.raw, signed_at: new Date() });
  return {
    async find(key: string): Promise<RecordedPayment[]> {
      const rows = await db.selectFrom('chain_payment_intents').select(['chain_tx_hash', 'nonce', 'raw_tx']).where('key', '=', key).orderBy('version').execute();
      return rows.map((row) => ({ hash: row.chain_tx_hash as Hex, nonce: Number(row.nonce), raw: row.raw_tx as Hex }));
    },
    async save(key: string, tx: RecordedPayment): Promise<void> {
      await db.transaction().execute(async (t) => {
        await t.deleteFrom('chain_payment_intents').where('key', '=', key).execute();
        await t.insertInto('chain_payment_intents').values({ key, version: 0, ...values(tx) }).execute();
      });
    },
    async addVersion(key: string, tx: RecordedPayment): Promise<void> {
      const last = await db.selectFrom('chain_payment_intents').select((e) => e.fn.max('version').as('version')).where('key', '=', key).executeTakeFirst();
      await db.insertInto('chain_payment_intents').values({ key, version: (last?.version ?? -1) + 1, ...values(tx) }).execute();
    },
  };
}
