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
/// signer signs with its own key (ECDSA); what differs by type is who may be the maker: the
/// signer itself (EOA), or the signer's proxy wallet from the factory (types 1 and 2), which must
/// already be deployed since the exchange moves its funds through the wallet's approvals.
///
/// An order with an empty signature is one an API key placed without signing (EXTENSIONS.md
/// section 11). Only operators settle orders, so it settles on the operator's word, and only for a
/// proxy wallet whose owner left `operatorTrading` on: an EOA has no such switch, so its orders
/// always need its signature.
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

    function _checkSignature(bytes32 orderHash, Order calldata order) internal view {
        bool unsigned = order.signature.length == 0;
        if (order.signatureType == SignatureType.EOA) {
            if (unsigned) revert UnsignedOrderNeedsWallet(orderHash);
            if (order.maker != order.signer) revert MakerIsNotSigner(orderHash);
        } else {
            if (order.maker != walletOf(order.signer)) revert MakerIsNotSignersWallet(orderHash);
            if (order.maker.code.length == 0) revert ProxyWalletNotDeployed(order.maker);
            if (unsigned) {
                // The maker is the factory's wallet at the signer's address, so this reads a real switch.
                if (!IProxyWalletOperatorTrading(order.maker).operatorTrading()) revert UnsignedOrderNotAllowed(orderHash);
                return;
            }
        }
        (address recovered, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(orderHash, order.signature);
        if (recoverError != ECDSA.RecoverError.NoError || recovered != order.signer) revert InvalidSignature(orderHash);
    }
}
