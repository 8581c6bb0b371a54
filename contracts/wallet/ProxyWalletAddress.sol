// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The CREATE2 address of an owner's proxy wallet: salt = keccak256 of the owner's address (as
/// src/core/proxy-wallet.ts derives it), init code = the
/// EIP-1167 proxy of the factory's wallet implementation, so it is known before the wallet exists.
/// src/core/proxy-wallet.ts (proxyWalletAddress) computes the same in TypeScript.
library ProxyWalletAddress {
    function compute(address factory, address owner, bytes32 initCodeHash) internal pure returns (address) {
        bytes32 salt = keccak256(abi.encodePacked(owner));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), factory, salt, initCodeHash)))));
    }
}
