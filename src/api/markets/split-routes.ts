import { formatUnits } from '../../core/money.ts';
import { findMarketById } from '../../store/catalogue-markets-repository.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound, outcomeOrThrow } from '../../contract/errors.ts';
import { AmountBody } from '../../contract/amount.ts';
import { errorResponses, MarketIdParams } from '../../contract/common.ts';
import { SplitResponse } from '../../contract/portfolio.ts';
import { positiveAmount } from '../request-checks.ts';
import type { TypedApp } from '../typed-app.ts';
import type { WalletRelays } from '../wallet-relays.ts';

/**
 * POST /markets/{marketId}/split (EXTENSIONS.md section 2): collateral becomes the same amount of
 * both outcome tokens. ACTIVE markets only; a paused market still splits (pausing stops order
 * entry, not the conditional-token operations). With a chain, the wallet splits on chain first
 * and `txHash` is that transaction's (src/conditional-tokens/).
 */
export function registerSplitRoutes(api: TypedApp, ctx: AppContext, relays: WalletRelays): void {
  api.post('/markets/:marketId/split', {
    config: { auth: 'apiKey', engineCommand: true },
    schema: {
      tags: ['markets'],
      summary: 'Split collateral into a complete set of both outcome tokens',
      security: [{ apiKey: [] }],
      params: MarketIdParams,
      body: AmountBody,
      response: { 200: SplitResponse, ...errorResponses(400, 401, 404, 429, 503) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    const amount = positiveAmount(request.body.amount);
    const market = await findMarketById(ctx.store.db, request.params.marketId);
    if (!market || market.status === 'DRAFT') throw notFound('market');
    if (market.status !== 'ACTIVE' || market.is_resolved || !market.condition_id || !market.token_id1 || !market.token_id2) {
      throw new AppError('MARKET_NOT_TRADABLE', `market ${market.id} is ${market.status}; only ACTIVE markets split`);
    }
    const split = outcomeOrThrow(await relays.one(caller.proxyWallet, () => ctx.conditionalTokens.operations.split(caller, market.id, amount)));
    return { txHash: split.txHash, amount: formatUnits(amount) };
  });
}
