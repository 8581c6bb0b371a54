// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The order of EXTENSIONS.md section 1, field for field the one `@polymarket/order-utils` signs and
/// the server hashes (src/core/orders/eip712-order.ts), so that an order accepted by the API
/// settles here unchanged. `signature` is not part of the signed struct.
enum Side {
    BUY,
    SELL
}

/// 0: the maker is an EOA that signed itself. 1: the maker is the signer's proxy wallet
/// (ProxyWalletFactory). 2: Polymarket's Gnosis-safe type, accepted here as a proxy wallet (1): this
/// exchange has one kind of smart wallet, and a client that signs 2 means "my wallet, not my EOA".
enum SignatureType {
    EOA,
    POLY_PROXY,
    POLY_GNOSIS_SAFE
}

struct Order {
    uint256 salt;
    address maker;
    address signer;
    address taker;
    uint256 tokenId;
    uint256 makerAmount;
    uint256 takerAmount;
    uint256 expiration;
    uint256 nonce;
    uint256 feeRateBps;
    Side side;
    SignatureType signatureType;
    bytes signature;
}

/// One taker match (or one part of it), the arguments of `matchOrders`, as an element of `matchOrdersBatch`.
struct MatchArgs {
    Order takerOrder;
    Order[] makerOrders;
    uint256 takerFillAmount;
    uint256[] makerFillAmounts;
    uint256[] makerFeeRatesBps;
    uint256 part;
}

bytes32 constant ORDER_TYPEHASH = keccak256(
    "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)"
);

// The asset id of collateral in fill events; outcome tokens use their ConditionalTokens position id.
uint256 constant COLLATERAL_ASSET_ID = 0;
