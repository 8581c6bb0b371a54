import { complementPrice, PRICE_ONE } from '../money.ts';

/**
 * The two-sided quadratic liquidity score (EXTENSIONS.md section 5), in exact integers.
 *
 * Prices are millionths on the unified book (outcome 1's terms, core/book/README.md): a BUY of
 * token 2 at q is an ask at 1e6 − q. The midpoint of a bid at b and an ask at a is (a + b) / 2,
 * which may fall on half a millionth, so distances are kept doubled: `s2 = |a + b − 2p|`,
 * `v2 = 2v`. An order's score `((v − s) / v)² × size` is then `(v2 − s2)² × size / v2²`; the
 * divisor `v2²` is the same for every order of one market sample, so it is left out: scores are
 * only ever compared within one sample, where a common factor changes no share.
 */
const ONE = Number(PRICE_ONE);
/** The midpoint range, inclusive, where a single-sided maker still scores (one third). */
export const NORMAL_RANGE_LOW = 100_000;
export const NORMAL_RANGE_HIGH = 900_000;

export interface ScoringParams {
  /** `maxDistanceFromMid`, millionths. */
  maxDistanceMicros: number;
  /** `extremeMaxDistanceFromMid`, millionths: replaces `maxDistanceMicros` outside [0.10, 0.90]. */
  extremeMaxDistanceMicros: number;
  /** `minOrderSizeUsdc` in base units: the least remaining notional that qualifies. */
  minOrderSizeBaseUnits: bigint;
}

/** A resting order as the engine holds it, in its own token's terms. */
export interface RestingQuote {
  orderId: string;
  makerId: string;
  /** 0 for token 1, 1 for token 2. */
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  /** Price on its own token, millionths. */
  priceMicros: number;
  remainingBaseUnits: bigint;
}

export type BookSide = 'BID' | 'ASK';

export const bookSideOf = (q: Pick<RestingQuote, 'outcome' | 'side'>): BookSide =>
  (q.outcome === 0) === (q.side === 'BUY') ? 'BID' : 'ASK';

export const bookPriceOf = (q: Pick<RestingQuote, 'outcome' | 'priceMicros'>): number =>
  q.outcome === 0 ? q.priceMicros : complementPrice(q.priceMicros);

/** Remaining notional in base units: own price × remaining size (a SELL of 100 at 0.51 is 51). */
export const notionalBaseUnits = (q: Pick<RestingQuote, 'priceMicros' | 'remainingBaseUnits'>): bigint =>
  (BigInt(q.priceMicros) * q.remainingBaseUnits) / PRICE_ONE;

/** Twice the midpoint (best bid + best ask), or undefined when a side of the book is empty. */
export function doubledMidpoint(quotes: readonly RestingQuote[]): number | undefined {
  let bestBid = -1;
  let bestAsk = ONE + 1;
  for (const q of quotes) {
    const price = bookPriceOf(q);
    if (bookSideOf(q) === 'BID') bestBid = Math.max(bestBid, price);
    else bestAsk = Math.min(bestAsk, price);
  }
  return bestBid < 0 || bestAsk > ONE ? undefined : bestBid + bestAsk;
}

/** Whether the midpoint lies in [0.10, 0.90], where single-sided quotes still count. */
export const isNormalRange = (mid2: number): boolean => mid2 >= 2 * NORMAL_RANGE_LOW && mid2 <= 2 * NORMAL_RANGE_HIGH;

/** The distance limit that applies at this midpoint, millionths. */
export const distanceLimitMicros = (params: ScoringParams, mid2: number): number =>
  isNormalRange(mid2) ? params.maxDistanceMicros : params.extremeMaxDistanceMicros;

/**
 * The scaled score of one order at this midpoint, 0 when it does not qualify: closer than the
 * distance limit (strictly: at the limit the score is 0 anyway) and at least the minimum notional.
 */
export function orderScore(q: RestingQuote, params: ScoringParams, mid2: number): bigint {
  if (q.remainingBaseUnits <= 0n || notionalBaseUnits(q) < params.minOrderSizeBaseUnits) return 0n;
  const v2 = 2 * distanceLimitMicros(params, mid2);
  const s2 = Math.abs(mid2 - 2 * bookPriceOf(q));
  if (s2 >= v2) return 0n;
  const closeness = BigInt(v2 - s2);
  return closeness * closeness * q.remainingBaseUnits;
}

/**
 * Each maker's score in one sample, times 3 so the one-third rule stays an integer, as
 * EXTENSIONS.md section 5 words it: inside [0.10, 0.90] a two-sided maker scores the smaller of
 * Qbid and Qask and a single-sided one (the other side scoring 0) a third of its side; outside,
 * both sides are required: min(Qbid, Qask). Makers scoring 0 are left out. An empty side of the
 * book means no midpoint: nobody scores.
 */
export function makerScores(quotes: readonly RestingQuote[], params: ScoringParams): Map<string, bigint> {
  const scores = new Map<string, bigint>();
  const mid2 = doubledMidpoint(quotes);
  if (mid2 === undefined) return scores;
  const sides = new Map<string, { bid: bigint; ask: bigint }>();
  for (const q of quotes) {
    const score = orderScore(q, params, mid2);
    if (score === 0n) continue;
    const maker = sides.get(q.makerId) ?? { bid: 0n, ask: 0n };
    if (bookSideOf(q) === 'BID') maker.bid += score;
    else maker.ask += score;
    sides.set(q.makerId, maker);
  }
  const normal = isNormalRange(mid2);
  for (const [makerId, { bid, ask }] of sides) {
    const low = bid < ask ? bid : ask;
    const high = bid < ask ? ask : bid;
    const score = normal && low === 0n ? high : 3n * low;
    if (score > 0n) scores.set(makerId, score);
  }
  return scores;
}

