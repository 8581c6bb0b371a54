import { formatUnits } from '../../core/money.ts';
import type { BalanceView } from '../../engine/engine-reads.ts';
import { spendingApproval, type Approval } from '../../engine/state/wallet-approvals.ts';
import { userAccount } from '../../settlement/index.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { BalanceResponse, FaucetResponse } from '../../contract/account.ts';
import { AmountBody } from '../../contract/amount.ts';
import { errorResponses } from '../../contract/common.ts';
import { positiveAmount } from '../request-checks.ts';
import type { TypedApp } from '../typed-app.ts';
import { creditThroughChain } from './credit-on-chain.ts';

const display = (row: BalanceView) => ({ balance: formatUnits(row.balance), locked: formatUnits(row.locked), available: formatUnits(row.available) });

/**
 * GET /account/balance, and POST /account/faucet when the server runs with the faucet (EXTENSIONS.md
 * section 2). Balances are the engine's: read from its memory, every durable change in them.
 */
export function registerBalanceRoutes(api: TypedApp, ctx: AppContext): void {
  const { engine } = ctx.trading;

  api.get('/account/balance', {
    config: { auth: 'jwtOrApiKey' },
    schema: { tags: ['account'], summary: 'Collateral and outcome-token balances of the caller', security: [{ bearer: [] }, { apiKey: [] }], response: { 200: BalanceResponse, ...errorResponses(401) } },
  }, async (request) => {
    const account = userAccount(requireCaller(request).proxyWallet);
    await engine.caughtUp();
    const balances = engine.reads.balances(account);
    // `available` is what the wallet holds and has approved to the exchange, less what its open
    // orders reserve (EXTENSIONS.md section 14): none while the approval it is spent through is
    // revoked on chain. Withdrawals, splits and merges need no approval, and read the engine's own.
    const revoked = engine.reads.revokedApprovals(account);
    const approved = (row: BalanceView, approval: Approval): BalanceView => (revoked.includes(approval) ? { ...row, available: 0n } : row);
    const tokens = balances.tokens.flatMap((t) => {
      const market = engine.reads.marketOfToken(t.tokenId);
      if (!market) return [];
      return [{ tokenId: t.tokenId, marketId: market.info.id, outcome: market.outcome === 0 ? market.info.outcome1 : market.info.outcome2, ...display(approved(t, spendingApproval(market.info))) }];
    });
    return { collateral: display(approved(balances.collateral, spendingApproval('collateral'))), tokens };
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
    const { balance } = await creditThroughChain(ctx, 'faucet', { id: caller.userId, address: caller.address, proxyWallet: caller.proxyWallet }, amount);
    return { balance: formatUnits(balance) };
  });
}
