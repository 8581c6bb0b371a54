/**
 * The EIP-712 type a wallet's owner signs to move collateral out (EXTENSIONS.md section 14),
 * exactly as ProxyWallet.withdraw checks it on chain: `Withdraw(address to,uint256 amount,uint256
 * nonce)`, `amount` in base units, under the exchange's order domain (GET /exchange's `eip712`
 * with its `chainId`). The server checks it and the SDK signs it from this one definition.
 */
export const WITHDRAW_TYPES = {
  Withdraw: [
    { name: 'to', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const;
