// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ProxyWalletAddress} from "../wallet/ProxyWalletAddress.sol";
import {Order, ORDER_TYPEHASH, SignatureType} from "./OrderStructs.sol";
import {Nonces} from "./Nonces.sol";

interface IProxyWalletFactoryCodeHash {
    function walletInitCodeHash() external view returns (bytes32);
}

interface IProxyWalletOperatorTrading {
    function operatorTrading() external view returns (bool);
}

/// Order hashing under the domain {name, "1", chainId, this address} and the signature check. The
/// signer signs with its own key (ECDSA). Every order settles from the signer's proxy wallet from
/// the factory, which must already be deployed since the exchange moves its funds through the
/// wallet's approvals: the exchange keeps one account per user, its wallet. What differs by type is
/// only who is named maker: the signer itself (0, EOA: what order builders sign by default, so
/// their orders settle unchanged) or the wallet (1, and 2 treated as 1).
///
/// An order with an empty signature is one an API key placed without signing (EXTENSIONS.md
/// section 11). Only operators settle orders, so it settles on the operator's word, and only from
/// a wallet whose owner left `operatorTrading` on.
abstract contract Signatures is Nonces, EIP712 {
    address public immutable proxyWalletFactory;
    bytes32 internal immutable walletInitCodeHash;

    constructor(string memory name, address walletFactory) EIP712(name, "1") {
        proxyWalletFactory = walletFactory;
        walletInitCodeHash = IProxyWalletFactoryCodeHash(walletFactory).walletInitCodeHash();
    }

    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    function hashOrder(Order calldata order) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    ORDER_TYPEHASH,
                    order.salt,
                    order.maker,
                    order.signer,
                    order.taker,
                    order.tokenId,
                    order.makerAmount,
                    order.takerAmount,
                    order.expiration,
                    order.nonce,
                    order.feeRateBps,
                    order.side,
                    order.signatureType
                )
            )
        );
    }

    function walletOf(address owner) public view returns (address) {
        return ProxyWalletAddress.compute(proxyWalletFactory, owner, walletInitCodeHash);
    }

    /// Where an order's assets come from and go to: the signer's wallet, which an order of type 1
    /// or 2 names as its maker and an order of type 0 names through its signer.
    function _fundsOf(Order calldata order) internal view returns (address) {
        return order.signatureType == SignatureType.EOA ? walletOf(order.signer) : order.maker;
    }

    function _checkSignature(bytes32 orderHash, Order calldata order) internal view {
        address wallet = walletOf(order.signer);
        if (order.signatureType == SignatureType.EOA) {
            if (order.maker != order.signer) revert MakerIsNotSigner(orderHash);
        } else if (order.maker != wallet) {
            revert MakerIsNotSignersWallet(orderHash);
        }
        if (wallet.code.length == 0) revert ProxyWalletNotDeployed(wallet);
        if (order.signature.length == 0) {
            // The wallet is the factory's at the signer's address, so this reads a real switch.
            if (!IProxyWalletOperatorTrading(wallet).operatorTrading()) revert UnsignedOrderNotAllowed(orderHash);
            return;
        }
        (address recovered, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(orderHash, order.signature);
        if (recoverError != ECDSA.RecoverError.NoError || recovered != order.signer) revert InvalidSignature(orderHash);
    }
}
