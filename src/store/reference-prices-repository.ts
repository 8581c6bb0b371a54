import type { Selectable } from 'kysely';
import type { Db } from './database.ts';
import type { PriceSource, ReferencePricesTable } from './schema.ts';

export type ReferencePriceRow = Selectable<ReferencePricesTable>;

/**
 * Records a price of a pair at its own time. A second price for the same pair and instant
 * replaces the first (an operator's correction, or a feed answering the same update twice).
 */
export async function upsertReferencePrice(db: Db, row: { pair: string; at: Date; price: bigint; source: PriceSource; recordedAt: Date }): Promise<void> {
  await db.insertInto('reference_prices')
    .values({ pair: row.pair, at: row.at, price: row.price, source: row.source, recorded_at: row.recordedAt })
    .onConflict((oc) => oc.columns(['pair', 'at']).doUpdateSet({ price: row.price, source: row.source, recorded_at: row.recordedAt }))
    .execute();
}

/** The last price of the pair at or before `at`. */
export async function findPriceAtOrBefore(db: Db, pair: string, at: Date): Promise<ReferencePriceRow | undefined> {
  return db.selectFrom('reference_prices').selectAll().where('pair', '=', pair).where('at', '<=', at)
    .orderBy('at', 'desc').limit(1).executeTakeFirst();
}

/** Whether the pair has a price at or after `at`: then no later answer can change the price at `at`. */
export async function hasPriceAtOrAfter(db: Db, pair: string, at: Date): Promise<boolean> {
  const row = await db.selectFrom('reference_prices').select('at').where('pair', '=', pair).where('at', '>=', at).limit(1).executeTakeFirst();
  return row !== undefined;
}
