import type { AppContext } from '../context.ts';
import type { TypedApp } from '../typed-app.ts';
import { ExchangeSchema } from '../../contract/exchange.ts';

/** GET /exchange: what a client needs to sign orders and HMACs (EXTENSIONS.md section 1). */
export function registerExchangeRoutes(api: TypedApp, ctx: AppContext): void {
  const { config } = ctx;
  api.get('/exchange', {
    schema: { tags: ['exchange'], summary: 'Signing domain, collateral and server time', response: { 200: ExchangeSchema } },
  }, async () => ({
    chainId: config.chainId,
    eip712: { name: config.exchangeName, version: '1', verifyingContract: config.exchangeAddress },
    negRiskVerifyingContract: config.negRiskExchangeAddress,
    collateral: { symbol: 'USDC', decimals: 6, address: config.collateralAddress },
    conditionalTokens: config.conditionalTokensAddress,
    headerPrefix: config.headerPrefix,
    settlement: 'embedded',
    serverTime: ctx.clock.nowMs(),
  }));
}
