import { Type } from 'typebox';
import { DisplayAmountOut } from './amount.ts';
import { Address, Nullable, Uuid } from './common.ts';

/** The caller's own account and balances (EXTENSIONS.md section 2). */

/** The Account shape of EXTENSIONS.md section 2. */
export const AccountSchema = Type.Object({
  userId: Uuid,
  address: Address,
  proxyWallet: Address,
  displayName: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  anonymous: Type.Boolean(),
}, { description: 'The signed-in user' });

/**
 * `type: [string, null]` rather than anyOf: with the app's type coercion, an anyOf would coerce
 * null into "" (or "" into null) while trying its branches.
 */
const nullableString = (options: { pattern?: string; format?: string; maxLength?: number; description: string }) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

/** PATCH /account: fields not sent stay unchanged. */
export const AccountPatch = Type.Object({
  displayName: Type.Optional(nullableString({ pattern: '^[A-Za-z0-9_-]{3,30}$', description: '3 to 30 of A-Z a-z 0-9 _ -, unique ignoring case; null clears it' })),
  avatarUrl: Type.Optional(nullableString({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'an http(s) URL; null clears it' })),
  anonymous: Type.Optional(Type.Boolean()),
});

const BalanceFields = { balance: DisplayAmountOut, locked: DisplayAmountOut, available: DisplayAmountOut };

/** GET /account/balance. */
export const BalanceResponse = Type.Object({
  collateral: Type.Object(BalanceFields),
  tokens: Type.Array(Type.Object({ tokenId: Type.String(), marketId: Uuid, outcome: Type.String(), ...BalanceFields })),
}, { description: 'balance = available + locked, display units' });

/** POST /account/faucet: the caller's collateral balance after the credit. */
export const FaucetResponse = Type.Object({ balance: DisplayAmountOut });
