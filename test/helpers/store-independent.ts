/**
 * The suite runs twice in CI, on PGlite and on PostgreSQL (DATABASE_URL). Files that test what the
 * store does not change (the clients above the API: the CLI, the packed SDK, the examples, the web
 * app in a browser; the servers that pin the embedded store themselves; the embedded store's own
 * driver, template and jobs) run in one of the two
 * runs only: on the other they would run the same code again. Their `describe` takes this as
 * `skip`. They run in the PGlite run (the README's `npm test`), except the groups named in
 * STORE_INDEPENDENT_ON_POSTGRESQL (comma-separated, say `the CLI`), which CI moves to the
 * PostgreSQL run so that the two runs, side by side, end at about the same time.
 */
export function storeIndependent(what: string): string | false {
  const onPostgresql = (process.env.STORE_INDEPENDENT_ON_POSTGRESQL ?? '').split(',').map((group) => group.trim()).includes(what);
  if (onPostgresql) return process.env.DATABASE_URL ? false : `${what}: the same on either store, tested in the PostgreSQL suite (STORE_INDEPENDENT_ON_POSTGRESQL)`;
  return process.env.DATABASE_URL ? `${what}: the same on either store, tested in the PGlite suite` : false;
}
