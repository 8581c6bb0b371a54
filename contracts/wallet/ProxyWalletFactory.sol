// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IConditionalTokens} from "../interfaces/IConditionalTokens.sol";
import {ProxyWallet} from "./ProxyWallet.sol";
import {ProxyWalletAddress} from "./ProxyWalletAddress.sol";

/// Deploys each owner's ProxyWallet with CREATE2 salted by the owner's address, so `walletOf(owner)`
/// is known (and can receive deposits) before the wallet exists. Anyone may deploy a wallet: it is
/// its owner's whatever the caller, and the settlement sender deploys it before a first fill.
/// The exchanges are set once after they are deployed (they read this factory's init code hash).
contract ProxyWalletFactory {
    IConditionalTokens public immutable conditionalTokens;
    IERC20 public immutable collateral;
    bytes32 public immutable walletInitCodeHash;
    address public immutable admin;
    address public exchange;
    address public negRiskExchange;
    mapping(address => bool) public isRelayer;

    error NotAdmin();
    error ExchangesAlreadySet();
    error ExchangesNotSet();
    error ZeroAddress();

    event WalletDeployed(address indexed owner, address indexed wallet);
    event RelayerSet(address indexed account, bool allowed);

    constructor(IConditionalTokens conditionalTokens_, IERC20 collateral_, address admin_) {
        conditionalTokens = conditionalTokens_;
        collateral = collateral_;
        admin = admin_;
        walletInitCodeHash = keccak256(type(ProxyWallet).creationCode);
    }

    function setExchanges(address exchange_, address negRiskExchange_) external {
        if (msg.sender != admin) revert NotAdmin();
        if (exchange != address(0)) revert ExchangesAlreadySet();
        if (exchange_ == address(0) || negRiskExchange_ == address(0)) revert ZeroAddress();
        exchange = exchange_;
        negRiskExchange = negRiskExchange_;
    }

    /// A relayer may ask any wallet to split, merge or redeem its own positions; nothing more.
    function setRelayer(address account, bool allowed) external {
        if (msg.sender != admin) revert NotAdmin();
        isRelayer[account] = allowed;
        emit RelayerSet(account, allowed);
    }

    function walletOf(address owner) public view returns (address) {
        return ProxyWalletAddress.compute(address(this), owner, walletInitCodeHash);
    }

    function isDeployed(address owner) external view returns (bool) {
        return walletOf(owner).code.length != 0;
    }

    /// Deploys the owner's wallet, or returns it if it already exists (safe to call before every first fill).
    function deployWallet(address owner) external returns (address wallet) {
        if (owner == address(0)) revert ZeroAddress();
        wallet = walletOf(owner);
        if (wallet.code.length != 0) return wallet;
        if (exchange == address(0)) revert ExchangesNotSet();
        ProxyWallet created = new ProxyWallet{salt: keccak256(abi.encodePacked(owner))}();
        created.initialize(owner);
        emit WalletDeployed(owner, address(created));
    }
}
