import { formatUnits } from '../../core/money.ts';
import { userAccount, type BalanceRow } from '../../settlement/index.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { BalanceResponse, FaucetResponse } from '../../contract/account.ts';
import { AmountBody } from '../../contract/amount.ts';
import { errorResponses } from '../../contract/common.ts';
import { positiveAmount } from '../request-checks.ts';
import type { TypedApp } from '../typed-app.ts';
import type { DescribeTokens } from '../../catalogue/trading-lookups.ts';

/** Until the catalogue is wired in, no token is known, so balance rows list collateral only. */
export const describeNoTokens: DescribeTokens = async () => new Map();

const display = (row: BalanceRow) => ({ balance: formatUnits(row.balance), locked: formatUnits(row.locked), available: formatUnits(row.available) });

/** GET /account/balance, and POST /account/faucet when the server runs with the faucet (EXTENSIONS.md section 2). */
export function registerBalanceRoutes(api: TypedApp, ctx: AppContext, deps: { describeTokens?: DescribeTokens } = {}): void {
  const describeTokens = deps.describeTokens ?? describeNoTokens;

  api.get('/account/balance', {
    config: { auth: 'jwtOrApiKey' },
    schema: { tags: ['account'], summary: 'Collateral and outcome-token balances of the caller', security: [{ bearer: [] }, { apiKey: [] }], response: { 200: BalanceResponse, ...errorResponses(401) } },
  }, async (request) => {
    const balances = await ctx.settlement.balances(ctx.store.db, userAccount(requireCaller(request).proxyWallet));
    const described = balances.tokens.length ? await describeTokens(balances.tokens.map((t) => t.tokenId)) : new Map();
    const tokens = balances.tokens.flatMap((t) => {
      const info = described.get(t.tokenId);
      return info ? [{ tokenId: t.tokenId, marketId: info.marketId, outcome: info.outcome, ...display(t) }] : [];
    });
    return { collateral: display(balances.collateral), tokens };
  });

  if (!ctx.config.faucetEnabled) return;
  api.post('/account/faucet', {
    config: { auth: 'apiKey', engineCommand: true },
    schema: {
      tags: ['account'],
      summary: 'Credit test collateral to the caller (only on servers run with the faucet)',
      security: [{ apiKey: [] }],
      body: AmountBody,
      response: { 200: FaucetResponse, ...errorResponses(400, 401, 503) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    const amount = positiveAmount(request.body.amount);
    const { balance } = await ctx.trading.engine.moveBalances((tx) => ctx.settlement.credit(tx, { account: userAccount(caller.proxyWallet), amount, reason: 'FAUCET', ref: `faucet:${caller.userId}` }));
    return { balance: formatUnits(balance) };
  });
}
