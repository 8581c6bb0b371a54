import type { Insertable, Selectable } from 'kysely';
import type { Db } from './database.ts';
import type { CategoriesTable, TagsTable } from './schema.ts';

/** Categories and tags, and their assignment to events. */
export type CategoryRow = Selectable<CategoriesTable>;
export type TagRow = Selectable<TagsTable>;

export async function insertCategory(db: Db, row: Insertable<CategoriesTable>): Promise<CategoryRow> {
  return db.insertInto('categories').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Inserts a tag; undefined when its slug is taken (tag slugs are unique). */
export async function insertTag(db: Db, row: Insertable<TagsTable>): Promise<TagRow | undefined> {
  return db.insertInto('tags').values(row).onConflict((oc) => oc.column('slug').doNothing()).returningAll().executeTakeFirst();
}

/** Every category, by position then name (the operator makes a handful; no paging). */
export async function listCategories(db: Db): Promise<CategoryRow[]> {
  return db.selectFrom('categories').selectAll().orderBy('position').orderBy('name').orderBy('id').execute();
}

/** Every tag, by slug. */
export async function listTags(db: Db): Promise<TagRow[]> {
  return db.selectFrom('tags').selectAll().orderBy('slug').execute();
}

export async function findCategoryIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('categories').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function findTagIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('tags').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function assignEventTaxonomy(db: Db, eventId: string, categoryIds: string[], tagIds: string[]): Promise<void> {
  if (categoryIds.length > 0) await db.insertInto('event_categories').values(categoryIds.map((category_id) => ({ event_id: eventId, category_id }))).execute();
  if (tagIds.length > 0) await db.insertInto('event_tags').values(tagIds.map((tag_id) => ({ event_id: eventId, tag_id }))).execute();
}

/** The categories of each event, by position then name. */
export async function findCategoriesOfEvents(db: Db, eventIds: string[]): Promise<Array<CategoryRow & { event_id: string }>> {
  if (eventIds.length === 0) return [];
  return db.selectFrom('event_categories as ec').innerJoin('categories as c', 'c.id', 'ec.category_id')
    .selectAll('c').select('ec.event_id').where('ec.event_id', 'in', eventIds)
    .orderBy('c.position').orderBy('c.name').execute();
}

/** The tags of each event, by slug. */
export async function findTagsOfEvents(db: Db, eventIds: string[]): Promise<Array<TagRow & { event_id: string }>> {
  if (eventIds.length === 0) return [];
  return db.selectFrom('event_tags as et').innerJoin('tags as t', 't.id', 'et.tag_id')
    .selectAll('t').select('et.event_id').where('et.event_id', 'in', eventIds)
    .orderBy('t.slug').execute();
}
