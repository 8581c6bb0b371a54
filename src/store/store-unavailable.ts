/** Socket errors of a database host that cannot be reached. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that cannot take a query now, whatever the query: a connection exception
 * (class 08), a server shutting down, crashed or starting up (57P01 to 57P03), no connection
 * slot left (53300).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300)$/;

/**
 * What node-postgres says of a connection it lost or could not open (its errors carry no code),
 * and of one closed under a statement that had no answer in time (database.ts): the transaction's
 * rollback then finds it closed.
 */
const LOST_CONNECTION = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * Whether an error says the database cannot be reached now (its host down or restarting, the
 * connection cut), rather than anything about the query: a request that fails so can be retried as
 * it is, and is answered 503, not 500. Looks through `cause` and an AggregateError's errors (one per
 * address tried).
 */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
  if (Array.isArray(errors) && errors.length > 0 && errors.every((each) => isStoreUnavailable(each, depth + 1))) return true;
  return isStoreUnavailable(cause, depth + 1);
}
