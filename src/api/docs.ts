import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from './context.ts';
import { hmacRecipe } from './hmac-recipe.ts';
import type { TypedApp } from './typed-app.ts';

/**
 * What each section of the reference is for (OpenAPI tags, in the order a reader meets them).
 * A route's tag must be one of these: the docs test checks that every tag in use is described.
 */
export const OPENAPI_TAGS = [
  { name: 'exchange', description: 'What a client needs before anything else: chain id, EIP-712 domain, collateral, header prefix and server time (EXTENSIONS.md section 1).' },
  { name: 'auth', description: 'Sign in with a wallet (EIP-4361) for a session token, then create, list and revoke the API keys that sign trading requests (EXTENSIONS.md section 2, SPEC.md section 5).' },
  { name: 'account', description: "The caller's account: profile fields, balances (collateral and outcome tokens, locked and available) and the faucet of test deployments, and withdrawals on the wallet owner's signature." },
  { name: 'events', description: 'Browse the catalogue: events with their markets, filtered by category, tag, end date, liquidity and volume (SPEC.md 4.1).' },
  { name: 'markets', description: 'Markets and what happens in them: market details and volume, holders, market activity, and turning collateral into outcome tokens and back (split, merge, redeem) (SPEC.md 4.2).' },
  { name: 'orders', description: 'Trading: place signed orders one by one or in batches, cancel them, and list your own (SPEC.md 4.4). API-key HMAC only.' },
  { name: 'market-makers', description: "Market makers' safety, per API key: a heartbeat dead-man's switch, and market-maker protection (MMP) that cancels a key's orders in a market or event when its fills there come too fast. The third tool, cancel on disconnect, is the `/user` socket's `auth.cancelOnDisconnect` (EXTENSIONS.md section 15)." },
  { name: 'prices', description: "Order books, last trade prices and price history of outcome tokens (SPEC.md 4.5). Public." },
  { name: 'trades', description: 'Public trades and the confirmed trade-activity tape, newest first (SPEC.md 4.6).' },
  { name: 'portfolio', description: "The caller's positions with P&L, portfolio value, activity, and the positions that can be redeemed or merged (SPEC.md 4.3)." },
  { name: 'rewards', description: "Maker rewards: the caller's earnings and claims, the public reward pools and the leaderboard (SPEC.md 4.7)." },
  { name: 'profiles', description: 'Public trader profiles by display name: summary, P&L history, positions and activity, never a wallet address (SPEC.md 4.8).' },
  { name: 'oracle', description: 'Resolution: how a market resolves, and proposing or disputing an outcome with a bond (EXTENSIONS.md section 4).' },
  { name: 'admin', description: "The operator's API (admin bearer token): catalogue, credits, oracle decisions, reward configuration and, in tests, the manual clock (EXTENSIONS.md section 3)." },
  { name: 'chain', description: 'The JSON-RPC endpoint of the embedded chain, through which a browser wallet reads the chain and sends the transactions it signed (EXTENSIONS.md section 14).' },
  { name: 'operations', description: 'Health, readiness and Prometheus metrics for whoever runs the exchange (EXTENSIONS.md sections 7 and 12).' },
];

/** The origin the caller used, so that curl samples of the reference carry a full URL. */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * The OpenAPI document at /openapi.json and its interactive reference at /docs. The reference is
 * served whole by this server and asks nothing of any other host: no web fonts (the system's
 * fonts are used), no AI agent, no MCP or hosted API-client buttons, no developer toolbar.
 */
export async function registerDocs(app: TypedApp, ctx: AppContext): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `${ctx.config.exchangeName} API`, version: '1.0.0', description: `Binary-outcome prediction-market exchange. Contract: SPEC.md and EXTENSIONS.md (docs/spec in the repository).\n\n${hmacRecipe(ctx.config.headerPrefix)}` },
      tags: OPENAPI_TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Sign-in JWT, or the admin token on admin routes' },
          apiKey: { type: 'apiKey', in: 'header', name: `${ctx.config.headerPrefix}-api-key`, description: `API key HMAC: also send the signature, timestamp and passphrase headers.\n\n${hmacRecipe(ctx.config.headerPrefix)}` },
        },
      },
    },
  });
  await app.register(scalar, {
    routePrefix: '/docs',
    configuration: {
      url: '/openapi.json',
      withDefaultFonts: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      agent: { disabled: true },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async (request) => ({ ...app.swagger(), servers: [{ url: originOf(request), description: 'this server, as you reached it' }] }));
}
