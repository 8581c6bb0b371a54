import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { PoolClient } from 'pg';

/** The comment that opens a statement `prepared` marked. */
const MARK = '/* pmx:prepared */ ';

/**
 * Marks a statement that runs at every engine batch (the journal's append, the projection) or for
 * every turn of signed requests (the credential checks): on PostgreSQL each connection parses and
 * plans it once, then executes it by name. Such a statement's
 * text must depend on nothing but its shape (values are parameters), so that its shapes are few.
 * PGlite reads the mark as the comment it is.
 */
export function prepared<T>(query: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(MARK)}${query}`;
}

/**
 * Sends the statements `prepared` marked as named ones (node-postgres prepares a name on a
 * connection at its first use, and executes it by name after that); every other statement as it
 * came. Without this, each batch's statement was parsed and planned again: about a fifth of what
 * PostgreSQL spent on the projection, per order (docs/engine-measurements.md).
 */
export function namePreparedStatements(client: PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((text: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || !text.startsWith(MARK)) return query(text, ...rest);
    const [values, ...callback] = rest;
    return query({ name: nameOf(text), text, values }, ...callback);
  }) as typeof client.query;
}

const nameOf = (text: string) => `pmx_${createHash('sha1').update(text).digest('base64url')}`;
