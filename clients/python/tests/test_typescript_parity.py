"""The same order signed by this client and by the TypeScript SDK: the same EIP-712 hash, the same
(deterministic, RFC 6979) signature, and the server accepts it, for both order domains."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from conftest import Server, publish_event
from typescript_sdk import run_ts_sdk

from pmx_client import Client, OrderSpec, order_domain, order_hash
from pmx_client.eip712 import sign_order
from pmx_client.orders import message_of


@pytest.mark.parametrize("neg_risk", [False, True])
def test_python_and_typescript_sign_the_same_order_alike(server: Server, trader: Client, neg_risk: bool) -> None:
    market = publish_event(server, negRisk=neg_risk, markets=[{"name": "A"}, {"name": "B"}])["markets"][0]
    exchange = trader.exchange()
    wallet = trader.session.wallet
    assert wallet is not None
    bodies = [trader.orders.build(OrderSpec(market["tokenId1"], "BUY", price, "3")) for price in ("0.11", "0.12")]
    messages = [message_of(body) for body in bodies]
    eoa = dataclasses.replace(messages[1], maker=wallet.address, signature_type=0)
    messages[1] = eoa
    ts = run_ts_sdk({
        "privateKey": wallet.private_key,
        "exchange": exchange,
        "negRisk": neg_risk,
        "orders": [{k: str(v) for k, v in _wire(m).items()} for m in messages],
    })
    domain = order_domain(exchange, neg_risk)
    for message, theirs in zip(messages, ts):
        assert order_hash(message, domain) == theirs["hash"]
        assert sign_order(wallet, message, domain) == theirs["signature"]
    # The TypeScript signature on the Python-built body is accepted, and its hash is the one stored.
    bodies[0]["signature"] = ts[0]["signature"]
    placed = trader.orders.place(bodies[0])
    assert trader.orders.get(placed["id"])["hash"] == ts[0]["hash"]


def _wire(message: Any) -> dict[str, Any]:
    """The Order message with the names of the EIP-712 type."""
    names = {"token_id": "tokenId", "maker_amount": "makerAmount", "taker_amount": "takerAmount", "fee_rate_bps": "feeRateBps", "signature_type": "signatureType"}
    return {names.get(k, k): v for k, v in dataclasses.asdict(message).items()}
