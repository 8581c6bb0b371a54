import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from './database.ts';
import type { TemplatesTable } from './schema.ts';

export type TemplateRow = Selectable<TemplatesTable>;

export async function insertTemplate(db: Db, row: Insertable<TemplatesTable>): Promise<TemplateRow> {
  return db.insertInto('templates').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findTemplate(db: Db, id: string): Promise<TemplateRow | undefined> {
  return db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function templateSlugTaken(db: Db, slug: string): Promise<boolean> {
  return (await db.selectFrom('templates').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined;
}

/** Every template, oldest first (the operator's list; a handful). */
export async function listTemplates(db: Db): Promise<TemplateRow[]> {
  return db.selectFrom('templates').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** Enabled templates, for the publisher (at most `limit`). */
export async function listEnabledTemplates(db: Db, limit: number): Promise<TemplateRow[]> {
  return db.selectFrom('templates').selectAll().where('enabled', '=', true).orderBy('created_at').orderBy('id').limit(limit).execute();
}

export async function updateTemplate(db: Db, id: string, changes: Updateable<TemplatesTable>): Promise<TemplateRow | undefined> {
  return db.updateTable('templates').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Claims a period for a market, inside the transaction that creates it; a second claim is a unique violation. */
export async function insertTemplateMarket(db: Db, row: { templateId: string; periodStart: Date; marketId: string }): Promise<void> {
  await db.insertInto('template_markets').values({ template_id: row.templateId, period_start: row.periodStart, market_id: row.marketId }).execute();
}

/** The period starts (ms) of the template that have a market, among `starts`. */
export async function findPublishedPeriods(db: Db, templateId: string, starts: Date[]): Promise<Set<number>> {
  if (starts.length === 0) return new Set();
  const rows = await db.selectFrom('template_markets').select('period_start').where('template_id', '=', templateId).where('period_start', 'in', starts).execute();
  return new Set(rows.map((r) => r.period_start.getTime()));
}

/** Whether the template has markets still DRAFT (created, not yet published: a tick was cut short). */
export async function hasDraftTemplateMarkets(db: Db, templateId: string): Promise<boolean> {
  const row = await db.selectFrom('template_markets as tm').innerJoin('markets as m', 'm.id', 'tm.market_id').select('m.id')
    .where('tm.template_id', '=', templateId).where('m.status', '=', 'DRAFT').limit(1).executeTakeFirst();
  return row !== undefined;
}
