import { sql, type RawBuilder } from 'kysely';

/** The SQL type of each column a row carries: every column of the row, no other. */
export type ColumnTypes<Row> = { readonly [Column in keyof Row]-?: string };

/**
 * Many rows as one array parameter per column, for `unnest`. A multi-row VALUES list costs one
 * parameter per field (an engine batch of 480 orders is 15,360) for the driver to encode and for
 * the server to parse and plan; columns as arrays are a few dozen parameters whatever the number
 * of rows, and inserting orders this way took a quarter to a third less time per order on both
 * stores (docs/engine-measurements.md, "A batch writes in one statement"). Every array travels as text[]
 * and is cast to its column's type in SQL, so both drivers encode them alike whatever the values'
 * JavaScript types.
 */
export function columnArrays<Row>(rows: readonly Row[], types: ColumnTypes<Row>): { columns: RawBuilder<unknown>; arrays: RawBuilder<unknown> } {
  const names = Object.keys(types) as (keyof Row & string)[];
  const texts = columnTexts(rows, types);
  return {
    columns: sql.join(names.map((name) => sql.ref(name))),
    arrays: sql.join(names.map((name) => sql`${texts[name]}::text[]::${sql.raw(types[name])}[]`)),
  };
}

/** Rows as one array of PostgreSQL text per column (what `columnArrays` sends). */
function columnTexts<Row>(rows: readonly Row[], types: ColumnTypes<Row>): Record<keyof Row, (string | null)[]> {
  const texts = {} as Record<keyof Row, (string | null)[]>;
  for (const name of Object.keys(types) as (keyof Row)[]) {
    const toText = types[name] === 'jsonb' ? asJson : asText;
    texts[name] = rows.map((row) => toText(row[name]));
  }
  return texts;
}

/** A value as the text PostgreSQL reads back as the same value (null stays null). */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}

/** A JSON column's value as JSON text: a string value is quoted, SQL NULL stays null. */
function asJson(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
