import type { Catalogue } from '../catalogue/index.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Identity } from '../identity/index.ts';
import type { Store } from '../store/database.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Trading } from '../orders/index.ts';
import type { MarketData } from '../market-data/index.ts';
import type { Oracle } from '../oracle/index.ts';
import type { Rewards } from '../rewards/index.ts';
import type { Portfolio } from '../portfolio/index.ts';
import type { Prices } from '../prices/index.ts';
import type { Templates } from '../templates/index.ts';
import type { Logger } from 'pino';
import type { BookReads } from '../book-reads.ts';
import type { Leadership } from '../cluster/leadership.ts';
import type { SharedState } from '../shared-state/index.ts';
import type { BackgroundJob } from '../jobs/background-job.ts';
import type { OperatorPayers, PaymentIntents, RunningChain } from '../chain/index.ts';
import type { ConditionalTokens } from '../conditional-tokens/index.ts';

/**
 * Everything a route handler may use, built once at boot by `src/server.ts`. Handlers stay thin:
 * they validate, check the caller, and call a service or repository through this object.
 */
export interface AppContext {
  readonly config: Config;
  readonly clock: Clock;
  readonly store: Store;
  /** The fixed id that admin-created rows carry as `createdBy` (one per deployment). */
  readonly operatorUserId: string;
  /** Sign-in, API keys and credential checks (src/identity). */
  readonly identity: Identity;
  /** Balances, reservations and trade settlement (src/settlement). */
  /** Events, markets, categories and tags (src/catalogue). */
  readonly catalogue: Catalogue;
  /** The engine and the order services (src/orders). */
  readonly trading: Trading;
  /** The live books and last trade prices: the engine's, wherever it runs (src/book-reads.ts). */
  readonly books: BookReads;
  /** Public trades, trade activity, price history, holders, market activity, event positions. */
  readonly marketData: MarketData;
  /** The optimistic oracle, platform resolution and redemption (src/oracle). */
  readonly oracle: Oracle;
  /** Maker liquidity rewards: configuration, sampling, daily close, claims, reads (src/rewards). */
  readonly rewards: Rewards;
  /** Projected positions and P&L: portfolio positions and value, public profiles (src/portfolio). */
  readonly portfolio: Portfolio;
  /** Reference prices, price targets and their resolution (src/prices). */
  readonly prices: Prices;
  /** Recurring market templates and their publishing job (src/templates). */
  readonly templates: Templates;
  /** Committed work is announced here; the real-time module listens. */
  readonly events: DomainEvents;
  /** The declared background jobs (src/background-jobs.ts), in the order POST /admin/clock ticks them. */
  readonly jobs: readonly BackgroundJob[];
  readonly logger: Logger;
  /** Whether this node runs the matching engine, and where it is when not (src/cluster). */
  readonly leadership: Leadership;
  /** The chain trades settle on (CHAIN, EXTENSIONS.md section 14): its kind, id, contracts and the embedded anvil. */
  readonly chain: RunningChain;
  /** Split, merge and redeem of users' positions: on a chain, through their wallets first; and resolutions reported on chain. */
  readonly conditionalTokens: ConditionalTokens;
  /** The operator's payments on a chain, each sent once per key (credits, claims, oracle payouts); undefined on CHAIN=none. */
  readonly payers: OperatorPayers | undefined;
  /** The records of the operator's payments (chain_payment_intents), which withdrawals are sent through too; undefined on CHAIN=none. */
  readonly paymentIntents: PaymentIntents | undefined;
  /** What every node shares (Redis with REDIS_URL): the counters of rate limits and the claim limit, and whether Redis answers. */
  readonly sharedState: Pick<SharedState, 'counters' | 'answers'>;
  /** Flips to true once the store is migrated and the engine has loaded its books. */
  ready: boolean;
}
