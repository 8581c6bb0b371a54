// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// The collateral of local chains: a 6-decimal stand-in for USDC that the faucet mints. On a public
/// chain the exchange is deployed against the real USDC instead, and this contract is not used.
contract LocalCollateral is ERC20 {
    address public immutable admin;
    mapping(address => bool) public isMinter;

    error NotAdmin();
    error NotMinter();

    event MinterSet(address indexed account, bool allowed);

    constructor(address admin_, address minter) ERC20("USD Coin (local)", "USDC") {
        admin = admin_;
        isMinter[minter] = true;
        emit MinterSet(minter, true);
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function setMinter(address account, bool allowed) external {
        if (msg.sender != admin) revert NotAdmin();
        isMinter[account] = allowed;
        emit MinterSet(account, allowed);
    }

    function mint(address to, uint256 amount) external {
        if (!isMinter[msg.sender]) revert NotMinter();
        _mint(to, amount);
    }
}
