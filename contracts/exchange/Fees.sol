// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Auth} from "./Auth.sol";

/// Fees as the server charges them (src/core/book/fees.ts): rate × min(p, 1 − p) × size, rounded
/// down to a base unit, with p the party's own execution price, paid in collateral to the fee
/// receiver: a buyer pays it on top of its cost, a seller from its proceeds.
///
/// With cost = p × size in collateral base units, min(p, 1 − p) × size is min(cost, size − cost), so
/// the fee is rate × min(cost, size − cost) / 10,000: the same integer as the server's
/// rate × min(p, 1 − p)_micros × size / 10^10 whenever p × size is whole base units, which the
/// server's tick grid guarantees. A taker and a maker of one fill see the same min, since their
/// prices are p and p, or p and 1 − p.
///
/// The taker pays its signed rate. A resting order pays the rate the operator names for its fill
/// (the server's passive rate when the order was accepted, which its ledger charged), never more
/// than it signed: a signed rate is the most its signer agreed to pay. The rate travels with each
/// fill rather than sitting in a market's storage, so a change of the market's rate while orders
/// rest, or while their fills wait to be mined, cannot part the chain from the ledger. The
/// receiver and the cap share one storage slot with Auth's pause flag, which every match reads
/// anyway.
abstract contract Fees is Auth {
    uint256 internal constant BPS_SCALE = 10_000;

    address public feeReceiver;
    uint16 public maxFeeRateBps;

    constructor(uint256 maxFeeRateBps_, address feeReceiver_) {
        _setMaxFeeRate(maxFeeRateBps_);
        _setFeeReceiver(feeReceiver_);
    }

    function setMaxFeeRate(uint256 feeRateBps) external onlyAdmin {
        _setMaxFeeRate(feeRateBps);
    }

    function setFeeReceiver(address receiver) external onlyAdmin {
        _setFeeReceiver(receiver);
    }

    /// The fee on one fill of `size` tokens whose price side costs `cost` collateral.
    function _fee(uint256 feeRateBps, uint256 cost, uint256 size) internal pure returns (uint256) {
        if (feeRateBps == 0) return 0;
        uint256 edge = cost < size - cost ? cost : size - cost;
        return (feeRateBps * edge) / BPS_SCALE;
    }

    /// The fee a resting order pays at `makerFeeRateBps`, which must not pass the rate it signed.
    function _makerFee(uint256 signedRateBps, uint256 makerFeeRateBps, bytes32 orderHash, uint256 cost, uint256 size) internal pure returns (uint256) {
        if (makerFeeRateBps > signedRateBps) revert MakerFeeRateAboveSigned(orderHash, makerFeeRateBps);
        return _fee(makerFeeRateBps, cost, size);
    }

    function _setMaxFeeRate(uint256 feeRateBps) private {
        if (feeRateBps > BPS_SCALE) revert FeeRateAboveLimit(feeRateBps);
        maxFeeRateBps = uint16(feeRateBps);
        emit MaxFeeRateSet(feeRateBps);
    }

    function _setFeeReceiver(address receiver) private {
        if (receiver == address(0)) revert ZeroFeeReceiver();
        feeReceiver = receiver;
        emit FeeReceiverSet(receiver);
    }
}
