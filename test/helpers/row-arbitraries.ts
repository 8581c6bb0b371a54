import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { OrderRow } from '../../src/store/orders-repository.ts';

/**
 * Order and trade rows with every column drawn to its limits, for the store's round trips
 * (column arrays, the engine journal): whatever text a value holds, it must come back as written.
 */

// PostgreSQL's text cannot hold NUL; everything else may come through the API. Half the values are
// made of what an array literal must escape or quote (quotes, backslashes, commas, braces, spaces,
// the word NULL), which arbitrary graphemes would almost never hold.
const arrayLiteralSyntax = fc.string({ unit: fc.constantFrom('"', '\\', ',', '{', '}', ' ', 'NULL', 'a'), maxLength: 8 });
export const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\u0000')), arrayLiteralSyntax);
export const int8 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const uint256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String);
// Timestamps as the store keeps them: to the microsecond, so milliseconds round-trip.
const time = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true });
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v).replace(/\\u0000/g, '')) as unknown);

export const order = fc.record({
  account: text, market_id: fc.uuid(), token_id: text, outcome_index: fc.integer({ min: -32768, max: 32767 }), side: fc.constantFrom(0, 1),
  order_type: fc.constantFrom('GTC', 'FOK', 'FAK'), post_only: fc.boolean(), status: fc.constantFrom('PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED', 'REJECTED'),
  price_micros: int8, size_base_units: int8, matched_base_units: int8, salt: text, maker: text, signer: text, taker: text, maker_amount: uint256,
  taker_amount: uint256, expiration: int8, nonce: uint256, fee_rate_bps: fc.integer(), passive_fee_rate_bps: fc.integer(), signature_type: fc.integer({ min: 0, max: 2 }),
  signature: text, idempotency_key: fc.option(fc.uuid(), { nil: null }), metadata: fc.option(json, { nil: null }), book_seq: int8,
  delayed_until: fc.option(time, { nil: null }), created_at: time, updated_at: time,
});
/** Keys are made for each run, not drawn: a shrunk run inserts its rows again. */
export const fresh = (orders: Omit<OrderRow, 'id' | 'user_id' | 'hash'>[], userId: string): OrderRow[] =>
  orders.map((o) => ({ ...o, id: randomUUID(), user_id: userId, hash: `0x${randomUUID()}`, idempotency_key: o.idempotency_key && randomUUID() }));

export const trade = fc.record({
  market_id: fc.uuid(), kind: fc.constantFrom('TRANSFER', 'MINT', 'MERGE'), status: fc.constantFrom('MATCHED', 'MINED', 'CONFIRMED', 'FAILED'), token_id: text,
  side: fc.constantFrom(0, 1), price_micros: int8, size_base_units: int8, notional_base_units: int8, maker_token_id: text, maker_side: fc.constantFrom(0, 1),
  maker_price_micros: int8, taker_order_id: fc.uuid(), maker_order_id: fc.uuid(), taker_user_id: fc.uuid(), maker_user_id: fc.uuid(), taker_wallet: text,
  maker_wallet: text, taker_fee_base_units: int8, maker_fee_base_units: int8, tx_hash: fc.option(text, { nil: null }), matched_at: time,
  mined_at: fc.option(time, { nil: null }), confirmed_at: fc.option(time, { nil: null }),
});
