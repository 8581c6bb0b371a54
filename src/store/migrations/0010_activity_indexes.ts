import { sql, type Kysely } from 'kysely';

/**
 * Market activity (src/store/market-data-activity-repository.ts) finds a market's splits, merges
 * and redeems by the tokens they mint or burn. Only those entries have the reasons MINT and BURN,
 * so this partial index stays small however many trades the journal holds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX ledger_entries_token_moves ON ledger_entries (asset, tx_seq) WHERE reason IN ('MINT', 'BURN')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX ledger_entries_token_moves`.execute(db);
}
