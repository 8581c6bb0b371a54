/**
 * A pull feed: a provider the exchange asks for prices (Pyth's Hermes, Binance's klines). With
 * PRICE_FEED=manual there is none; the operator posts every price.
 */
export interface Observation {
  /** Price units of 10^-8 (core/prices.ts). */
  price: bigint;
  /** The provider's own time of the price. */
  atMs: number;
}

export interface PullFeed {
  readonly source: 'pyth' | 'binance';
  /** The provider's newest price of the pair; a stale one is refused (FeedError 'stale'). */
  latest(pair: string): Promise<Observation>;
  /** The provider's price of the pair at `atMs` (its first update at or after, or the minute's open). */
  at(pair: string, atMs: number): Promise<Observation>;
}

/** Why a feed call gave no price; the label of the `pmx_price_feed_errors_total` metric. */
export type FeedFailure = 'unavailable' | 'bad-answer' | 'stale' | 'unsupported-pair';

export class FeedError extends Error {
  override name = 'FeedError';
  constructor(readonly reason: FeedFailure, message: string) {
    super(message);
  }
}

/** A price older than this (against the server clock, or the time asked for) is stale. */
export const MAX_PRICE_AGE_MS = 60_000;
/** One provider request may take this long; a feed that hangs never holds a tick longer. */
const REQUEST_TIMEOUT_MS = 5_000;

/** GET a JSON document; network failures, timeouts and non-2xx answers become FeedError. */
export async function fetchJson(url: string, describeError: (status: number, body: unknown) => FeedError = httpError): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), headers: { accept: 'application/json' } });
  } catch (error) {
    throw new FeedError('unavailable', `${url}: ${(error as Error).message}`);
  }
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    if (response.ok) throw new FeedError('bad-answer', `${url}: not JSON`);
  }
  if (!response.ok) throw describeError(response.status, body);
  return body;
}

const httpError = (status: number) => new FeedError('unavailable', `HTTP ${status}`);

/** `base` + path, whether or not the configured base URL ends with a slash. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}${path}`;
