import { privateKeyToAccount } from 'viem/accounts';
import type { CreateOrderInput, OrderCaller, OrderMarket } from '../../src/core/orders/create-order-rules.ts';
import { deriveProxyWallet } from '../../src/core/proxy-wallet.ts';

/** Shared fixtures of the order-rule and order-signature tests. */
export const PRIVATE_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
export const account = privateKeyToAccount(PRIVATE_KEY);
export const caller: OrderCaller = { address: account.address, proxyWallet: deriveProxyWallet(account.address) };
export const ZERO = '0x0000000000000000000000000000000000000000';
export const OTHER = '0x1111111111111111111111111111111111111111';
export const NOW_SEC = 1_764_000_000;

export const TOKEN_1 = (2n ** 255n + 11n).toString();
export const TOKEN_2 = (2n ** 200n + 7n).toString();

export const market: OrderMarket = {
  id: '5b4c4a0e-3c9b-4f7e-9f0e-2f2d0b1b7a11',
  status: 'ACTIVE',
  isPaused: false,
  isResolved: false,
  tokenId1: TOKEN_1,
  tokenId2: TOKEN_2,
  tickSize: '0.01',
  orderFeeRateBps: 100,
  passiveOrderFeeRateBps: 0,
  negRisk: false,
};

/** BUY 1 token of outcome 1 at 0.50, unsigned. */
export function buyInput(overrides: Partial<Record<keyof CreateOrderInput, unknown>> = {}): CreateOrderInput {
  return {
    salt: '123456789',
    taker: ZERO,
    tokenId: TOKEN_1,
    makerAmount: '500000',
    takerAmount: '1000000',
    expiration: 0,
    side: 0,
    orderType: 'GTC',
    ...overrides,
  } as CreateOrderInput;
}
