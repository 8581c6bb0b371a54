/** Bounded walks over paginated routes: the iteration stops at `maxPages` whatever the server says. */
const DEFAULT_MAX_PAGES = 1_000;

/** Page-number pagination: fetches page 1, 2, ... while `hasMore` says so, yielding each item. */
export async function* paginate<P, T>(fetchPage: (page: number) => Promise<P>, items: (page: P) => T[], hasMore: (page: P) => boolean, maxPages = DEFAULT_MAX_PAGES): AsyncGenerator<T> {
  for (let page = 1; page <= maxPages; page++) {
    const result = await fetchPage(page);
    const rows = items(result);
    yield* rows;
    if (rows.length === 0 || !hasMore(result)) return;
  }
}

/** Cursor pagination: follows `nextCursor` until it is null. */
export async function* followCursor<P extends { nextCursor: string | null; data: T[] }, T>(fetchPage: (cursor: string | undefined) => Promise<P>, maxPages = DEFAULT_MAX_PAGES): AsyncGenerator<T> {
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    yield* result.data;
    if (!result.nextCursor) return;
    cursor = result.nextCursor;
  }
}

/** Where the next page of a newest-first keyset route starts: strictly before this row. */
export interface BeforeKey {
  before: number;
  beforeId: string;
}

/** Keyset pagination newest-first (`before` + `beforeId` of the last row) while `hasMore`. */
export async function* walkBackwards<P extends { data: T[]; hasMore: boolean }, T>(fetchPage: (key: BeforeKey | undefined) => Promise<P>, keyOf: (row: T) => BeforeKey, maxPages = DEFAULT_MAX_PAGES): AsyncGenerator<T> {
  let key: BeforeKey | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(key);
    yield* result.data;
    const last = result.data.at(-1);
    if (!result.hasMore || !last) return;
    key = keyOf(last);
  }
}
