// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Registry} from "./Registry.sol";

/// Per-maker nonces: an order is valid only while its nonce is its maker's current one, so one
/// `incrementNonce` cancels every open order of the maker at once. A proxy wallet's owner calls it
/// through the wallet's `execute`, since the maker is the wallet.
abstract contract Nonces is Registry {
    mapping(address => uint256) public nonces;

    function incrementNonce() external {
        uint256 next = nonces[msg.sender] + 1;
        nonces[msg.sender] = next;
        emit NonceIncremented(msg.sender, next);
    }
}
