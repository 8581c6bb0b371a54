import { badRequest } from '../contract/errors.ts';
import type { ActivityKeyset, ActivitySortKey, SortOrder } from '../store/market-data-activity-repository.ts';

/**
 * Activity keyset cursors: the last row's sort value and key, with the sort they belong to. Public
 * data, so the cursor is opaque but unsigned; what matters is that a cursor the server could not
 * have issued (or one of another sort) is a 400, never SQL on unchecked text.
 */
export interface ActivityCursor extends ActivityKeyset {
  sort: ActivitySortKey;
  order: SortOrder;
}

const DIGITS = /^[0-9]{1,40}$/;
/** A trade row's key (`<uuid>:t` or `:m`) or a ledger row's (`<transaction hash>:<market uuid>`). */
const ROW_KEY = /^([0-9a-f-]{36}:[tm]|0x[0-9a-f]{64}:[0-9a-f-]{36})$/;

export function encodeActivityCursor(c: ActivityCursor): string {
  return Buffer.from(JSON.stringify([c.sort, c.order, c.value, c.key])).toString('base64url');
}

/** The cursor's keyset, or a 400 when it is malformed or was issued for another sort or order. */
export function decodeActivityCursor(text: string, sort: ActivitySortKey, order: SortOrder): ActivityKeyset {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor was not issued by this server');
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw badRequest('cursor was not issued by this server');
  const [cursorSort, cursorOrder, value, key] = parsed as unknown[];
  if (typeof value !== 'string' || !DIGITS.test(value) || typeof key !== 'string' || !ROW_KEY.test(key)) {
    throw badRequest('cursor was not issued by this server');
  }
  if (cursorSort !== sort || cursorOrder !== order) throw badRequest('cursor belongs to another sortBy or order');
  return { value, key };
}
