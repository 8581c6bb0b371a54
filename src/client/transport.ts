import { asErrorBody, ExchangeError } from './errors.ts';
import { hmacHeaders, type ApiKeyCredentials } from './hmac.ts';
import { ServerClock, type SignedTimestamps } from './server-clock.ts';
import type { ExchangeInfo } from './types.ts';

/**
 * The one place the SDK talks HTTP: URLs and query strings, credentials per route, typed errors,
 * clock sync for HMACs, and retries. Section objects (`client.orders`, ...) only name routes.
 */
export const API_PREFIX = '/api/v1';

/**
 * How a route authenticates (the server's `config.auth` modes, seen from the client).
 * `optionalUser`: public, but the session token or else the API key is sent when the client has one.
 */
export type RouteAuth = 'public' | 'optionalUser' | 'apiKey' | 'jwt' | 'jwtOrApiKey' | 'admin';

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;
export type Query = Record<string, QueryValue>;

export interface CallOptions {
  query?: Query;
  body?: unknown;
  auth?: RouteAuth;
  /**
   * True when sending the call twice cannot do anything twice (reads, cancels, an order with its
   * idempotency key): only such calls are retried after 429 or 503.
   */
  idempotent?: boolean;
}

export interface RetryPolicy {
  /** Attempts after the first; 0 turns retries off. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** What the client holds to authenticate; sign-in and key creation fill it in. */
export interface Credentials {
  apiKey?: ApiKeyCredentials;
  /** A sign-in JWT (`Authorization: Bearer`). */
  token?: string;
  /** The operator's ADMIN_TOKEN, for `client.admin`. */
  adminToken?: string;
}

export interface TransportOptions {
  baseUrl: string;
  credentials: Credentials;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
  /** Shared with other clients of the same key, so that their HMAC timestamps never coincide (server-clock.ts). */
  signedTimestamps?: SignedTimestamps;
}

const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 200, maxDelayMs: 5_000 };
const RETRIED_STATUSES = new Set([429, 503]);

export class Transport {
  readonly baseUrl: string;
  readonly credentials: Credentials;
  readonly clock: ServerClock;
  private readonly retry: RetryPolicy;
  private readonly fetchImpl: typeof fetch;
  private exchangeInfo: Promise<ExchangeInfo> | undefined;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.credentials = options.credentials;
    this.clock = new ServerClock(options.signedTimestamps);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** GET /exchange, fetched once (and again by `refreshExchange`); it also syncs the clock. */
  exchange(): Promise<ExchangeInfo> {
    this.exchangeInfo ??= this.refreshExchange();
    return this.exchangeInfo;
  }

  async refreshExchange(): Promise<ExchangeInfo> {
    // Retried like any read; the clock syncs on the round trip of the attempt that answered.
    const promise = this.withRetries('GET', { auth: 'public' }, async () => {
      const sentAt = Date.now();
      const info = await this.send<ExchangeInfo>('GET', '/exchange', { auth: 'public' });
      this.clock.sync(info.serverTime, Date.now() - sentAt);
      return info;
    });
    this.exchangeInfo = promise;
    promise.catch(() => { if (this.exchangeInfo === promise) this.exchangeInfo = undefined; });
    return promise;
  }

  /**
   * One API call. A 401 on an HMAC-signed call is retried once after re-reading the server's
   * clock (the server refused it before doing anything); 429 and 503 are retried with backoff
   * when the call is idempotent, honouring Retry-After.
   */
  call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    return this.withRetries(method, options, () => this.send<T>(method, path, options));
  }

  private async withRetries<T>(method: string, options: CallOptions, attempt: () => Promise<T>): Promise<T> {
    let resynced = false;
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof ExchangeError)) throw error;
        if (error.status === 401 && !resynced && this.usesApiKey(options.auth)) {
          resynced = true;
          await this.refreshExchange();
          continue;
        }
        if (!RETRIED_STATUSES.has(error.status) || !(options.idempotent ?? method === 'GET') || tries >= this.retry.retries) throw error;
        await sleep(this.backoffMs(tries, error.retryAfterSeconds));
      }
    }
  }

  private usesApiKey(auth: RouteAuth | undefined): boolean {
    return (auth === 'apiKey' || auth === 'jwtOrApiKey' || auth === 'optionalUser') && this.credentials.apiKey !== undefined && !(auth !== 'apiKey' && this.credentials.token);
  }

  private backoffMs(attempt: number, retryAfterSeconds: number | undefined): number {
    if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, this.retry.maxDelayMs);
    const exponential = Math.min(this.retry.baseDelayMs * 2 ** attempt, this.retry.maxDelayMs);
    return exponential / 2 + Math.random() * (exponential / 2);
  }

  private async send<T>(method: string, path: string, options: CallOptions): Promise<T> {
    const wirePath = `${API_PREFIX}${path}`;
    const bodyText = options.body === undefined ? '' : JSON.stringify(options.body);
    const headers: Record<string, string> = { accept: 'application/json', ...(await this.authHeaders(options.auth ?? 'public', method, wirePath, bodyText)) };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.fetchImpl(`${this.baseUrl}${wirePath}${queryString(options.query)}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: bodyText } : {}),
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : safeJson(text);
    if (response.ok) return parsed as T;
    const { code, message } = asErrorBody(parsed);
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ExchangeError({
      status: response.status,
      code: code ?? `HTTP_${response.status}`,
      message: message ?? (text.slice(0, 200) || response.statusText),
      method,
      path: wirePath,
      ...(Number.isFinite(retryAfter) && response.headers.has('retry-after') ? { retryAfterSeconds: retryAfter } : {}),
    });
  }

  private async authHeaders(auth: RouteAuth, method: string, wirePath: string, bodyText: string): Promise<Record<string, string>> {
    const { apiKey, token, adminToken } = this.credentials;
    if (auth === 'public' || (auth === 'optionalUser' && !apiKey && !token)) return {};
    if (auth === 'admin') return { authorization: `Bearer ${required(adminToken, 'an admin token')}` };
    if (auth === 'jwt' || ((auth === 'jwtOrApiKey' || auth === 'optionalUser') && token)) return { authorization: `Bearer ${required(token, 'a sign-in session (client.auth.signIn)')}` };
    const creds = required(apiKey, 'API-key credentials (client.auth.createApiKey or credentials.apiKey)');
    const { headerPrefix } = await this.exchange();
    return hmacHeaders(creds, headerPrefix, this.clock.uniqueTimestampMs(), method, wirePath, bodyText);
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new ExchangeError({ status: 0, code: 'MISSING_CREDENTIALS', message: `this call needs ${what}`, method: '', path: '' });
  return value;
}

/** Repeated parameters for arrays (EXTENSIONS.md section 11 accepts both forms); undefined is left out. */
export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
