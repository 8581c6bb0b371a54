import type { AppContext } from '../context.ts';
import type { TypedApp } from '../typed-app.ts';
import { ExchangeSchema, JournalHeadSchema } from '../../contract/exchange.ts';
import { errorResponses } from '../../contract/common.ts';
import { RPC_PATH } from '../chain-rpc/routes.ts';

/**
 * GET /exchange: what a client needs to sign orders and HMACs (EXTENSIONS.md section 1), and the
 * chain (section 14). A wallet reaches an embedded chain through this server's /rpc, at the public
 * origin (PUBLIC_URL) or else the one the request came to; CHAIN_RPC_URL is never published, as it
 * may carry a provider's key.
 */
export function registerExchangeRoutes(api: TypedApp, ctx: AppContext): void {
  const { config } = ctx;
  api.get('/exchange', {
    // Configuration and the clock, no engine data: a client needs serverTime to sign its requests
    // even while the tables catch up with the journal (reads of engine data wait then, up to 503).
    config: { journalReads: 'none' },
    schema: { tags: ['exchange'], summary: 'Signing domain, collateral and server time', response: { 200: ExchangeSchema } },
  }, async (request) => ({
    chainId: config.chainId,
    eip712: { name: config.exchangeName, version: '1', verifyingContract: config.exchangeAddress },
    negRiskVerifyingContract: config.negRiskExchangeAddress,
    collateral: { symbol: 'USDC', decimals: 6, address: config.collateralAddress },
    conditionalTokens: config.conditionalTokensAddress,
    headerPrefix: config.headerPrefix,
    settlement: 'embedded',
    chain: { kind: ctx.chain.kind, chainId: ctx.chain.chainId, ...(ctx.chain.embedded ? { rpcUrl: `${config.publicUrls[0] ?? `${request.protocol}://${request.host}`}${RPC_PATH}` } : {}) },
    serverTime: ctx.clock.nowMs(),
  }));

  api.get('/journal/head', {
    config: { journalReads: 'none' },
    schema: {
      tags: ['exchange'],
      summary: "The last durable record of the engine's journal: its position, its chained hash and its time",
      description: 'Each record\'s hash is keccak-256 over the previous record\'s hash (32 bytes) followed by the record\'s text: anyone holding the journal can check that nothing was inserted before a position. Order commands name the record that made them durable in the `<headerPrefix>-journal-seq` header.',
      response: { 200: JournalHeadSchema, ...errorResponses(503) },
    },
  }, async () => {
    const head = await ctx.trading.engine.journalHead();
    return { seq: Number(head.seq), hash: head.hash, at: new Date(head.atMs).toISOString() };
  });
}
