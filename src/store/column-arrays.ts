import { sql, type RawBuilder } from 'kysely';

/** The SQL type of each column a row carries: every column of the row, no other. */
export type ColumnTypes<Row> = { readonly [Column in keyof Row]-?: string };

/**
 * Many rows as one array parameter per column, for `unnest`. A multi-row VALUES list costs one
 * parameter per field (an engine batch of 480 orders is 15,360) for the driver to encode and for
 * the server to parse and plan; columns as arrays are a few dozen parameters whatever the number
 * of rows, and inserting orders this way took a quarter to a third less time per order on both
 * stores (src/engine/README.md, "A batch writes in one statement"). Every array travels as text[]
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

/** Rows as one array of PostgreSQL text per column (what `columnArrays` sends; the engine journal's encoding). */
export function columnTexts<Row>(rows: readonly Row[], types: ColumnTypes<Row>): Record<keyof Row, (string | null)[]> {
  const texts = {} as Record<keyof Row, (string | null)[]>;
  for (const name of Object.keys(types) as (keyof Row)[]) {
    const toText = types[name] === 'jsonb' ? asJson : asText;
    texts[name] = rows.map((row) => toText(row[name]));
  }
  return texts;
}

/**
 * The rows `columnTexts` encoded, each value back in the JavaScript type the store's drivers give
 * its column: int8 as bigint, numeric as its decimal text, int2/int4 as number, timestamptz as Date.
 */
export function rowsFromColumnTexts<Row>(texts: Partial<Record<string, (string | null)[]>>, types: ColumnTypes<Row>): Row[] {
  const names = Object.keys(types) as (keyof Row & string)[];
  const count = names.length === 0 ? 0 : (texts[names[0]!]?.length ?? 0);
  const rows: Record<string, unknown>[] = Array.from({ length: count }, () => ({}));
  for (const name of names) {
    const column = texts[name];
    if (column?.length !== count) throw new Error(`column ${name} holds ${column?.length ?? 0} values, not ${count}`);
    const fromText = FROM_TEXT[types[name]] ?? ((text: string) => text);
    column.forEach((text, i) => { rows[i]![name] = text === null ? null : fromText(text); });
  }
  return rows as Row[];
}

const FROM_TEXT: Record<string, (text: string) => unknown> = {
  bigint: BigInt,
  integer: Number,
  smallint: Number,
  boolean: (text) => text === 'true',
  timestamptz: (text) => new Date(text),
  jsonb: (text) => JSON.parse(text),
};

/** A value as the text PostgreSQL reads back as the same value (null stays null). */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}

/** A JSON column's value as JSON text: a string value is quoted, SQL NULL stays null. */
function asJson(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
