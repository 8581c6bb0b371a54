import { Type } from 'typebox';
import { Address } from './common.ts';

/** GET /exchange: what a client needs to sign orders and HMACs (EXTENSIONS.md section 1). */
export const ExchangeSchema = Type.Object({
  chainId: Type.Integer(),
  eip712: Type.Object({ name: Type.String(), version: Type.String(), verifyingContract: Address }),
  negRiskVerifyingContract: Address,
  collateral: Type.Object({ symbol: Type.String(), decimals: Type.Integer(), address: Address }),
  conditionalTokens: Address,
  headerPrefix: Type.String(),
  settlement: Type.String(),
  serverTime: Type.Integer({ description: 'server clock, Unix milliseconds' }),
});
