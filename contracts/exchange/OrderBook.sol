// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Order} from "./OrderStructs.sol";
import {Signatures} from "./Signatures.sol";

/// What the chain remembers of each order: how much of its makerAmount has been filled, or that it
/// was cancelled. One slot per order hash, so partial fills across transactions add up and nothing
/// fills twice, whatever the operator sends.
abstract contract OrderBook is Signatures {
    /// The fill state of a cancelled order: no fill amount reaches it.
    uint256 private constant CANCELLED = type(uint256).max;

    mapping(bytes32 => uint256) private filledOf;

    /// (cancelled, filled): `filled` in units of the order's makerAmount.
    function orderStatus(bytes32 orderHash) external view returns (bool cancelled, uint256 filled) {
        uint256 state = filledOf[orderHash];
        return state == CANCELLED ? (true, 0) : (false, state);
    }

    function remainingOf(Order calldata order) external view returns (uint256) {
        uint256 state = filledOf[hashOrder(order)];
        return state == CANCELLED ? 0 : order.makerAmount - state;
    }

    /// By the maker, or by the key that signed for it (a proxy wallet's owner).
    function cancelOrder(Order calldata order) public {
        if (msg.sender != order.maker && msg.sender != order.signer) revert NotOrderOwner();
        bytes32 orderHash = hashOrder(order);
        filledOf[orderHash] = CANCELLED;
        emit OrderCancelled(orderHash);
    }

    function cancelOrders(Order[] calldata orders) external {
        for (uint256 i = 0; i < orders.length; ++i) cancelOrder(orders[i]);
    }

    /// Checks everything about an order that does not depend on its counterparty, and returns its hash.
    function _validateOrder(Order calldata order) internal view returns (bytes32 orderHash) {
        orderHash = hashOrder(order);
        if (order.expiration != 0 && order.expiration < block.timestamp) revert OrderExpired(orderHash);
        if (order.nonce != nonces[order.maker]) revert InvalidNonce(orderHash);
        if (order.feeRateBps > maxFeeRateBps) revert FeeRateTooHigh(order.feeRateBps, maxFeeRateBps);
        _checkSignature(orderHash, order);
    }

    /// Records `making` more of the order as filled.
    function _consume(bytes32 orderHash, uint256 makerAmount, uint256 making) internal {
        if (making == 0) revert ZeroFillAmount();
        uint256 filled = filledOf[orderHash];
        if (filled == CANCELLED) revert OrderIsCancelled(orderHash);
        uint256 remaining = makerAmount - filled;
        if (making > remaining) revert FillExceedsRemaining(orderHash, remaining);
        filledOf[orderHash] = filled + making;
    }
}
