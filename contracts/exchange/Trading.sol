// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ERC1155Holder} from "@openzeppelin/contracts/token/ERC1155/utils/ERC1155Holder.sol";
import {IConditionalTokens} from "../interfaces/IConditionalTokens.sol";
import {COLLATERAL_ASSET_ID, MatchArgs, Order, Side} from "./OrderStructs.sol";
import {OrderBook} from "./OrderBook.sol";

/// Settles a taker order against resting maker orders, as the server matched them. Every maker
/// trades at its own price (the resting price is the execution price); the taker pays or receives
/// the sum, which must honour its limit. Per maker the fill is one of:
/// - COMPLEMENTARY: the same token on opposite sides; tokens and collateral change hands;
/// - MINT: two buys of complementary tokens; their collateral (exactly `size` together) is split
///   into complete sets through ConditionalTokens;
/// - MERGE: two sells of complementary tokens; the complete sets are merged back into collateral.
/// Assets pass through the exchange: each party's part is pulled in, sets are split or merged once
/// for the whole match, then each party is paid; only a COMPLEMENTARY fill's tokens go straight
/// from seller to buyer. Balances and allowances are not checked first: an
/// unfunded party reverts the whole transaction, which the sender finds by simulating.
abstract contract Trading is OrderBook, ERC1155Holder {
    using SafeERC20 for IERC20;

    IERC20 public immutable collateral;
    IConditionalTokens public immutable conditionalTokens;

    /// One maker fill, in base units. `cost` is the maker's collateral side of `size` tokens.
    struct Fill {
        uint256 size;
        uint256 cost;
        uint256 makerFee;
        uint256 takerFee;
        uint256 takerMaking;
        uint256 takerTaking;
    }

    /// The taker's side of the whole match, what of it already went straight to or from makers,
    /// and what is split or merged for it.
    struct Totals {
        uint256 takerMaking;
        uint256 takerTaking;
        uint256 takerMakingSent;
        uint256 takerTakingSent;
        uint256 takerFee;
        uint256 fees;
        uint256 mintSize;
        uint256 mergeSize;
    }

    constructor(IERC20 collateral_, IConditionalTokens conditionalTokens_) {
        collateral = collateral_;
        conditionalTokens = conditionalTokens_;
        collateral_.forceApprove(address(conditionalTokens_), type(uint256).max);
    }

    /// `takerFillAmount` and each of `makerFillAmounts` are in units of that order's makerAmount;
    /// each of `makerFeeRatesBps` is the rate that maker pays on its fill, at most its signed rate.
    /// `part` numbers the parts of a match too large for one transaction, 0 for the first (and
    /// usually only) one: each settles once (OrderBook.sol).
    function matchOrders(
        Order calldata takerOrder,
        Order[] calldata makerOrders,
        uint256 takerFillAmount,
        uint256[] calldata makerFillAmounts,
        uint256[] calldata makerFeeRatesBps,
        uint256 part
    ) external onlyOperator whenTradingActive {
        _matchOrders(takerOrder, makerOrders, takerFillAmount, makerFillAmounts, makerFeeRatesBps, part);
    }

    /// Several matches in one transaction, settled in order exactly as `matchOrders` settles each,
    /// to spread the transaction's base cost and warm storage over them. All or nothing: a match
    /// that reverts reverts the batch with its own error, which the settlement sender finds by
    /// simulating and bisecting.
    function matchOrdersBatch(MatchArgs[] calldata matches) external onlyOperator whenTradingActive {
        for (uint256 i = 0; i < matches.length; ++i) {
            MatchArgs calldata one = matches[i];
            _matchOrders(one.takerOrder, one.makerOrders, one.takerFillAmount, one.makerFillAmounts, one.makerFeeRatesBps, one.part);
        }
    }

    function _matchOrders(
        Order calldata takerOrder,
        Order[] calldata makerOrders,
        uint256 takerFillAmount,
        uint256[] calldata makerFillAmounts,
        uint256[] calldata makerFeeRatesBps,
        uint256 part
    ) private {
        if (makerOrders.length != makerFillAmounts.length || makerOrders.length != makerFeeRatesBps.length) revert FillAmountsLengthMismatch();
        Market storage market = _marketOf(takerOrder.tokenId);
        _requireUnresolved(market);
        bytes32 takerHash = _validateOrder(takerOrder);
        _consumeAsTaker(takerHash, takerOrder.makerAmount, takerFillAmount, part);

        Totals memory totals;
        uint256[] memory payouts = new uint256[](makerOrders.length);
        for (uint256 i = 0; i < makerOrders.length; ++i) {
            payouts[i] = _takeFromMaker(takerOrder, takerHash, makerOrders[i], makerFillAmounts[i], makerFeeRatesBps[i], market, totals);
        }
        if (totals.takerMaking != takerFillAmount) revert TakerFillMismatch(takerFillAmount, totals.takerMaking);
        if (totals.takerTaking * takerOrder.makerAmount < totals.takerMaking * takerOrder.takerAmount) revert TakerPriceNotMet(takerHash);

        _takeFromTaker(takerOrder, totals);
        _splitOrMerge(market, totals);
        for (uint256 i = 0; i < makerOrders.length; ++i) _pay(makerOrders[i], payouts[i]);
        _payTaker(takerOrder, totals);
        if (totals.fees != 0) collateral.safeTransfer(feeReceiver, totals.fees);

        (uint256 makerAssetId, uint256 takerAssetId) = _assetIds(takerOrder);
        emit OrderFilled(takerHash, takerOrder.maker, address(this), makerAssetId, takerAssetId, totals.takerMaking, totals.takerTaking, totals.takerFee);
        emit OrdersMatched(takerHash, takerOrder.maker, makerAssetId, takerAssetId, totals.takerMaking, totals.takerTaking);
        if (part != 0) emit OrdersMatchedPart(takerHash, part);
    }

    /// A market whose condition has its payouts reported trades no more: its losing token is worth
    /// nothing, and a resting bid for it still valid on chain must not fill at its signed price.
    /// Every maker of a match trades the taker's market (`_fillOf`), so one read covers the match.
    function _requireUnresolved(Market storage market) internal view {
        bytes32 conditionId = market.conditionId;
        if (conditionalTokens.payoutDenominator(conditionId) != 0) revert MarketResolved(conditionId);
    }

    /// Validates and records one maker fill, pulls the maker's side in, and returns what the maker is owed.
    function _takeFromMaker(
        Order calldata takerOrder,
        bytes32 takerHash,
        Order calldata makerOrder,
        uint256 making,
        uint256 makerFeeRateBps,
        Market storage market,
        Totals memory totals
    ) private returns (uint256 payout) {
        bytes32 makerHash = _validateOrder(makerOrder);
        _checkCounterparties(takerOrder, makerOrder, takerHash, makerHash);
        _consume(makerHash, makerOrder.makerAmount, making);
        Fill memory fill = _fillOf(takerOrder, makerOrder, making, makerHash, market);
        fill.makerFee = _makerFee(makerOrder.feeRateBps, makerFeeRateBps, makerHash, fill.cost, fill.size);

        totals.takerMaking += fill.takerMaking;
        totals.takerTaking += fill.takerTaking;
        totals.takerFee += fill.takerFee;
        totals.fees += fill.makerFee + fill.takerFee;
        if (makerOrder.tokenId != takerOrder.tokenId) {
            if (takerOrder.side == Side.BUY) totals.mintSize += fill.size;
            else totals.mergeSize += fill.size;
        }

        payout = _moveMakerSide(takerOrder, makerOrder, fill, totals);
        _emitMakerFill(makerHash, makerOrder, takerOrder.maker, fill);
    }

    /// Pulls the maker's side into the exchange and returns what the exchange then owes it, except
    /// that the tokens of a COMPLEMENTARY fill go straight between the two parties: one transfer
    /// instead of two through the exchange.
    function _moveMakerSide(Order calldata takerOrder, Order calldata makerOrder, Fill memory fill, Totals memory totals) private returns (uint256 payout) {
        bool complementary = makerOrder.tokenId == takerOrder.tokenId;
        if (makerOrder.side == Side.BUY) {
            collateral.safeTransferFrom(_fundsOf(makerOrder), address(this), fill.cost + fill.makerFee);
            if (!complementary) return fill.size;
            conditionalTokens.safeTransferFrom(_fundsOf(takerOrder), _fundsOf(makerOrder), makerOrder.tokenId, fill.size, "");
            totals.takerMakingSent += fill.size;
            return 0;
        }
        address tokensTo = complementary ? _fundsOf(takerOrder) : address(this);
        conditionalTokens.safeTransferFrom(_fundsOf(makerOrder), tokensTo, makerOrder.tokenId, fill.size, "");
        if (complementary) totals.takerTakingSent += fill.size;
        payout = fill.cost - fill.makerFee;
    }

    function _emitMakerFill(bytes32 makerHash, Order calldata makerOrder, address takerMaker, Fill memory fill) private {
        (uint256 makerAssetId, uint256 takerAssetId) = _assetIds(makerOrder);
        (uint256 making, uint256 taking) = makerOrder.side == Side.BUY ? (fill.cost, fill.size) : (fill.size, fill.cost);
        emit OrderFilled(makerHash, makerOrder.maker, takerMaker, makerAssetId, takerAssetId, making, taking, fill.makerFee);
    }

    /// The amounts of one maker fill at the maker's price, and the taker's side of it by fill type (the maker's fee apart).
    function _fillOf(Order calldata takerOrder, Order calldata makerOrder, uint256 making, bytes32 makerHash, Market storage market)
        private
        view
        returns (Fill memory fill)
    {
        uint256 taking = (making * makerOrder.takerAmount) / makerOrder.makerAmount;
        bool makerBuys = makerOrder.side == Side.BUY;
        (fill.cost, fill.size) = makerBuys ? (making, taking) : (taking, making);
        if (fill.cost > fill.size) revert PriceAboveOne(makerHash);
        fill.takerFee = _fee(takerOrder.feeRateBps, fill.cost, fill.size);

        bool takerBuys = takerOrder.side == Side.BUY;
        if (makerOrder.tokenId == takerOrder.tokenId) {
            if (makerBuys == takerBuys) revert SideMismatch(makerHash);
            (fill.takerMaking, fill.takerTaking) = takerBuys ? (fill.cost, fill.size) : (fill.size, fill.cost);
        } else if (makerOrder.tokenId == market.complement) {
            if (makerBuys != takerBuys) revert SideMismatch(makerHash);
            uint256 takerCost = fill.size - fill.cost;
            (fill.takerMaking, fill.takerTaking) = takerBuys ? (takerCost, fill.size) : (fill.size, takerCost);
        } else {
            revert TokenMismatch(takerOrder.tokenId, makerOrder.tokenId);
        }
    }

    /// An order's `taker`, when set, names the only maker it may be matched against.
    function _checkCounterparties(Order calldata takerOrder, Order calldata makerOrder, bytes32 takerHash, bytes32 makerHash) private pure {
        if (makerOrder.taker != address(0) && makerOrder.taker != takerOrder.maker) revert NotAllowedCounterparty(makerHash);
        if (takerOrder.taker != address(0) && takerOrder.taker != makerOrder.maker) revert NotAllowedCounterparty(takerHash);
    }

    function _takeFromTaker(Order calldata takerOrder, Totals memory totals) private {
        if (takerOrder.side == Side.BUY) {
            collateral.safeTransferFrom(_fundsOf(takerOrder), address(this), totals.takerMaking + totals.takerFee);
        } else {
            uint256 tokens = totals.takerMaking - totals.takerMakingSent;
            if (tokens != 0) conditionalTokens.safeTransferFrom(_fundsOf(takerOrder), address(this), takerOrder.tokenId, tokens, "");
        }
    }

    function _splitOrMerge(Market storage market, Totals memory totals) private {
        if (totals.mintSize == 0 && totals.mergeSize == 0) return;
        bytes32 conditionId = market.conditionId;
        uint256[] memory partition = new uint256[](2);
        partition[0] = 1;
        partition[1] = 2;
        if (totals.mintSize != 0) conditionalTokens.splitPosition(collateral, bytes32(0), conditionId, partition, totals.mintSize);
        if (totals.mergeSize != 0) conditionalTokens.mergePositions(collateral, bytes32(0), conditionId, partition, totals.mergeSize);
    }

    function _payTaker(Order calldata takerOrder, Totals memory totals) private {
        _pay(takerOrder, takerOrder.side == Side.BUY ? totals.takerTaking - totals.takerTakingSent : totals.takerTaking - totals.takerFee);
    }

    /// A buyer is paid in its tokens, a seller in collateral.
    function _pay(Order calldata order, uint256 amount) private {
        if (amount == 0) return;
        address to = _fundsOf(order);
        if (order.side == Side.BUY) conditionalTokens.safeTransferFrom(address(this), to, order.tokenId, amount, "");
        else collateral.safeTransfer(to, amount);
    }

    function _assetIds(Order calldata order) internal pure returns (uint256 makerAssetId, uint256 takerAssetId) {
        return order.side == Side.BUY ? (COLLATERAL_ASSET_ID, order.tokenId) : (order.tokenId, COLLATERAL_ASSET_ID);
    }

    function _conditionalTokens() internal view override returns (IConditionalTokens) {
        return conditionalTokens;
    }

    function _collateral() internal view override returns (IERC20) {
        return collateral;
    }
}
