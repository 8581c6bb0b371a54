// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Order, Side} from "./OrderStructs.sol";
import {Trading} from "./Trading.sol";

/// The CTF exchange's `fillOrder`/`fillOrders`: the operator itself is the counterparty, from its
/// own balances and approvals, at the order's price. The order is the resting side, so it pays the
/// maker fee rate the operator names, at most its signed rate. The server matches users
/// with each other (matchOrders); this serves an operator that makes markets from its own key.
abstract contract OperatorFills is Trading {
    using SafeERC20 for IERC20;

    /// `fillAmount` in units of the order's makerAmount; `feeRateBps` the rate it pays, at most its
    /// signed rate. An order whose `taker` is set fills here only when it names the operator, its
    /// counterparty, as `matchOrders` fills it only against the maker it names.
    function fillOrder(Order calldata order, uint256 fillAmount, uint256 feeRateBps) public onlyOperator whenTradingActive {
        _requireUnresolved(_marketOf(order.tokenId));
        bytes32 orderHash = _validateOrder(order);
        if (order.taker != address(0) && order.taker != msg.sender) revert NotAllowedCounterparty(orderHash);
        _consume(orderHash, order.makerAmount, fillAmount);
        uint256 taking = (fillAmount * order.takerAmount) / order.makerAmount;
        bool buying = order.side == Side.BUY;
        (uint256 cost, uint256 size) = buying ? (fillAmount, taking) : (taking, fillAmount);
        if (cost > size) revert PriceAboveOne(orderHash);
        uint256 fee = _makerFee(order.feeRateBps, feeRateBps, orderHash, cost, size);

        _exchangeWithOperator(order, cost, size, fee);
        (uint256 makerAssetId, uint256 takerAssetId) = _assetIds(order);
        emit OrderFilled(orderHash, order.maker, msg.sender, makerAssetId, takerAssetId, fillAmount, taking, fee);
    }

    /// The order's side against the operator's: from and to the signer's wallet (Signatures._fundsOf).
    function _exchangeWithOperator(Order calldata order, uint256 cost, uint256 size, uint256 fee) private {
        address funds = _fundsOf(order);
        if (order.side == Side.BUY) {
            collateral.safeTransferFrom(funds, msg.sender, cost);
            if (fee != 0) collateral.safeTransferFrom(funds, feeReceiver, fee);
            conditionalTokens.safeTransferFrom(msg.sender, funds, order.tokenId, size, "");
        } else {
            conditionalTokens.safeTransferFrom(funds, msg.sender, order.tokenId, size, "");
            collateral.safeTransferFrom(msg.sender, funds, cost - fee);
            if (fee != 0) collateral.safeTransferFrom(msg.sender, feeReceiver, fee);
        }
    }

    function fillOrders(Order[] calldata orders, uint256[] calldata fillAmounts, uint256[] calldata feeRatesBps) external {
        if (orders.length != fillAmounts.length || orders.length != feeRatesBps.length) revert FillAmountsLengthMismatch();
        for (uint256 i = 0; i < orders.length; ++i) fillOrder(orders[i], fillAmounts[i], feeRatesBps[i]);
    }
}
