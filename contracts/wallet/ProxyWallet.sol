// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ERC1155Holder} from "@openzeppelin/contracts/token/ERC1155/utils/ERC1155Holder.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {IConditionalTokens} from "../interfaces/IConditionalTokens.sol";

interface IWalletFactory {
    function conditionalTokens() external view returns (IConditionalTokens);
    function collateral() external view returns (IERC20);
    function exchange() external view returns (address);
    function negRiskExchange() external view returns (address);
    function isRelayer(address account) external view returns (bool);
}

interface IExchangeDomain {
    function domainSeparator() external view returns (bytes32);
}

/// The wallet of signatureType 1: one per owner, at an address fixed by the owner's address
/// (ProxyWalletFactory). It holds the owner's collateral and outcome tokens and has approved the
/// exchanges, so they can settle orders its owner signed (the exchange checks that signature).
/// Value leaves it only these ways: `execute` called by the owner, `withdraw` with the owner's
/// EIP-712 signature, a fill of an order the owner signed, or, while the owner leaves
/// `operatorTrading` on, a fill of an unsigned order the operator settles (an API key's order,
/// EXTENSIONS.md section 11) and an oracle bond the owner lost in a dispute (`payBond`). A relayer
/// (the operator) may also split, merge and redeem its positions, which converts value in place.
contract ProxyWallet is ERC1155Holder {
    using SafeERC20 for IERC20;

    bytes32 public constant WITHDRAW_TYPEHASH = keccak256("Withdraw(address to,uint256 amount,uint256 nonce)");

    /// The factory; in the implementation's code, which every wallet (a minimal proxy) runs.
    address public immutable factory;
    address public owner;
    /// Whether the exchanges settle this wallet's unsigned orders on the operator's word. On from
    /// deployment, as the API accepts a key's unsigned orders; the owner may turn it off. Declared
    /// beside `owner` to share its storage slot, so initialising it writes no new slot.
    bool public operatorTrading;
    mapping(uint256 => bool) public withdrawNonceUsed;

    error NotFactory();
    error AlreadyInitialized();
    error NotOwner();
    error NotOwnerOrRelayer();
    error WithdrawNonceUsed(uint256 nonce);
    error InvalidWithdrawSignature();
    error NotRelayer();
    error OperatorTradingOff();

    event Withdrawn(address indexed to, uint256 amount, uint256 nonce);
    event OperatorTradingSet(bool allowed);
    event BondPaid(address indexed to, uint256 amount);

    constructor() {
        factory = msg.sender;
    }

    /// Called by the factory in the deploying transaction: sets the owner and approves the exchanges.
    /// The implementation itself is never initialised, so it holds nothing and trusts no one.
    function initialize(address owner_) external {
        if (msg.sender != factory) revert NotFactory();
        if (owner != address(0)) revert AlreadyInitialized();
        owner = owner_;
        _setOperatorTrading(true);
        IWalletFactory walletFactory = IWalletFactory(factory);
        IConditionalTokens ctf = walletFactory.conditionalTokens();
        IERC20 usdc = walletFactory.collateral();
        _approve(usdc, ctf, walletFactory.exchange());
        _approve(usdc, ctf, walletFactory.negRiskExchange());
        usdc.forceApprove(address(ctf), type(uint256).max);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    modifier onlyOwnerOrRelayer() {
        if (msg.sender != owner && !IWalletFactory(factory).isRelayer(msg.sender)) revert NotOwnerOrRelayer();
        _;
    }

    /// Any call as the wallet, by its owner: transfers, approvals, cancels, nonce increments.
    function execute(address target, uint256 value, bytes calldata data) external payable onlyOwner returns (bytes memory result) {
        bool ok;
        (ok, result) = target.call{value: value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 32), mload(result))
            }
        }
    }

    /// Turns the settlement of this wallet's unsigned orders on or off; signed orders settle either way.
    function setOperatorTrading(bool allowed) external onlyOwner {
        _setOperatorTrading(allowed);
    }

    /// Sends collateral out on the owner's signature of Withdraw(to, amount, nonce) under the
    /// exchange's EIP-712 domain; anyone may submit it (the operator relays), each nonce once.
    function withdraw(address to, uint256 amount, uint256 nonce, bytes calldata signature) external {
        if (withdrawNonceUsed[nonce]) revert WithdrawNonceUsed(nonce);
        bytes32 structHash = keccak256(abi.encode(WITHDRAW_TYPEHASH, to, amount, nonce));
        bytes32 digest = MessageHashUtils.toTypedDataHash(IExchangeDomain(IWalletFactory(factory).exchange()).domainSeparator(), structHash);
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(digest, signature);
        if (recoverError != ECDSA.RecoverError.NoError || signer != owner) revert InvalidWithdrawSignature();
        withdrawNonceUsed[nonce] = true;
        IWalletFactory(factory).collateral().safeTransfer(to, amount);
        emit Withdrawn(to, amount, nonce);
    }

    /// Collateral out to `to`, sent by a relayer while the owner leaves `operatorTrading` on: an
    /// oracle bond the owner posted through the API and lost in a dispute (EXTENSIONS.md section
    /// 11: half to the side that was right, half to the fee receiver). It gives the operator no
    /// power it lacks already: while operator trading is on it settles this wallet's unsigned
    /// orders at the prices it is told. With it off, only the owner's word moves value out.
    function payBond(address to, uint256 amount) external {
        IWalletFactory walletFactory = IWalletFactory(factory);
        if (!walletFactory.isRelayer(msg.sender)) revert NotRelayer();
        if (!operatorTrading) revert OperatorTradingOff();
        walletFactory.collateral().safeTransfer(to, amount);
        emit BondPaid(to, amount);
    }

    /// Collateral into a complete set of the condition's two tokens, kept here.
    function splitPosition(bytes32 conditionId, uint256 amount) external onlyOwnerOrRelayer {
        IWalletFactory walletFactory = IWalletFactory(factory);
        walletFactory.conditionalTokens().splitPosition(walletFactory.collateral(), bytes32(0), conditionId, _binaryPartition(), amount);
    }

    /// Complete sets back into collateral, kept here.
    function mergePositions(bytes32 conditionId, uint256 amount) external onlyOwnerOrRelayer {
        IWalletFactory walletFactory = IWalletFactory(factory);
        walletFactory.conditionalTokens().mergePositions(walletFactory.collateral(), bytes32(0), conditionId, _binaryPartition(), amount);
    }

    /// Both tokens of a resolved condition into their payout, kept here.
    function redeemPositions(bytes32 conditionId) external onlyOwnerOrRelayer {
        IWalletFactory walletFactory = IWalletFactory(factory);
        walletFactory.conditionalTokens().redeemPositions(walletFactory.collateral(), bytes32(0), conditionId, _binaryPartition());
    }

    function _setOperatorTrading(bool allowed) private {
        operatorTrading = allowed;
        emit OperatorTradingSet(allowed);
    }

    function _approve(IERC20 usdc, IConditionalTokens ctf, address exchange) private {
        usdc.forceApprove(exchange, type(uint256).max);
        ctf.setApprovalForAll(exchange, true);
    }

    function _binaryPartition() private pure returns (uint256[] memory partition) {
        partition = new uint256[](2);
        partition[0] = 1;
        partition[1] = 2;
    }
}
