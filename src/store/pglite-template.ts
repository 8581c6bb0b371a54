import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { migrateToLatest } from './migrate.ts';

/**
 * A new embedded database starts from a template instead of an empty cluster. PGlite takes seconds
 * to create a cluster (initdb in WebAssembly) and then every migration runs; loading the build's
 * copy of a freshly migrated, empty database takes under one. The template holds the schema and
 * the rows the migrations insert, and nothing of any one exchange: keys, ids and the cluster key
 * are made at boot, after it is loaded. Migrations newer than the template run as usual on top.
 *
 * Built, the store sits in dist/server/ and the build writes the template to dist/ (below). Run from
 * source there is none, and PGlite creates the cluster as before.
 */
export const PGLITE_TEMPLATE = new URL('../pglite-template.tar.gz', import.meta.url);

/** The template's bytes when there is one and `dataDir` holds no database yet, else undefined. */
export function templateFor(dataDir: string, template: URL = PGLITE_TEMPLATE): Blob | undefined {
  const empty = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  if (!empty || !existsSync(template)) return undefined;
  return new Blob([readFileSync(template)]);
}

/** Writes the template: an in-memory PGlite brought to the latest migration, dumped gzipped. */
export async function writePgliteTemplate(file: string): Promise<void> {
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([import('@electric-sql/pglite'), import('kysely-pglite-dialect')]);
  const pglite = new PGlite('memory://');
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  try {
    await migrateToLatest(db);
    const dump = await pglite.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
  }
}
