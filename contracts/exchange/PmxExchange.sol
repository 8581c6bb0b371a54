// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IConditionalTokens} from "../interfaces/IConditionalTokens.sol";
import {Auth} from "./Auth.sol";
import {Fees} from "./Fees.sol";
import {Signatures} from "./Signatures.sol";
import {OperatorFills} from "./OperatorFills.sol";
import {Trading} from "./Trading.sol";

/// The exchange: orders signed under {name, "1", chainId, this address} settle here through
/// `matchOrders` or `matchOrdersBatch` (users against users) or `fillOrder(s)` (the operator as counterparty). The neg-risk exchange is a second deployment of this same contract; its address
/// is the neg-risk order domain, and its registry holds the neg-risk markets' tokens.
contract PmxExchange is OperatorFills {
    struct Config {
        string name;
        IERC20 collateral;
        IConditionalTokens conditionalTokens;
        address proxyWalletFactory;
        address admin;
        address operator;
        address feeReceiver;
        uint256 maxFeeRateBps;
    }

    constructor(Config memory config)
        Auth(config.admin, config.operator)
        Fees(config.maxFeeRateBps, config.feeReceiver)
        Signatures(config.name, config.proxyWalletFactory)
        Trading(config.collateral, config.conditionalTokens)
    {}
}
