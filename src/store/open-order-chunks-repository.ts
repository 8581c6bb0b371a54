import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { OpenOrderLine, OpenOrderRow } from './orders-repository.ts';
import type { OrderStatus } from './schema.ts';

/** Open orders per read of `openOrderChunks`. */
const OPEN_ORDERS_PER_READ = 100_000;

/**
 * Open orders, to rebuild the books after a restart: only the columns the engine keeps, in time
 * priority within each market (`book_seq`), in chunks read one after the other by keyset off
 * `orders_open_by_market` (market, book_seq), so the store never sorts them. The first read starts
 * at the call and each next one as soon as the previous arrives, so on PostgreSQL the store reads
 * the next chunk while this process builds books from the last.
 *
 * Each order is one comma-separated text line (no column it holds can contain a comma), and a
 * chunk one text of lines: both drivers pay per field, PGlite's protocol parser most (one field
 * per row instead of eighteen loads a million orders in seconds instead of a minute), and a chunk
 * from PGlite's thread crosses to this one as a single string, not a hundred thousand rows.
 */
export function openOrderChunks(db: Db, perRead = OPEN_ORDERS_PER_READ): AsyncGenerator<OpenOrderRow[]> {
  return chunksFrom(db, perRead, readOpenOrderLines(db, perRead));
}

async function* chunksFrom(db: Db, perRead: number, first: Promise<string[]>): AsyncGenerator<OpenOrderRow[]> {
  const parser = new OpenOrderLineParser();
  for (let reading: Promise<string[]> | undefined = first; reading; ) {
    const lines: string[] = await reading;
    const last: OpenOrderRow | undefined = lines.length === perRead ? parser.parse(lines.at(-1)!) : undefined;
    reading = last && readOpenOrderLines(db, perRead, last);
    yield lines.map((line) => parser.parse(line));
  }
}

/** One chunk of open orders after `after` (from the start without it), as text lines. */
function readOpenOrderLines(db: Db, perRead: number, after?: Pick<OpenOrderRow, 'market_id' | 'book_seq'>): Promise<string[]> {
  const read = sql<{ lines: string | null }>`
    SELECT string_agg(line, E'\n' ORDER BY market_id, book_seq) AS lines FROM (
      SELECT market_id, book_seq, concat_ws(',', id, user_id, account, market_id, token_id, outcome_index, side, order_type, post_only::int, status,
        price_micros, size_base_units, matched_base_units, expiration, fee_rate_bps, passive_fee_rate_bps, book_seq,
        coalesce((extract(epoch FROM delayed_until) * 1000)::bigint::text, '')) AS line
      FROM orders
      WHERE status IN ('PENDING', 'EXECUTING') ${after ? sql`AND (market_id, book_seq) > (${after.market_id}::uuid, ${after.book_seq}::bigint)` : sql``}
      ORDER BY market_id, book_seq LIMIT ${perRead}) AS chunk`.execute(db).then(({ rows }) => rows[0]?.lines?.split('\n') ?? []);
  // A read started ahead whose chunk is never asked for (the caller gave up) must not fail unhandled.
  read.catch(() => undefined);
  return read;
}

/**
 * Turns the text lines of `openOrderChunks` into the rows the engine keeps, sharing repeated
 * values. A restart keeps every open order in memory, and on a million of them the garbage
 * collector's copying and marking cost more than reading them: each order used to keep its whole
 * line alive (the fields split from it are slices of it) and a BigInt per amount. Here the id is
 * copied out of its line, and the values orders have in common (user, account, market, token,
 * status, type, price, size, expiration, amount matched) are one string or BigInt shared by
 * all of them, so the line dies at once and an order keeps about half the bytes it did.
 */
class OpenOrderLineParser {
  private readonly strings = new SharedValues<string>((text) => text);
  private readonly amounts = new SharedValues<bigint>(BigInt);

  parse(line: string): OpenOrderRow {
    const [id, userId, account, marketId, tokenId, outcome, side, type, postOnly, status, price, size, matched, expiration, takerFee, makerFee, bookSeq, delayedUntilMs] =
      line.split(',') as unknown as OpenOrderLine;
    const { strings, amounts } = this;
    return {
      id: flatCopy(id), user_id: strings.of(userId), account: strings.of(account), market_id: strings.of(marketId), token_id: strings.of(tokenId),
      outcome_index: Number(outcome), side: Number(side), order_type: strings.of(type) as OpenOrderRow['order_type'], post_only: postOnly === '1',
      status: strings.of(status) as OrderStatus, price_micros: amounts.of(price), size_base_units: amounts.of(size), matched_base_units: amounts.of(matched),
      expiration: amounts.of(expiration), fee_rate_bps: Number(takerFee), passive_fee_rate_bps: Number(makerFee), book_seq: BigInt(bookSeq),
      delayed_until: delayedUntilMs ? new Date(Number(delayedUntilMs)) : null,
    };
  }
}

/** At most this many distinct values are shared per kind; past it, new ones are made, not kept. */
const MAX_SHARED_VALUES = 100_000;

/** One value per distinct text, up to a bound: a restart's many orders share their common values. */
class SharedValues<T> {
  private readonly values = new Map<string, T>();

  constructor(private readonly make: (text: string) => T) {}

  of(text: string): T {
    const known = this.values.get(text);
    if (known !== undefined) return known;
    const key = flatCopy(text);
    const value = this.make(key);
    if (this.values.size < MAX_SHARED_VALUES) this.values.set(key, value);
    return value;
  }
}

/**
 * A copy of `text` that does not keep the string it was cut from alive. V8 represents a substring
 * (what `split` returns) as a view of its parent; concatenating makes a new string, and slicing
 * that flattens it into one of its own.
 */
function flatCopy(text: string): string {
  return ` ${text}`.slice(1);
}
