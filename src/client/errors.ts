/**
 * The SDK's thrown errors. `ExchangeError` is any non-2xx answer, carrying the error body of
 * EXTENSIONS.md section 9; `OrderBuildError` is an order the SDK refuses before any request,
 * with the order-rule code the server would answer for it.
 */
export interface ErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
}

export class ExchangeError extends Error {
  override readonly name = 'ExchangeError';
  /** HTTP status of the answer; 0 when the call was never sent (code MISSING_CREDENTIALS). */
  readonly status: number;
  /** Stable upper-snake-case code (VALIDATION_FAILED, UNAUTHORIZED, NOT_FOUND, ORDER_…). */
  readonly code: string;
  readonly method: string;
  readonly path: string;
  /** Seconds from the Retry-After header of a 429 or 503, when sent. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: { status: number; code: string; message: string; method: string; path: string; retryAfterSeconds?: number }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.method = init.method;
    this.path = init.path;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

export class OrderBuildError extends Error {
  override readonly name = 'OrderBuildError';
  /** The code the server answers for the same order (ORDER_PRICE_NOT_ON_TICK, VALIDATION_FAILED, …). */
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The error body when `body` is one, so a proxy's HTML page still becomes a typed error. */
export function asErrorBody(body: unknown): Partial<ErrorBody> {
  if (body === null || typeof body !== 'object') return {};
  const { code, message } = body as Record<string, unknown>;
  return { ...(typeof code === 'string' ? { code } : {}), ...(typeof message === 'string' ? { message } : {}) };
}
