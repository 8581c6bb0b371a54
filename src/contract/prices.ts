import { Type } from 'typebox';
import { DateTime, PageNumber } from './common.ts';
import { PAIR_PATTERN } from './formats.ts';

/** Order books, last trade prices and price history (SPEC.md section 4.5); reference prices (EXTENSIONS.md section 13). */

/** Reference prices: positive decimals of at most 8 decimals (core/prices.ts parses them). */
export const PriceText = Type.String({ pattern: '^(0|[1-9][0-9]{0,10})(\\.[0-9]{1,8})?$', description: 'decimal, at most 8 decimals' });

export const PairText = Type.String({ pattern: PAIR_PATTERN, description: 'BASE/QUOTE, e.g. BTC/USD' });

export const TokenQuery = Type.Object({ token_id: Type.String({ pattern: '^[0-9]{1,78}$', description: 'outcome token id' }) });

const LevelSchema = Type.Object({ price: Type.String(), size: Type.String(), numOrders: Type.Optional(Type.Integer()) });

export const OrderBookSchema = Type.Object({
  market: Type.String({ format: 'uuid' }),
  asset_id: Type.String(),
  hash: Type.String({ description: 'sha256 of the market, the token and every level (price, size), best first' }),
  timestamp: Type.Integer({ description: 'Unix milliseconds' }),
  bids: Type.Array(LevelSchema, { description: 'best (highest) first' }),
  asks: Type.Array(LevelSchema, { description: 'best (lowest) first' }),
  tick_size: Type.String(),
});

export const LastTradePriceSchema = Type.Object({ price: Type.String(), side: Type.Union([Type.Literal('buy'), Type.Literal('sell')]) });

// Unions written out, not mapped from arrays: the SDK's request types come from this schema, and
// TypeScript cannot follow a mapped array into a union of literals.
export const PriceHistoryQuery = Type.Object({
  token: Type.String({ pattern: '^[0-9]{1,78}$', description: 'outcome token id' }),
  interval: Type.Union([Type.Literal('1H'), Type.Literal('6H'), Type.Literal('1D'), Type.Literal('1W'), Type.Literal('1M'), Type.Literal('ALL')]),
  fidelity: Type.Integer({ minimum: 1, maximum: 1440, description: 'minutes per point; above the interval maximum it is clamped unless strictFidelity' }),
  page: PageNumber,
  limit: Type.Integer({ minimum: 1, maximum: 1440, default: 10 }),
  total: Type.Boolean({ default: true }),
  strictFidelity: Type.Boolean({ default: false }),
  sortBy: Type.Union([Type.Literal('timestamp'), Type.Literal('price')], { default: 'timestamp' }),
  order: Type.Union([Type.Literal('ASC'), Type.Literal('DESC')], { default: 'ASC' }),
});

export const PriceHistorySchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Union([Type.Integer(), Type.Null()]),
  pageCount: Type.Union([Type.Integer(), Type.Null()]),
  totalCapped: Type.Optional(Type.Boolean()),
  data: Type.Array(Type.Object({ t: Type.Integer({ description: 'bucket start, Unix seconds' }), p: Type.String() })),
});

export const ReferencePriceSchema = Type.Object({
  pair: Type.String(),
  price: Type.String({ description: 'decimal' }),
  at: DateTime,
  source: Type.Union([Type.Literal('manual'), Type.Literal('pyth'), Type.Literal('binance')]),
});

/** GET /prices/reference: the last price at or before `at` (default now). */
export const ReferencePriceQuery = Type.Object({ pair: PairText, at: Type.Optional(DateTime) });
