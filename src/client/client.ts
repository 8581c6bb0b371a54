import type { LocalAccount } from 'viem/accounts';
import { hmacSignature, type ApiKeyCredentials } from './hmac.ts';
import type { SignedTimestamps } from './server-clock.ts';
import { BookWatcher, type WatchBookOptions } from './realtime/book-watcher.ts';
import { UserFeed, type UserFeedOptions } from './realtime/user-feed.ts';
import { accountSection } from './sections/account.ts';
import { adminSection } from './sections/admin.ts';
import { authSection } from './sections/auth.ts';
import { bookSection } from './sections/book.ts';
import { eventsSection, marketsSection } from './sections/catalogue.ts';
import { heartbeatSection, mmpSection } from './sections/maker-safety.ts';
import type { ClientContext } from './sections/context.ts';
import { oracleSection } from './sections/oracle.ts';
import { ordersSection } from './sections/orders.ts';
import { portfolioSection } from './sections/portfolio.ts';
import { pricesSection } from './sections/prices.ts';
import { profilesSection } from './sections/profiles.ts';
import { rewardsSection } from './sections/rewards.ts';
import { tradesSection } from './sections/trades.ts';
import { Transport, type Credentials, type RetryPolicy } from './transport.ts';

export interface ClientOptions {
  /** The server's origin, e.g. http://127.0.0.1:3000 (paths get /api/v1 added). */
  baseUrl: string;
  /** API key, session token and/or admin token; sign-in and key creation fill them in too. */
  credentials?: Credentials;
  /** A viem account: signs in (SIWE) and signs orders (EIP-712). Without it orders go unsigned. */
  account?: LocalAccount;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
  /**
   * The last HMAC timestamp, shared by the clients of one key in different places (page loads of
   * one browser, through localStorage): each signs strictly after it, so the server never sees one
   * signature twice. Without it a client keeps its own timestamps unique, and a random spread makes
   * two clients' collisions unlikely but possible.
   */
  signedTimestamps?: SignedTimestamps;
}

/**
 * The typed SDK: one object with a section per part of the API. Sections are small factories over
 * one shared context, so a new capability is one more file and one more line here.
 */
export function createClient(options: ClientOptions) {
  const transport = new Transport({
    baseUrl: options.baseUrl,
    credentials: { ...options.credentials },
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.signedTimestamps ? { signedTimestamps: options.signedTimestamps } : {}),
  });
  const ctx: ClientContext = { transport, account: options.account, user: undefined };

  /** The `/user` handshake: HMAC over timestamp + "GET" + "/user", or the session token. */
  async function userAuth(): Promise<Record<string, unknown>> {
    const { apiKey, token } = transport.credentials;
    if (!apiKey) {
      if (token) return { token };
      throw new Error('client.user() needs API-key credentials or a sign-in session');
    }
    await transport.exchange();
    const timestamp = String(transport.clock.uniqueTimestampMs());
    return { apiKey: apiKey.apiKey, passphrase: apiKey.passphrase, timestamp, signature: await hmacSignature(apiKey.secret, timestamp, 'GET', '/user', '') };
  }

  return {
    /** Signing domain, collateral, header prefix and server time (GET /exchange), cached. */
    exchange: () => transport.exchange(),
    /** What the client currently authenticates with. */
    get credentials(): Readonly<Credentials> {
      return transport.credentials;
    },
    /** Uses these API-key credentials from now on (e.g. loaded from a config file). */
    useApiKey(creds: ApiKeyCredentials): void {
      transport.credentials.apiKey = creds;
    },
    auth: authSection(ctx),
    account: accountSection(ctx),
    events: eventsSection(ctx),
    markets: marketsSection(ctx),
    orders: ordersSection(ctx),
    book: bookSection(ctx),
    trades: tradesSection(ctx),
    portfolio: portfolioSection(ctx),
    oracle: oracleSection(ctx),
    rewards: rewardsSection(ctx),
    profiles: profilesSection(ctx),
    prices: pricesSection(ctx),
    admin: adminSection(ctx),
    /** The heartbeat dead-man's switch of the API key: `start(timeoutMs)`, `stop()`, `send()`. */
    heartbeat: heartbeatSection(ctx),
    /** Market-maker protection of the API key: `set`, `list`, `remove`. */
    mmp: mmpSection(ctx),
    /** Local order books kept in sync over Socket.IO; call `close()` when done. */
    watchBook: (tokenIds: readonly string[], watchOptions?: WatchBookOptions) => new BookWatcher(transport.baseUrl, tokenIds, watchOptions),
    /**
     * The caller's `order-update`, `trade-update`, `user-reward-claim-update` and `mmp-triggered`
     * messages. `cancelOnDisconnect` (API key only): the server cancels the key's open orders when
     * this feed's socket drops and does not reconnect within 2 s (EXTENSIONS.md section 15).
     */
    user: (feedOptions?: UserFeedOptions) => new UserFeed(transport.baseUrl, userAuth, feedOptions),
  };
}

export type ExchangeClient = ReturnType<typeof createClient>;
