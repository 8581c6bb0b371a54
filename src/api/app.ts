import Fastify, { type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.ts';
import { errorHandler } from './errors.ts';
import { registerNulGuard } from './nul-guard.ts';
import { registerAuth } from './auth/plugin.ts';
import type { UserAuthenticator } from './auth/types.ts';
import { registerHttpMetrics } from './ops/metrics.ts';
import { registerOpsRoutes } from './ops/routes.ts';
import { registerExchangeRoutes } from './exchange/routes.ts';
import { registerClockRoutes } from './admin/clock-routes.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerAccountRoutes } from './account/routes.ts';
import type { DescribeTokens } from '../catalogue/trading-lookups.ts';
import { registerBalanceRoutes } from './account/balance-routes.ts';
import { registerCreditRoutes } from './admin/credit-routes.ts';
import { registerCatalogueAdminRoutes } from './admin/catalogue-routes.ts';
import { registerEventRoutes } from './catalogue/event-routes.ts';
import { registerMarketRoutes } from './catalogue/market-routes.ts';
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
import type { TypedApp } from './typed-app.ts';
import { registerWebApp } from './web/plugin.ts';

export const API_PREFIX = '/api/v1';

export interface AppDependencies {
  users: UserAuthenticator;
  /** Market and outcome of tokens for balance rows (the catalogue); without it only collateral shows. */
  describeTokens?: DescribeTokens;
}

/**
 * Builds the HTTP application: error handling, auth, metrics, OpenAPI and every route module.
 * It does not listen; `src/server.ts` does.
 */
export async function buildApp(ctx: AppContext, deps: AppDependencies): Promise<TypedApp> {
  const options: FastifyServerOptions = {
    loggerInstance: ctx.logger,
    bodyLimit: 1024 * 1024,
    // Path parameters up to 500 characters reach their routes (slugs are up to 120, profile names
    // are looked up as given: an unknown one is 404); the router's own errors (a longer parameter,
    // a malformed URL) get the error-catalogue body instead of Fastify's.
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: errorHandler,
    ajv: { customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false } },
  };
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();
  app.setErrorHandler(errorHandler);
  // The not-found handler too: pages go to the web app's index.html, everything else the JSON 404.
  await registerWebApp(app);
  registerNulGuard(app);
  registerAuth(app, { adminToken: ctx.config.adminToken, users: deps.users });
  const registry = registerHttpMetrics(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `${ctx.config.exchangeName} API`, version: '1.0.0', description: 'Binary-outcome prediction-market exchange. Contract: SPEC.md and EXTENSIONS.md.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Sign-in JWT, or the admin token on admin routes' },
          apiKey: { type: 'apiKey', in: 'header', name: `${ctx.config.headerPrefix}-api-key`, description: 'API key HMAC: also send the signature, timestamp and passphrase headers' },
        },
      },
    },
  });
  await app.register(scalar, { routePrefix: '/docs', configuration: { url: '/openapi.json' } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerOpsRoutes(app, ctx, registry);
  await app.register(async (api: TypedApp) => {
    registerExchangeRoutes(api, ctx);
    registerClockRoutes(api, ctx);
    registerAuthRoutes(api, ctx);
    registerAccountRoutes(api, ctx);
    registerBalanceRoutes(api, ctx, { describeTokens: deps.describeTokens });
    registerCreditRoutes(api, ctx);
    registerEventRoutes(api, ctx);
    registerMarketRoutes(api, ctx);
    registerCatalogueAdminRoutes(api, ctx);
    registerOrderCommandRoutes(api, ctx);
    registerOrderEventsRoutes(api, ctx);
    registerOrderQueryRoutes(api, ctx);
    registerOrderBookRoutes(api, ctx);
    registerSplitRoutes(api, ctx);
    registerTradeRoutes(api, ctx);
    registerHolderRoutes(api, ctx);
    registerActivityRoutes(api, ctx);
    registerEventPositionRoutes(api, ctx);
    registerPriceHistoryRoutes(api, ctx);
    registerRedeemRoutes(api, ctx);
    registerMergeRoutes(api, ctx);
    registerUserActivityRoutes(api, ctx);
    registerRewardAdminRoutes(api, ctx);
    registerRewardRoutes(api, ctx);
    registerPositionRoutes(api, ctx);
    registerProfileRoutes(api, ctx);
    registerOracleRoutes(api, ctx);
    registerOracleAdminRoutes(api, ctx);
  }, { prefix: API_PREFIX });
  return app;
}
