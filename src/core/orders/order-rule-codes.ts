/**
 * Every code an order-entry rule can answer, with its meaning. All are HTTP 400 (EXTENSIONS.md
 * section 9: order rules may use codes more specific than VALIDATION_FAILED, still 400).
 * The module README lists the same table for clients.
 */
export const ORDER_RULE_CODES = {
  VALIDATION_FAILED: 'a field is malformed: not a numeric string, longer than 78 characters, not an address, out of its range or not one of its values',
  MARKET_NOT_TRADABLE: 'the market is not ACTIVE, is paused, or is resolved',
  INVALID_SIGNATURE: 'the signature is not 65 bytes of 0x-hex, the signer is not the caller\'s sign-in address, or the maker is neither the signer (signatureType 0) nor the caller\'s proxy wallet (signatureType 1 or 2)',
  ORDER_SIGNATURE_FIELDS_MISSING: 'a signature was sent without one of maker, signer, nonce, signatureType',
  ORDER_TOKEN_NOT_IN_MARKET: 'tokenId is neither of the market\'s two outcome tokens',
  ORDER_TAKER_NOT_ZERO: 'taker is not the zero address',
  ORDER_AMOUNT_INVALID: 'makerAmount or takerAmount is zero or larger than the largest amount an order may hold (2^63 - 1 base units)',
  ORDER_PRICE_OUT_OF_RANGE: 'the price (BUY: makerAmount / takerAmount, SELL: takerAmount / makerAmount) is not strictly between 0 and 1',
  ORDER_PRICE_NOT_ON_TICK: 'the price is not an exact multiple of the market\'s tickSize',
  ORDER_SIZE_NOT_ON_TICK: 'the token amount is not a multiple of 10^d base units, d being the number of decimals of tickSize',
  ORDER_PRICE_UINT_MISMATCH: 'priceUint was sent and is not the order\'s price in millionths',
  ORDER_FEE_RATE_MISMATCH: 'feeRateBps was sent and is not the market\'s orderFeeRateBps',
  ORDER_POST_ONLY_NOT_GTC: 'postOnly is true on an order that is not GTC',
  ORDER_EXPIRED: 'expiration is neither 0 nor after the server\'s current time',
  ORDER_SIGNATURE_REQUIRED: 'an order without a signature from a proxy wallet whose owner turned operator trading off on chain (ProxyWallet.setOperatorTrading(false)): the wallet settles only orders its owner signs',
} as const;

export type OrderRuleCode = keyof typeof ORDER_RULE_CODES;

/** A broken rule: data, not an exception (DESIGN.md "Errors"). The API renders it as a 400. */
export interface OrderRuleViolation {
  readonly code: OrderRuleCode;
  readonly message: string;
}

export const violation = (code: OrderRuleCode, message: string): OrderRuleViolation => ({ code, message });
