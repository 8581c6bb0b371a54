// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {IConditionalTokens} from "../interfaces/IConditionalTokens.sol";
import {ProxyWallet} from "./ProxyWallet.sol";
import {ProxyWalletAddress} from "./ProxyWalletAddress.sol";

interface IExchangeWalletFactory {
    function proxyWalletFactory() external view returns (address);
}

/// Deploys each owner's ProxyWallet with CREATE2 salted by the owner's address, so `walletOf(owner)`
/// is known (and can receive deposits) before the wallet exists. A wallet is a minimal proxy
/// (EIP-1167) of one implementation the factory deploys: 230k gas a wallet, approvals included
/// (bench/contracts-gas.ts), where a full copy of the wallet's 7.5 KB of code would add 200 gas a
/// byte (some 1.5M); a fill that pays a wallet in tokens spends a cold delegatecall (2.6k) more
/// on the receiver hook. Anyone may deploy a wallet: it is
/// its owner's whatever the caller, and the settlement sender deploys it before a first fill.
/// The exchanges are set once after they are deployed (they read this factory's init code hash).
contract ProxyWalletFactory {
    IConditionalTokens public immutable conditionalTokens;
    IERC20 public immutable collateral;
    address public immutable implementation;
    bytes32 public immutable walletInitCodeHash;
    address public immutable admin;
    address public exchange;
    address public negRiskExchange;
    mapping(address => bool) public isRelayer;

    error NotAdmin();
    error ExchangesAlreadySet();
    error ExchangesNotSet();
    error ZeroAddress();
    error ExchangeNotOfFactory(address exchange);

    event WalletDeployed(address indexed owner, address indexed wallet);
    event RelayerSet(address indexed account, bool allowed);

    constructor(IConditionalTokens conditionalTokens_, IERC20 collateral_, address admin_) {
        conditionalTokens = conditionalTokens_;
        collateral = collateral_;
        admin = admin_;
        implementation = address(new ProxyWallet());
        // The init code Clones.cloneDeterministic deploys: EIP-1167's, around the implementation.
        walletInitCodeHash = keccak256(abi.encodePacked(hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", implementation, hex"5af43d82803e903d91602b57fd5bf3"));
    }

    /// Only exchanges that settle this factory's wallets (each names its wallet factory): a wallet
    /// takes a withdrawal signed under its exchange's domain, so were another factory allowed the
    /// same exchanges, the owner's wallet there would take every withdrawal signed for this one.
    function setExchanges(address exchange_, address negRiskExchange_) external {
        if (msg.sender != admin) revert NotAdmin();
        if (exchange != address(0)) revert ExchangesAlreadySet();
        if (exchange_ == address(0) || negRiskExchange_ == address(0)) revert ZeroAddress();
        if (IExchangeWalletFactory(exchange_).proxyWalletFactory() != address(this)) revert ExchangeNotOfFactory(exchange_);
        if (IExchangeWalletFactory(negRiskExchange_).proxyWalletFactory() != address(this)) revert ExchangeNotOfFactory(negRiskExchange_);
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
        ProxyWallet(Clones.cloneDeterministic(implementation, keccak256(abi.encodePacked(owner)))).initialize(owner);
        emit WalletDeployed(owner, wallet);
    }
}
