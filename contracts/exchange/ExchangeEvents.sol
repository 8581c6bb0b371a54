// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The events of the exchange; fill events have the CTF exchange's shape so an indexer written for
/// it reads them. Asset id 0 is collateral.
interface ExchangeEvents {
    event OrderFilled(
        bytes32 indexed orderHash,
        address indexed maker,
        address indexed taker,
        uint256 makerAssetId,
        uint256 takerAssetId,
        uint256 makerAmountFilled,
        uint256 takerAmountFilled,
        uint256 fee
    );
    event OrdersMatched(
        bytes32 indexed takerOrderHash,
        address indexed takerOrderMaker,
        uint256 makerAssetId,
        uint256 takerAssetId,
        uint256 makerAmountFilled,
        uint256 takerAmountFilled
    );
    /// After `OrdersMatched`, for parts 1 and above of a match only: which part that was.
    event OrdersMatchedPart(bytes32 indexed takerOrderHash, uint256 indexed part);
    event OrderCancelled(bytes32 indexed orderHash);
    event NonceIncremented(address indexed maker, uint256 newNonce);
    event TokenRegistered(uint256 indexed token, uint256 indexed complement, bytes32 indexed conditionId);
    event MaxFeeRateSet(uint256 maxFeeRateBps);
    event FeeReceiverSet(address feeReceiver);
    event AdminSet(address indexed account, bool allowed);
    event OperatorSet(address indexed account, bool allowed);
    event TradingPaused(address indexed by);
    event TradingUnpaused(address indexed by);
}
