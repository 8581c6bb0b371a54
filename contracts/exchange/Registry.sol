// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IConditionalTokens} from "../interfaces/IConditionalTokens.sol";
import {Fees} from "./Fees.sol";

/// The tokens the exchange trades: each outcome token with its complement and its condition, in
/// both directions. Registration checks that the two ids are the condition's two positions over
/// this exchange's collateral, so a MINT or MERGE always splits or merges exactly the two tokens
/// the orders named.
abstract contract Registry is Fees {
    struct Market {
        uint256 complement;
        bytes32 conditionId;
    }

    mapping(uint256 => Market) internal markets;

    function registerToken(uint256 token, uint256 complement, bytes32 conditionId) external onlyAdmin {
        if (markets[token].complement != 0) revert TokenAlreadyRegistered(token);
        if (markets[complement].complement != 0) revert TokenAlreadyRegistered(complement);
        if (!_arePositionsOf(token, complement, conditionId)) revert TokensNotOfCondition(token, complement, conditionId);
        markets[token] = Market(complement, conditionId);
        markets[complement] = Market(token, conditionId);
        emit TokenRegistered(token, complement, conditionId);
        emit TokenRegistered(complement, token, conditionId);
    }

    function complementOf(uint256 token) external view returns (uint256) {
        return _marketOf(token).complement;
    }

    function conditionOf(uint256 token) external view returns (bytes32) {
        return _marketOf(token).conditionId;
    }

    function isRegistered(uint256 token) external view returns (bool) {
        return markets[token].complement != 0;
    }

    function _marketOf(uint256 token) internal view returns (Market storage market) {
        market = markets[token];
        if (market.complement == 0) revert TokenNotRegistered(token);
    }

    function _arePositionsOf(uint256 token, uint256 complement, bytes32 conditionId) private view returns (bool) {
        uint256 first = _positionId(conditionId, 1);
        uint256 second = _positionId(conditionId, 2);
        return (token == first && complement == second) || (token == second && complement == first);
    }

    function _positionId(bytes32 conditionId, uint256 indexSet) private view returns (uint256) {
        IConditionalTokens ctf = _conditionalTokens();
        return ctf.getPositionId(_collateral(), ctf.getCollectionId(bytes32(0), conditionId, indexSet));
    }

    function _conditionalTokens() internal view virtual returns (IConditionalTokens);

    function _collateral() internal view virtual returns (IERC20);
}
