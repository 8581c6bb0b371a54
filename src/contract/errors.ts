/**
 * The one error catalogue (EXTENSIONS.md section 9). Every non-2xx body is
 * `{statusCode, error, code, message}`; codes are stable, statuses fixed per code.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  INVALID_SIGNATURE: 400,
  INSUFFICIENT_BALANCE: 400,
  POST_ONLY_WOULD_CROSS: 400,
  MARKET_NOT_TRADABLE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  // EXTENSIONS.md section 15: market-maker protection tripped; the key's new orders in the scope wait until frozenUntil.
  MMP_FROZEN: 409,
  // The three a connection's own limits answer (api/connection-limits.ts, api/app.ts).
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Order-rule codes are more specific than VALIDATION_FAILED but still 400 (section 9). */
export type OrderRuleCode = `ORDER_${string}`;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode | OrderRuleCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.statusCode = code in ERROR_STATUS ? ERROR_STATUS[code as ErrorCode] : 400;
    // Every 503 tells the client when to come back (EXTENSIONS.md sections 9 and 12).
    this.headers = this.statusCode === 503 && headers['retry-after'] === undefined ? { ...headers, 'retry-after': '1' } : headers;
  }
}

/** A command's outcome (the engine's: `ok`, or a refusal naming its error code), or that refusal thrown as the AppError it names. */
export function outcomeOrThrow<T extends { ok: true }>(outcome: T | { ok: false; code: string; message: string }): T {
  if (!outcome.ok) throw new AppError(outcome.code as ErrorCode, outcome.message);
  return outcome;
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const badRequest = (message: string) => new AppError('VALIDATION_FAILED', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const unauthorized = (message = 'missing or invalid credentials') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'this resource belongs to another user') => new AppError('FORBIDDEN', message);

/** The chain's failures reach the caller as a 503 whose message says what the chain did not do (the first line of its error). */
export const chainUnavailable = (what: string, error: unknown) => new AppError('SERVICE_UNAVAILABLE', `the chain did not ${what}: ${(error as Error).message.split('\n')[0]}`);

export async function onChainOr503<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw chainUnavailable(what, error);
  }
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
}

export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, error: STATUS_TEXT[statusCode] ?? 'Error', code, message };
}
