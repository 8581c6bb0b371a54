import type { EngineOrder } from './types.ts';

/**
 * An open order as one line of a snapshot (`O`, snapshot-codec.ts), comma-separated, the key last:
 * id, user, account, market, token, outcome, side (0 buy), type, post-only, price, size, matched,
 * expiration, taker fee, maker fee, book position, created, status, speed bump end, updated, key,
 * and `u` after the key for an unsigned order (a signed one's line ends at the key, as every line
 * did before unsigned orders were told apart: such a snapshot reads as all signed).
 */
export function encodeOrderLine(o: EngineOrder): string {
  const line = [o.id, o.userId, o.account, o.marketId, o.tokenId, o.outcome, o.side === 'BUY' ? 0 : 1, o.type, o.postOnly ? 1 : 0, o.priceMicros, o.sizeBaseUnits,
    o.matchedBaseUnits, o.expirationSec, o.takerFeeBps, o.makerFeeBps, o.bookSeq, o.createdAtMs, o.status, o.delayedUntilMs ?? '', o.updatedAtMs, o.apiKey ?? ''].join(',');
  return o.unsigned ? `${line},u` : line;
}

const UNSIGNED_MARK = 'u'.charCodeAt(0);

/** Digits beyond which a decimal may not fit a double exactly (2^53 has 16): such amounts go through BigInt's own parser. */
const EXACT_DIGITS = 15;

/**
 * Reads the order lines of one snapshot: a restart reads a million of them, so each is parsed in
 * place (no split, no line copied), the values orders share are kept once (a user's id and
 * account, a market's and a token's id, a type, a status, a key; an amount), and an order's own
 * id is a copy of its own, so that no order keeps the snapshot's text alive.
 */
export class OrderLineReader {
  private readonly strings = new Map<string, string>();
  private readonly amounts = new Map<number, bigint>();
  private text = '';
  private at = 0;
  private end = 0;
  /** The field `field()` last passed over: [from, to) of `text`. */
  private from = 0;
  private to = 0;

  /** The order on `text` from `start` (after the `O`) to `end` (the line's end). */
  read(text: string, start: number, end: number): EngineOrder {
    this.text = text;
    this.at = start;
    this.end = end;
    const order: EngineOrder = {
      id: this.ownString(), userId: this.sharedString(), account: this.sharedString(), marketId: this.sharedString(), tokenId: this.sharedString(),
      outcome: this.number() as 0 | 1, side: this.number() === 0 ? 'BUY' : 'SELL', type: this.sharedString() as EngineOrder['type'], postOnly: this.number() === 1,
      priceMicros: this.number(), sizeBaseUnits: this.amount(), matchedBaseUnits: this.amount(), expirationSec: this.number(), takerFeeBps: this.number(),
      makerFeeBps: this.number(), bookSeq: this.bigint(), createdAtMs: this.number(), status: this.sharedString() as EngineOrder['status'],
      // A v1 snapshot's line ends before the key: placed by no key, as an empty field says.
      delayedUntilMs: this.optionalNumber(), updatedAtMs: this.number(), apiKey: this.at >= end ? null : this.sharedString() || null,
      // Read after the key (fields are read in the literal's order); every order keeps one shape, true or undefined.
      unsigned: this.at < end && this.text.charCodeAt(this.at) === UNSIGNED_MARK ? true : undefined,
    };
    this.text = '';
    return order;
  }

  /** Passes over the next field (up to its comma, or the line's end): `from` and `to` bound it, `at` is after it. */
  private field(): void {
    this.from = this.at;
    const comma = this.text.indexOf(',', this.from);
    this.to = comma === -1 || comma > this.end ? this.end : comma;
    this.at = this.to + 1;
  }

  private sharedString(): string {
    this.field();
    const { from, to } = this;
    const value = this.text.slice(from, to);
    const kept = this.strings.get(value);
    if (kept !== undefined) return kept;
    const own = copied(value);
    this.strings.set(own, own);
    return own;
  }

  private ownString(): string {
    this.field();
    const { from, to } = this;
    return copied(this.text.slice(from, to));
  }

  /** A non-negative decimal integer of at most EXACT_DIGITS digits, or NaN. */
  private digits(from: number, to: number): number {
    if (to - from > EXACT_DIGITS || to === from) return Number.NaN;
    let value = 0;
    for (let i = from; i < to; i++) {
      const digit = this.text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return Number.NaN;
      value = value * 10 + digit;
    }
    return value;
  }

  private number(): number {
    this.field();
    const { from, to } = this;
    const value = this.digits(from, to);
    return Number.isNaN(value) ? Number(this.text.slice(from, to)) : value;
  }

  private optionalNumber(): number | null {
    this.field();
    const { from, to } = this;
    if (from === to) return null;
    const value = this.digits(from, to);
    return Number.isNaN(value) ? Number(this.text.slice(from, to)) : value;
  }

  private bigint(): bigint {
    this.field();
    const { from, to } = this;
    const value = this.digits(from, to);
    return Number.isNaN(value) ? BigInt(this.text.slice(from, to)) : BigInt(value);
  }

  private amount(): bigint {
    this.field();
    const { from, to } = this;
    const value = this.digits(from, to);
    if (Number.isNaN(value)) return BigInt(this.text.slice(from, to));
    let kept = this.amounts.get(value);
    if (kept === undefined) {
      kept = BigInt(value);
      this.amounts.set(value, kept);
    }
    return kept;
  }
}

/**
 * A string of its own rather than a slice of a longer one (V8 keeps a slice of 13 characters or
 * more as a view of its parent: an order's id would keep a whole snapshot chunk alive).
 */
function copied(slice: string): string {
  return slice.length < 13 ? slice : Buffer.from(slice, 'utf8').toString('utf8');
}
