"""The EIP-712 Order of EXTENSIONS.md section 1 (the CTF-exchange layout): its hash and signature;
and the Withdraw of section 14, which the wallet's owner signs under the same (ordinary) domain.

The domain comes from `GET /exchange`: `eip712.verifyingContract` for ordinary markets,
`negRiskVerifyingContract` for neg-risk ones. The digest is
keccak256(0x1901 ‖ domainSeparator ‖ structHash), the order `hash` the API reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ._keccak import keccak256
from .types import ExchangeInfo
from .wallet import Wallet

ORDER_TYPE = (
    "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,"
    "uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)"
)
_DOMAIN_TYPE = "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
WITHDRAW_TYPE = "Withdraw(address to,uint256 amount,uint256 nonce)"
_ORDER_TYPE_HASH = keccak256(ORDER_TYPE.encode())
_WITHDRAW_TYPE_HASH = keccak256(WITHDRAW_TYPE.encode())
_DOMAIN_TYPE_HASH = keccak256(_DOMAIN_TYPE.encode())
_MAX_UINT256 = 2**256 - 1
ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"

SignatureType = Literal[0, 1, 2]


@dataclass(frozen=True)
class OrderDomain:
    name: str
    version: str
    chain_id: int
    verifying_contract: str


@dataclass(frozen=True)
class OrderMessage:
    """The Order exactly as it is signed: integers as int, side 0 buy / 1 sell."""

    salt: int
    maker: str
    signer: str
    taker: str
    token_id: int
    maker_amount: int
    taker_amount: int
    expiration: int
    nonce: int
    fee_rate_bps: int
    side: Literal[0, 1]
    signature_type: SignatureType


def order_domain(exchange: ExchangeInfo, neg_risk: bool) -> OrderDomain:
    """The signing domain of a market's orders; neg-risk markets sign for the neg-risk exchange."""
    eip712 = exchange["eip712"]
    contract = exchange["negRiskVerifyingContract"] if neg_risk else eip712["verifyingContract"]
    return OrderDomain(eip712["name"], eip712["version"], exchange["chainId"], contract)


def _uint(value: int) -> bytes:
    if not 0 <= value <= _MAX_UINT256:
        raise ValueError(f"EIP-712 uint256 out of range: {value}")
    return value.to_bytes(32, "big")


def _address(value: str) -> bytes:
    raw = bytes.fromhex(value.removeprefix("0x"))
    if len(raw) != 20:
        raise ValueError(f"EIP-712 address must be 20 bytes: {value}")
    return raw.rjust(32, b"\0")


@lru_cache(maxsize=16)
def domain_separator(domain: OrderDomain) -> bytes:
    return keccak256(
        _DOMAIN_TYPE_HASH
        + keccak256(domain.name.encode())
        + keccak256(domain.version.encode())
        + _uint(domain.chain_id)
        + _address(domain.verifying_contract)
    )


def order_digest(order: OrderMessage, domain: OrderDomain) -> bytes:
    """The 32-byte EIP-712 digest that is signed."""
    struct_hash = keccak256(
        _ORDER_TYPE_HASH
        + _uint(order.salt)
        + _address(order.maker)
        + _address(order.signer)
        + _address(order.taker)
        + _uint(order.token_id)
        + _uint(order.maker_amount)
        + _uint(order.taker_amount)
        + _uint(order.expiration)
        + _uint(order.nonce)
        + _uint(order.fee_rate_bps)
        + _uint(order.side)
        + _uint(order.signature_type)
    )
    return keccak256(b"\x19\x01" + domain_separator(domain) + struct_hash)


def order_hash(order: OrderMessage, domain: OrderDomain) -> str:
    """The order `hash` of the API: the digest as 0x-hex."""
    return "0x" + order_digest(order, domain).hex()


def sign_order(wallet: Wallet, order: OrderMessage, domain: OrderDomain) -> str:
    return wallet.sign_digest(order_digest(order, domain))


def withdraw_digest(to: str, amount_base_units: int, nonce: int, domain: OrderDomain) -> bytes:
    """The digest of a Withdraw: `amount` in base units, each `nonce` once per wallet."""
    struct_hash = keccak256(_WITHDRAW_TYPE_HASH + _address(to) + _uint(amount_base_units) + _uint(nonce))
    return keccak256(b"\x19\x01" + domain_separator(domain) + struct_hash)
