import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.ts';
import { proxyTrust } from '../config.ts';
import { formatValidationErrors } from './validation-messages.ts';
import { errorHandler } from './error-handler.ts';
import { registerNulGuard } from './nul-guard.ts';
import { hostHeaderServerOptions, registerHostHeaderCheck } from './host-header.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { registerCompilers } from './validation.ts';
import { registerAuth } from './auth/plugin.ts';
import { RequestLimits } from './limits/request-limits.ts';
import { RollingLimit } from './limits/rolling-limit.ts';
import type { UserAuthenticator } from '../identity/caller.ts';
import { registerHttpMetrics } from './ops/metrics.ts';
import { registerExchangeMetrics } from './ops/exchange-metrics.ts';
import { registerStoreMetrics } from './ops/store-metrics.ts';
import { registerChainMetrics } from './ops/chain-metrics.ts';
import { registerOpsRoutes } from './ops/routes.ts';
import { registerDocs } from './docs.ts';
import { registerExchangeRoutes } from './exchange/routes.ts';
import { registerChainRpcRoutes } from './chain-rpc/routes.ts';
import { registerClockRoutes } from './admin/clock-routes.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerAccountRoutes } from './account/routes.ts';
import { registerBalanceRoutes } from './account/balance-routes.ts';
import { registerWithdrawRoutes } from './account/withdraw-routes.ts';
import { WalletRelays } from './wallet-relays.ts';
import { registerCreditRoutes } from './admin/credit-routes.ts';
import { registerCatalogueAdminRoutes } from './admin/catalogue-routes.ts';
import { registerEventRoutes } from './catalogue/event-routes.ts';
import { registerMarketRoutes } from './catalogue/market-routes.ts';
import { registerMakerSafetyRoutes } from './makers/routes.ts';
import { registerOrderCommandRoutes } from './orders/command-routes.ts';
import { registerOrderEventsRoutes } from './orders/events-routes.ts';
import { registerOrderQueryRoutes } from './orders/query-routes.ts';
import { registerOrderBookRoutes } from './prices/order-book-routes.ts';
import { registerSplitRoutes } from './markets/split-routes.ts';
import { registerTradeRoutes } from './trades/routes.ts';
import { registerActivityRoutes } from './markets/activity-routes.ts';
import { registerHolderRoutes } from './markets/holders-routes.ts';
import { registerEventPositionRoutes } from './markets/event-positions-routes.ts';
import { registerPriceHistoryRoutes } from './prices/price-history-routes.ts';
import { registerRedeemRoutes } from './markets/redeem-routes.ts';
import { registerMergeRoutes } from './markets/merge-routes.ts';
import { registerUserActivityRoutes } from './markets/user-activity-routes.ts';
import { registerPositionRoutes } from './portfolio/position-routes.ts';
import { registerProfileRoutes } from './profiles/profile-routes.ts';
import { registerOracleRoutes } from './oracle/routes.ts';
import { registerOracleAdminRoutes } from './admin/oracle-routes.ts';
import { registerRewardAdminRoutes } from './admin/reward-routes.ts';
import { registerRewardRoutes } from './rewards/routes.ts';
import { registerReferencePriceRoutes } from './prices/reference-routes.ts';
import { registerPriceAdminRoutes } from './admin/price-routes.ts';
import { registerTemplateAdminRoutes } from './admin/template-routes.ts';
import type { TypedApp } from './typed-app.ts';
import { registerCommandForwarding } from '../cluster/command-forwarding.ts';
import { registerClusterMetrics } from '../cluster/metrics.ts';
import { registerWebApp } from './web/plugin.ts';
import { registerJournalReads } from './journal-reads.ts';
import { clientErrorCounter, connectionTimeouts, trackHandledRequests } from './connection-limits.ts';

export const API_PREFIX = '/api/v1';

const handledRequests = new WeakMap<object, { readonly count: number }>();

/** How many requests of an app built by `buildApp` are being handled now (a stop drains them). */
export function handledRequestCount(app: object): number {
  return handledRequests.get(app)?.count ?? 0;
}

export interface AppDependencies {
  users: UserAuthenticator;
  /** No log line per request (Fastify's `incoming request` and `request completed`). */
  quietRequestLogs?: boolean | undefined;
  /** Shared by every node of one database: a follower signs the client address it passes on with it. */
  clusterSecret: string;
}

/**
 * Builds the HTTP application: error handling, auth, metrics, OpenAPI and every route module.
 * It does not listen; `src/server.ts` does.
 */
export async function buildApp(ctx: AppContext, deps: AppDependencies): Promise<TypedApp> {
  const clientErrors = clientErrorCounter();
  const timeouts = connectionTimeouts(ctx.config.requestTimeoutMs);
  // Given to Node's server at its creation (Fastify's `http` option).
  const nodeServer = { http: { ...timeouts.http, ...hostHeaderServerOptions } };
  const options: FastifyServerOptions = {
    // Slow clients: a request arrives whole within REQUEST_TIMEOUT_MS, idle keep-alive is bounded.
    ...timeouts,
    ...nodeServer,
    clientErrorHandler: clientErrors.handler,
    loggerInstance: ctx.logger,
    ...(deps.quietRequestLogs ? { logController: new LogController({ disableRequestLogging: true }) } : {}),
    bodyLimit: 1024 * 1024,
    // Path parameters up to 500 characters reach their routes (slugs are up to 120, profile names
    // are looked up as given: an unknown one is 404); the router's own errors (a longer parameter,
    // a malformed URL) get the error-catalogue body instead of Fastify's.
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: errorHandler,
    schemaErrorFormatter: formatValidationErrors,
    // TRUST_PROXY: request.ip is the rightmost X-Forwarded-For address not added by a trusted
    // proxy (a hop count or the proxies' addresses; `true` is one hop), never the leftmost, which
    // the client writes itself.
    trustProxy: proxyTrust(ctx.config.trustProxy),
  };
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();
  app.setErrorHandler(errorHandler);
  // The not-found handler too: pages go to the web app's index.html, everything else the JSON 404.
  await registerWebApp(app);
  registerCompilers(app);
  await registerSecurityHeaders(app);
  registerNulGuard(app);
  registerHostHeaderCheck(app);
  const { rateLimitOrders: orders, rateLimitRequests: requests, rateLimitPublic } = ctx.config;
  const limits = new RequestLimits(ctx.sharedState.counters, ctx.clock, { orders, requests, public: rateLimitPublic });
  registerAuth(app, { adminToken: ctx.config.adminToken, users: deps.users, limits });
  const registry = registerHttpMetrics(app);
  clientErrors.register(registry);
  handledRequests.set(app, trackHandledRequests(app));
  registerExchangeMetrics(registry, ctx.events, ctx.trading.engine, ctx.clock);
  registerStoreMetrics(registry, ctx.store);
  registerChainMetrics(registry, ctx.chain, ctx.config);
  const clusterMetrics = registerClusterMetrics(registry, ctx.leadership);
  // Before any parsing or auth: a node without the engine passes order commands on untouched.
  registerCommandForwarding(app, { clusterSecret: deps.clusterSecret, leadership: ctx.leadership, timeoutMs: Math.max(10_000, 2 * ctx.config.failoverTimeoutMs), onForwarded: clusterMetrics.forwarded });
  for (const metric of ctx.prices.metrics) registry.registerMetric(metric);

  await registerDocs(app, ctx);

  registerOpsRoutes(app, ctx, registry);
  registerChainRpcRoutes(app, ctx);
  // Order commands and every request that moves balances reach the engine's node (forwarded above), so its count is each wallet's.
  const relaysPerHour = ctx.config.walletRelaysPerHour;
  const hourlyRelays = relaysPerHour > 0 ? new RollingLimit(ctx.sharedState.counters, ctx.clock, { counted: 'relays', limit: relaysPerHour, windowMs: 3_600_000, refusal: `this wallet had ${relaysPerHour} transactions relayed on chain in the last hour, the most WALLET_RELAYS_PER_HOUR allows (the operator pays each one's gas)` }) : undefined;
  const walletRelays = new WalletRelays(ctx.chain.operator !== undefined, hourlyRelays);
  await app.register(async (api: TypedApp) => {
    registerJournalReads(api, ctx.trading.engine);
    registerExchangeRoutes(api, ctx);
    registerClockRoutes(api, ctx);
    registerAuthRoutes(api, ctx);
    registerAccountRoutes(api, ctx);
    registerBalanceRoutes(api, ctx);
    registerWithdrawRoutes(api, ctx, walletRelays);
    registerCreditRoutes(api, ctx);
    registerEventRoutes(api, ctx);
    registerMarketRoutes(api, ctx);
    registerCatalogueAdminRoutes(api, ctx);
    registerOrderCommandRoutes(api, ctx);
    registerMakerSafetyRoutes(api, ctx);
    registerOrderEventsRoutes(api, ctx);
    registerOrderQueryRoutes(api, ctx);
    registerOrderBookRoutes(api, ctx);
    registerSplitRoutes(api, ctx, walletRelays);
    registerTradeRoutes(api, ctx);
    registerHolderRoutes(api, ctx);
    registerActivityRoutes(api, ctx);
    registerEventPositionRoutes(api, ctx);
    registerPriceHistoryRoutes(api, ctx);
    registerRedeemRoutes(api, ctx, walletRelays);
    registerMergeRoutes(api, ctx, walletRelays);
    registerUserActivityRoutes(api, ctx);
    registerRewardAdminRoutes(api, ctx);
    registerRewardRoutes(api, ctx);
    registerPositionRoutes(api, ctx);
    registerProfileRoutes(api, ctx);
    registerOracleRoutes(api, ctx);
    registerOracleAdminRoutes(api, ctx);
    registerReferencePriceRoutes(api, ctx);
    registerPriceAdminRoutes(api, ctx);
    registerTemplateAdminRoutes(api, ctx);
  }, { prefix: API_PREFIX });
  return app;
}
