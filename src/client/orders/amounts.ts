import { OrderBuildError } from '../errors.ts';

/**
 * Exact order amounts from decimal strings (never floats): a price such as "0.42" and a token
 * size such as "10" become base units with the market's tick rules of EXTENSIONS.md section 11
 * applied, so an order the server would refuse for its price or size fails here, before any
 * request, with the code the server would answer.
 */
export type OrderSide = 'BUY' | 'SELL';

export interface OrderAmounts {
  makerAmount: bigint;
  takerAmount: bigint;
  /** The price in millionths (CreateOrder `priceUint`). */
  priceMicros: bigint;
  sizeBaseUnits: bigint;
}

const DECIMALS = 6;
const UNIT = 10n ** BigInt(DECIMALS);
/** The store keeps sizes as int8: larger amounts are refused (ORDER_AMOUNT_INVALID). */
const MAX_AMOUNT = 2n ** 63n - 1n;
const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** A non-negative decimal string as an exact fraction `units / 10^scale`, trailing zeros dropped. */
export function parseDecimal(text: string, field: string): { units: bigint; scale: number } {
  // A JavaScript number (0.1 + 0.2) is refused: it is how float prices sneak in.
  const match = typeof text === 'string' ? DECIMAL.exec(text) : null;
  if (!match || text.length > 80) throw new OrderBuildError('VALIDATION_FAILED', `${field} "${text}" is not a plain decimal string such as "0.42"`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return { units: BigInt(match[1]! + fraction), scale: fraction.length };
}

/** The decimals of a tick size: "0.01" → 2. */
export function tickDecimals(tickSize: string): number {
  const { units, scale } = parseDecimal(tickSize, 'tickSize');
  if (units !== 1n || scale < 1 || scale > 4) throw new OrderBuildError('VALIDATION_FAILED', `unsupported tick size ${tickSize}`);
  return scale;
}

export function orderAmounts(side: OrderSide, price: string, size: string, tickSize: string): OrderAmounts {
  const d = tickDecimals(tickSize);
  const p = parseDecimal(price, 'price');
  if (p.units === 0n || p.units >= 10n ** BigInt(p.scale)) throw new OrderBuildError('ORDER_PRICE_OUT_OF_RANGE', `price ${price} must be strictly between 0 and 1`);
  if (p.scale > d) throw new OrderBuildError('ORDER_PRICE_NOT_ON_TICK', `price ${price} is not a multiple of the market tick ${tickSize}`);
  const s = parseDecimal(size, 'size');
  if (s.scale > DECIMALS - d) {
    throw new OrderBuildError('ORDER_SIZE_NOT_ON_TICK', `size ${size} has more than ${DECIMALS - d} decimals, the most a market with tick ${tickSize} allows`);
  }
  const priceMicros = p.units * 10n ** BigInt(DECIMALS - p.scale);
  const sizeBaseUnits = s.units * 10n ** BigInt(DECIMALS - s.scale);
  const cost = (priceMicros * sizeBaseUnits) / UNIT;
  if (sizeBaseUnits === 0n) throw new OrderBuildError('ORDER_AMOUNT_INVALID', 'size must be above zero');
  if (sizeBaseUnits > MAX_AMOUNT || cost > MAX_AMOUNT) throw new OrderBuildError('ORDER_AMOUNT_INVALID', `size ${size} is too large`);
  const [makerAmount, takerAmount] = side === 'BUY' ? [cost, sizeBaseUnits] : [sizeBaseUnits, cost];
  return { makerAmount, takerAmount, priceMicros, sizeBaseUnits };
}
