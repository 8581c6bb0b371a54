/**
 * A new embedded database starts from a template instead of an empty cluster. PGlite takes seconds
 * to create a cluster (initdb in WebAssembly) and then every migration runs; loading the build's
 * copy of a freshly migrated, empty database takes under one. The template holds the schema and
 * the rows the migrations insert, and nothing of any one exchange: keys, ids and the cluster key
 * are made at boot, after it is loaded. Migrations newer than the template run as usual on top.
 * The build writes it (scripts/build.mjs) and the server names it (src/server.ts); without a build
 * there is none, and PGlite creates the cluster as before.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Kysely } from 'kysely';
import { dataDirEmpty } from '../data-dir-lock.ts';
import type { Database } from './schema.ts';
import { migrateToLatest } from './migrate.ts';

/** Whether a database opened in `dataDir` starts from `template`: there is one, and no database yet (an in-memory one never has). */
export function startsFromTemplate(dataDir: string, template: string | undefined): template is string {
  if (template === undefined) return false;
  const empty = dataDir === 'memory://' || dataDirEmpty(dataDir);
  return empty && existsSync(template);
}

/** The template's bytes when a database opened in `dataDir` starts from it, else undefined. */
export function templateFor(dataDir: string, template: string | undefined): Uint8Array | undefined {
  return startsFromTemplate(dataDir, template) ? readFileSync(template) : undefined;
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
