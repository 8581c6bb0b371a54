// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ExchangeErrors} from "./ExchangeErrors.sol";
import {ExchangeEvents} from "./ExchangeEvents.sol";

/// Two roles. Admins configure (roles, registry, fees, pause); operators settle matches the server
/// made. Both are sets, so a key can be rotated without a gap; the last admin cannot leave, or
/// the exchange could never be configured again.
abstract contract Auth is ExchangeErrors, ExchangeEvents {
    mapping(address => bool) public isAdmin;
    mapping(address => bool) public isOperator;
    uint256 public adminCount;
    bool public tradingPaused;

    constructor(address admin, address operator) {
        _setAdmin(admin, true);
        isOperator[operator] = true;
        emit OperatorSet(operator, true);
    }

    modifier onlyAdmin() {
        if (!isAdmin[msg.sender]) revert NotAdmin();
        _;
    }

    modifier onlyOperator() {
        if (!isOperator[msg.sender]) revert NotOperator();
        _;
    }

    modifier whenTradingActive() {
        if (tradingPaused) revert TradingIsPaused();
        _;
    }

    function setAdmin(address account, bool allowed) external onlyAdmin {
        _setAdmin(account, allowed);
    }

    function setOperator(address account, bool allowed) external onlyAdmin {
        isOperator[account] = allowed;
        emit OperatorSet(account, allowed);
    }

    /// Stops every fill; cancels and nonce increments stay open so makers can still withdraw orders.
    function pauseTrading() external onlyAdmin {
        tradingPaused = true;
        emit TradingPaused(msg.sender);
    }

    function unpauseTrading() external onlyAdmin {
        tradingPaused = false;
        emit TradingUnpaused(msg.sender);
    }

    function _setAdmin(address account, bool allowed) private {
        if (isAdmin[account] == allowed) return;
        if (!allowed && adminCount == 1) revert CannotRemoveLastAdmin();
        isAdmin[account] = allowed;
        adminCount = allowed ? adminCount + 1 : adminCount - 1;
        emit AdminSet(account, allowed);
    }
}
