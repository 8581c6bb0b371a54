import { Type } from 'typebox';
import { DisplayAmount, DisplayAmountOut } from './amount.ts';
import { Address, Nullable, Uuid } from './common.ts';
import { DISPLAY_NAME_PATTERN } from './formats.ts';

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
  displayName: Type.Optional(nullableString({ pattern: DISPLAY_NAME_PATTERN, description: '3 to 30 of A-Z a-z 0-9 _ -, unique ignoring case; null clears it' })),
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

/** Decimal digits of a uint256 (2^256 − 1 has 78); the value is checked against 2^256 after parsing. */
const UINT256_DECIMAL_PATTERN = '^(0|[1-9][0-9]{0,77})$';

/** POST /account/withdraw (EXTENSIONS.md section 14): the owner's EIP-712 Withdraw(to, amount, nonce), signed. */
export const WithdrawBody = Type.Object({
  to: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'the address that receives the collateral; not the zero address' }),
  amount: DisplayAmount,
  nonce: Type.Union([
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    Type.String({ pattern: UINT256_DECIMAL_PATTERN }),
  ], { description: "a uint256 the wallet has not used for a withdrawal before: a JSON integer, or a decimal string for values above 2^53 − 1" }),
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$', description: "65-byte hex signature by the sign-in address of Withdraw(address to,uint256 amount,uint256 nonce) under GET /exchange's order domain (verifyingContract: the exchange), amount in base units (6 decimals)" }),
});

/** POST /account/withdraw: the chain transaction that moved the collateral (CHAIN=none: the ledger's). */
export const WithdrawResponse = Type.Object({ txHash: Type.String() });
