"""Orders as a trader states them (`OrderSpec`: decimal price and size) built into the signed
CreateOrder body of SPEC.md section 4.4 and EXTENSIONS.md section 11.

The amounts are exact base units checked against the market's tick rules; the EIP-712 Order is
signed for the market's domain (the neg-risk exchange for neg-risk markets) with
`signatureType` 1 (maker: the proxy wallet) or 0 (maker: the wallet itself); `feeRateBps` is
the market's `orderFeeRateBps`; every order carries an idempotency key, so a retried submission
cannot place it twice.
"""

from __future__ import annotations

import re
import secrets
import uuid
from dataclasses import dataclass, field
from typing import Literal, TypedDict

from .amounts import DecimalLike, Side, order_amounts
from .eip712 import ZERO_ADDRESS, OrderMessage, SignatureType, order_domain, sign_order
from .errors import OrderBuildError
from .types import ExchangeInfo, Market
from .wallet import Wallet

OrderType = Literal["GTC", "FOK", "FAK"]
_TOKEN_ID = re.compile(r"^[0-9]{1,78}$")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)


class _CreateOrderRequired(TypedDict):
    salt: str
    taker: str
    tokenId: str
    makerAmount: str
    takerAmount: str
    expiration: int
    side: int
    orderType: OrderType


class CreateOrder(_CreateOrderRequired, total=False):
    """The body of POST /orders (SPEC.md 4.4 CreateOrder plus the signed fields of EXTENSIONS.md 11)."""

    feeRateBps: int
    signature: str
    postOnly: bool
    priceUint: str
    idempotencyKey: str
    maker: str
    signer: str
    nonce: int
    signatureType: int


@dataclass(frozen=True)
class OrderSpec:
    """An order as a trader says it: `price` of the token (e.g. "0.42") and `size` in tokens (e.g. "10")."""

    token_id: str
    side: Side
    price: DecimalLike
    size: DecimalLike
    type: OrderType = "GTC"
    #: Rest only, never take (GTC only); a crossing post-only order is refused.
    post_only: bool | None = None
    #: Unix seconds; 0: no expiry.
    expiration: int = 0
    #: Default: a fresh UUID v4 per built order.
    idempotency_key: str | None = field(default=None)


def _invalid(message: str) -> OrderBuildError:
    return OrderBuildError("VALIDATION_FAILED", message)


def check_spec(spec: OrderSpec) -> None:
    """Every field checked before anything is signed: a typo must not become another order."""
    if not isinstance(spec.token_id, str) or not _TOKEN_ID.match(spec.token_id):
        raise _invalid(f"token_id {spec.token_id!r} is not a numeric string")
    if spec.side not in ("BUY", "SELL"):
        raise _invalid(f"side {spec.side!r} must be exactly 'BUY' or 'SELL'")
    if spec.type not in ("GTC", "FOK", "FAK"):
        raise _invalid(f"type {spec.type!r} must be one of GTC, FOK, FAK")
    if spec.post_only is not None and not isinstance(spec.post_only, bool):
        raise _invalid(f"post_only {spec.post_only!r} must be True or False")
    if spec.post_only and spec.type != "GTC":
        raise OrderBuildError("ORDER_POST_ONLY_NOT_GTC", "post_only is valid for GTC orders only")
    if isinstance(spec.expiration, bool) or not isinstance(spec.expiration, int) or spec.expiration < 0:
        raise _invalid(f"expiration {spec.expiration!r} must be Unix seconds or 0")
    if spec.idempotency_key is not None and not _UUID.match(str(spec.idempotency_key)):
        raise _invalid(f"idempotency_key {spec.idempotency_key!r} must be a UUID")


@dataclass(frozen=True)
class Signer:
    wallet: Wallet
    #: The wallet's proxy wallet (Account.proxyWallet): the maker of signatureType 1 orders.
    proxy_wallet: str
    signature_type: Literal[0, 1] = 1


def random_salt() -> int:
    """A random uint128 salt."""
    return secrets.randbits(128)


def build_order(spec: OrderSpec, market: Market, exchange: ExchangeInfo, signer: Signer | None) -> CreateOrder:
    """The CreateOrder body of `spec` in `market`; signed when a signer is given, else the server fills in the caller."""
    check_spec(spec)
    if spec.token_id not in (market["tokenId1"], market["tokenId2"]):
        raise OrderBuildError("ORDER_TOKEN_NOT_IN_MARKET", f"token {spec.token_id} is not an outcome token of market {market['id']}")
    amounts = order_amounts(spec.side, spec.price, spec.size, market["tickSize"])
    salt = random_salt()
    side: Literal[0, 1] = 0 if spec.side == "BUY" else 1
    body: CreateOrder = {
        "salt": str(salt),
        "taker": ZERO_ADDRESS,
        "tokenId": spec.token_id,
        "makerAmount": str(amounts.maker_amount),
        "takerAmount": str(amounts.taker_amount),
        "expiration": spec.expiration,
        "side": side,
        "orderType": spec.type,
        "priceUint": str(amounts.price_micros),
        "idempotencyKey": spec.idempotency_key or str(uuid.uuid4()),
    }
    if spec.post_only is not None:
        body["postOnly"] = spec.post_only
    if signer is None:
        return body
    signature_type: SignatureType = signer.signature_type
    maker = signer.wallet.address if signature_type == 0 else signer.proxy_wallet
    message = OrderMessage(
        salt=salt,
        maker=maker,
        signer=signer.wallet.address,
        taker=ZERO_ADDRESS,
        token_id=int(spec.token_id),
        maker_amount=amounts.maker_amount,
        taker_amount=amounts.taker_amount,
        expiration=spec.expiration,
        nonce=0,
        fee_rate_bps=market["orderFeeRateBps"],
        side=side,
        signature_type=signature_type,
    )
    body["maker"] = maker
    body["signer"] = signer.wallet.address
    body["nonce"] = 0
    body["signatureType"] = signature_type
    body["feeRateBps"] = market["orderFeeRateBps"]
    body["signature"] = sign_order(signer.wallet, message, order_domain(exchange, market["negRisk"]))
    return body


def message_of(body: CreateOrder) -> OrderMessage:
    """The EIP-712 Order a signed CreateOrder body stands for (to hash or check it)."""
    side = body["side"]
    signature_type = body.get("signatureType", 1)
    if side not in (0, 1) or signature_type not in (0, 1, 2):
        raise OrderBuildError("VALIDATION_FAILED", "side must be 0 or 1 and signatureType 0, 1 or 2")
    return OrderMessage(
        salt=int(body["salt"]),
        maker=body["maker"],
        signer=body["signer"],
        taker=body["taker"],
        token_id=int(body["tokenId"]),
        maker_amount=int(body["makerAmount"]),
        taker_amount=int(body["takerAmount"]),
        expiration=body["expiration"],
        nonce=body.get("nonce", 0),
        fee_rate_bps=body.get("feeRateBps", 0),
        side=0 if side == 0 else 1,
        signature_type=0 if signature_type == 0 else 1 if signature_type == 1 else 2,
    )
