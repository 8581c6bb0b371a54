/**
 * The suite runs twice in CI, on PGlite and on PostgreSQL (DATABASE_URL). Files that test what the
 * store does not change (the clients above the API: the CLI, the packed SDK, the examples, the web
 * app in a browser; and the servers that pin the embedded store themselves) run in the PGlite run
 * only: on PostgreSQL they would run the same code again. Their `describe` takes this as `skip`.
 */
export function storeIndependent(what: string): string | false {
  return process.env.DATABASE_URL ? `${what}: the same on either store, tested in the PGlite suite` : false;
}
