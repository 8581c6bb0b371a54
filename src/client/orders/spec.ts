import { OrderBuildError } from '../errors.ts';
import type { OrderSpec } from './build.ts';

/**
 * An order spec checked field by field at run time, before anything is signed or sent: callers
 * in plain JavaScript (or with `as any`) otherwise slip through, and a `side` of 'buy' used to
 * become a SELL. Price and size are checked as decimal strings by `orderAmounts`. Every refusal
 * is VALIDATION_FAILED, the code the server answers for the same mistake in a CreateOrder.
 */
const FIELDS = new Set(['tokenId', 'side', 'price', 'size', 'type', 'postOnly', 'expiration', 'idempotencyKey']);
const ORDER_TYPES = ['GTC', 'FOK', 'FAK'];
const TOKEN_ID = /^[0-9]{1,78}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalid = (message: string) => new OrderBuildError('VALIDATION_FAILED', message);
const show = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));

export function checkOrderSpec(spec: unknown): asserts spec is OrderSpec {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) throw invalid('an order spec must be an object {tokenId, side, price, size}');
  const fields = spec as Record<string, unknown>;
  // An unknown field is most likely a misspelt one (`orderType`, `amount`) whose intent would be lost.
  const unknown = Object.keys(fields).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0) throw invalid(`unknown order spec field ${unknown.join(', ')}; the fields are ${[...FIELDS].join(', ')}`);
  const { tokenId, side, type, postOnly, expiration, idempotencyKey } = fields;
  if (typeof tokenId !== 'string' || !TOKEN_ID.test(tokenId)) throw invalid(`tokenId ${show(tokenId)} is not a numeric string`);
  if (side !== 'BUY' && side !== 'SELL') throw invalid(`side ${show(side)} must be exactly 'BUY' or 'SELL'`);
  if (type !== undefined && !ORDER_TYPES.includes(type as string)) throw invalid(`type ${show(type)} must be one of ${ORDER_TYPES.join(', ')}`);
  if (postOnly !== undefined && typeof postOnly !== 'boolean') throw invalid(`postOnly ${show(postOnly)} must be true or false`);
  if (expiration !== undefined && (typeof expiration !== 'number' || !Number.isSafeInteger(expiration) || expiration < 0)) {
    throw invalid(`expiration ${show(expiration)} must be Unix seconds or 0`);
  }
  if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !UUID.test(idempotencyKey))) {
    throw invalid(`idempotencyKey ${show(idempotencyKey)} must be a UUID`);
  }
}
