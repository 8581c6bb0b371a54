// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Every way the exchange refuses, by name, so a settlement sender can tell the order at fault
/// from a mistake of its own.
interface ExchangeErrors {
    // Roles and pause
    error NotAdmin();
    error NotOperator();
    error TradingIsPaused();
    error CannotRemoveLastAdmin();

    // Registry
    error TokenNotRegistered(uint256 tokenId);
    error TokenAlreadyRegistered(uint256 tokenId);
    error TokensNotOfCondition(uint256 token, uint256 complement, bytes32 conditionId);

    // Fees
    error FeeRateTooHigh(uint256 feeRateBps, uint256 maxFeeRateBps);
    error FeeRateAboveLimit(uint256 feeRateBps);
    error MakerFeeRateAboveSigned(bytes32 orderHash, uint256 makerFeeRateBps);
    error ZeroFeeReceiver();

    // Orders
    error OrderExpired(bytes32 orderHash);
    error InvalidNonce(bytes32 orderHash);
    error InvalidSignature(bytes32 orderHash);
    error UnsignedOrderNotAllowed(bytes32 orderHash);
    error MakerIsNotSigner(bytes32 orderHash);
    error MakerIsNotSignersWallet(bytes32 orderHash);
    error ProxyWalletNotDeployed(address wallet);
    error OrderIsCancelled(bytes32 orderHash);
    error FillExceedsRemaining(bytes32 orderHash, uint256 remaining);
    error AmountTooLarge(bytes32 orderHash);
    error NotOrderOwner();

    // Matching
    error ZeroFillAmount();
    error TakerAlreadyMatched(bytes32 takerOrderHash, uint256 part);
    error FillAmountsLengthMismatch();
    error NotAllowedCounterparty(bytes32 orderHash);
    error TokenMismatch(uint256 takerTokenId, uint256 makerTokenId);
    error SideMismatch(bytes32 makerOrderHash);
    error TakerFillMismatch(uint256 takerFillAmount, uint256 matchedAmount);
    error TakerPriceNotMet(bytes32 takerOrderHash);
    error PriceAboveOne(bytes32 orderHash);
    error MarketResolved(bytes32 conditionId);
}
