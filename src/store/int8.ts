/**
 * PostgreSQL's type id of int8 (bigint), and its reading as a BigInt: both stores return such
 * columns as bigint, so amounts never pass through a float on their way out of SQL.
 */
export const INT8_OID = 20;

export function parseInt8(value: string): bigint {
  return BigInt(value);
}
