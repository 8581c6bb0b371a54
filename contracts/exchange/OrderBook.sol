// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Order} from "./OrderStructs.sol";
import {Signatures} from "./Signatures.sol";

/// What the chain remembers of each order: how much of its makerAmount has been filled, whether it
/// has been the taker of a match, or that it was cancelled. One slot per order hash, so partial
/// fills across transactions add up and nothing fills twice, whatever the operator sends.
///
/// An order is the taker of one match at most: the server matches an incoming order once, and
/// what is left of it then rests and fills only as a maker. A match that is sent again (a
/// transaction thought lost, resent under a new nonce) reverts, even when its orders still have
/// room for it, rather than settle twice. A match with more makers than one transaction holds is
/// sent in parts, numbered from 0 by the server: each part settles once. Part 0's flag shares the
/// slot the taker's fill writes anyway, so the common match of one part costs no storage write of
/// its own; each further part writes one slot of `partMatched`.
abstract contract OrderBook is Signatures {
    /// The fill state of a cancelled order: no fill amount reaches it.
    uint256 private constant CANCELLED = type(uint256).max;
    /// Set in an order's fill state once it has been the taker of a match.
    uint256 private constant MATCHED_AS_TAKER = 1 << 255;
    /// The largest makerAmount an order may have: its filled amount stays clear of the flag (and of CANCELLED).
    uint256 private constant MAX_MAKER_AMOUNT = type(uint128).max;

    mapping(bytes32 => uint256) private filledOf;
    /// Parts 1 and above of a taker's match that have settled, by keccak256(takerOrderHash, part).
    mapping(bytes32 => bool) private partMatched;

    /// (cancelled, filled): `filled` in units of the order's makerAmount.
    function orderStatus(bytes32 orderHash) external view returns (bool cancelled, uint256 filled) {
        uint256 state = filledOf[orderHash];
        return state == CANCELLED ? (true, 0) : (false, state & ~MATCHED_AS_TAKER);
    }

    /// Whether that part of the order's match as a taker has settled (each part can once).
    function matchedAsTaker(bytes32 orderHash, uint256 part) public view returns (bool) {
        if (part != 0) return partMatched[_partKey(orderHash, part)];
        uint256 state = filledOf[orderHash];
        return state != CANCELLED && state & MATCHED_AS_TAKER != 0;
    }

    function remainingOf(Order calldata order) external view returns (uint256) {
        uint256 state = filledOf[hashOrder(order)];
        return state == CANCELLED ? 0 : order.makerAmount - (state & ~MATCHED_AS_TAKER);
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

    /// Records `making` more of the order as filled, as a maker (or against the operator).
    function _consume(bytes32 orderHash, uint256 makerAmount, uint256 making) internal {
        uint256 state = filledOf[orderHash];
        filledOf[orderHash] = (state & MATCHED_AS_TAKER) | _filledAfter(orderHash, state, makerAmount, making);
    }

    /// Records `making` more of the order as filled, as the taker of a part of its match: once per
    /// part. The parts of a match may be mined in any order (one that reverts is not resent).
    function _consumeAsTaker(bytes32 orderHash, uint256 makerAmount, uint256 making, uint256 part) internal {
        if (matchedAsTaker(orderHash, part)) revert TakerAlreadyMatched(orderHash, part);
        if (part != 0) {
            partMatched[_partKey(orderHash, part)] = true;
            _consume(orderHash, makerAmount, making);
            return;
        }
        uint256 state = filledOf[orderHash];
        filledOf[orderHash] = MATCHED_AS_TAKER | _filledAfter(orderHash, state, makerAmount, making);
    }

    function _partKey(bytes32 orderHash, uint256 part) private pure returns (bytes32) {
        return keccak256(abi.encode(orderHash, part));
    }

    /// The order's filled amount once `making` more is filled; reverts when it is cancelled or has not that much left.
    function _filledAfter(bytes32 orderHash, uint256 state, uint256 makerAmount, uint256 making) private pure returns (uint256) {
        if (making == 0) revert ZeroFillAmount();
        if (state == CANCELLED) revert OrderIsCancelled(orderHash);
        if (makerAmount > MAX_MAKER_AMOUNT) revert AmountTooLarge(orderHash);
        uint256 filled = state & ~MATCHED_AS_TAKER;
        uint256 remaining = makerAmount - filled;
        if (making > remaining) revert FillExceedsRemaining(orderHash, remaining);
        return filled + making;
    }
}
