"""Orders against a real server: hashes, both signing domains, both signature types, every cancel
route, idempotency keys, and the local refusals matching the server's."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from conftest import Server, new_trader, publish_event

from pmx_client import Client, ConflictError, OrderBuildError, OrderSpec, ValidationError, order_domain, order_hash
from pmx_client.orders import message_of


def test_random_orders_hash_as_the_server_hashes_them(server: Server, trader: Client) -> None:
    """A property over 40 seeded random orders: both tokens, both sides, ticks 0.01 and 0.001,
    prices and sizes across their ranges, expirations, both domains; the local EIP-712 hash of
    each signed body equals the `hash` GET /orders/{id} reports, and the server verified its signature."""
    rng = random.Random(42)
    plain = publish_event(server, markets=[{"name": "coarse"}, {"name": "fine", "tickSize": "0.001"}])["markets"]
    neg_risk = publish_event(server, negRisk=True, markets=[{"name": "A"}, {"name": "B"}])["markets"]
    exchange = trader.exchange()
    trader.account.faucet("100000")
    for _ in range(40):
        market = rng.choice(plain + neg_risk)
        decimals = 3 if market["tickSize"] == "0.001" else 2
        # Far from each other's prices so nothing trades: buys low, sells (of split tokens) high.
        side = rng.choice(["BUY", "SELL"])
        ticks = rng.randint(1, 10**decimals // 2 - 1)
        price = f"{(ticks if side == 'BUY' else 10**decimals - ticks) / 10**decimals:.{decimals}f}"
        size = str(rng.randint(1, 50))
        token = rng.choice([market["tokenId1"], market["tokenId2"]])
        if side == "SELL":
            trader.markets.split(market["id"], size)
        expiration = rng.choice([0, 4_102_444_800])
        body = trader.orders.build(OrderSpec(token, side, price, size, expiration=expiration), market)  # type: ignore[arg-type]
        placed = trader.orders.place(body)
        local = order_hash(message_of(body), order_domain(exchange, market["negRisk"]))
        assert trader.orders.get(placed["id"])["hash"] == local == placed["hash"]
        assert placed["status"] == "PENDING"


def test_signature_type_0_makes_the_wallet_the_maker(server: Server, market: dict[str, Any]) -> None:
    eoa = new_trader(server, signature_type=0)
    placed = eoa.orders.place(OrderSpec(market["tokenId1"], "BUY", "0.1", "5"))
    assert eoa.session.wallet is not None
    assert (placed["signatureType"], placed["maker"], placed["signer"]) == (0, eoa.session.wallet.address, eoa.session.wallet.address)
    proxy = new_trader(server)
    by_proxy = proxy.orders.place(OrderSpec(market["tokenId1"], "BUY", "0.1", "5"))
    assert proxy.session.user is not None
    assert (by_proxy["signatureType"], by_proxy["maker"]) == (1, proxy.session.user["proxyWallet"])


def test_an_idempotency_key_places_an_order_once(trader: Client, market: dict[str, Any]) -> None:
    """A retried submission (the same body, as the client's own 429/503 retries send) is answered
    with the order it placed; the key on another order is a conflict."""
    key = str(uuid.uuid4())
    body = trader.orders.build(OrderSpec(market["tokenId1"], "BUY", "0.2", "5", idempotency_key=key))
    first = trader.orders.place(body)
    again = trader.orders.place(body)
    assert again["id"] == first["id"]
    assert [o["id"] for o in trader.orders.list(market=market["id"])] == [first["id"]]
    with pytest.raises(ConflictError) as reused:  # the same key for another order
        trader.orders.place(OrderSpec(market["tokenId1"], "BUY", "0.3", "5", idempotency_key=key))
    assert reused.value.code == "CONFLICT" and reused.value.status_code == 409


def test_batches_and_every_cancel_route(server: Server, trader: Client) -> None:
    event = publish_event(server, markets=[{"name": "one"}, {"name": "two"}])
    one, two = event["markets"]
    specs = [OrderSpec(m["tokenId1"], "BUY", f"0.{i + 1}", "2") for m in (one, two) for i in range(30)]
    progress: list[tuple[int, int]] = []
    results = trader.orders.place_many(specs, on_progress=lambda done, total: progress.append((done, total)))
    assert [r["index"] for r in results] == list(range(60)) and all(r["success"] for r in results)
    assert progress == [(50, 60), (60, 60)]  # 50 per call

    ids = [r["orderId"] for r in results if "orderId" in r]
    assert trader.orders.cancel(ids[0])["status"] == "CANCELLED"
    cancelled = trader.orders.cancel_many(ids[1:5])
    assert [c["orderId"] for c in cancelled] == ids[1:5] and all(c["success"] for c in cancelled)
    assert {o["status"] for o in trader.orders.cancel_market(one["id"])} == {"CANCELLED"}
    assert set(trader.orders.cancel_event(event["id"])["clearedMarkets"]) == {one["id"], two["id"]}
    trader.orders.place(OrderSpec(one["tokenId2"], "BUY", "0.05", "2"))
    assert one["id"] in trader.orders.cancel_all()["clearedMarkets"]
    assert list(trader.orders.all(market=one["id"])) == []
    assert len(list(trader.orders.all(market=one["id"], status="CANCELLED", limit=7))) == 31  # 30, and the one cancel-all took; 7 a page


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        (dict(price="0.425"), "ORDER_PRICE_NOT_ON_TICK"),
        (dict(price="1"), "ORDER_PRICE_OUT_OF_RANGE"),
        (dict(size="1.00001"), "ORDER_SIZE_NOT_ON_TICK"),
        (dict(type="FOK", post_only=True), "ORDER_POST_ONLY_NOT_GTC"),
    ],
)
def test_local_refusals_are_what_the_server_answers(trader: Client, market: dict[str, Any], spec: dict[str, Any], code: str) -> None:
    """The same mistake refused locally and, sent raw, by the server, with the same code."""
    order = OrderSpec(**{"token_id": market["tokenId1"], "side": "BUY", "price": "0.5", "size": "1", **spec})
    with pytest.raises(OrderBuildError) as local:
        trader.orders.build(order)
    raw = trader.orders.build(OrderSpec(market["tokenId1"], "BUY", "0.5", "1"))
    raw.pop("signature"), raw.pop("maker"), raw.pop("signer"), raw.pop("nonce"), raw.pop("signatureType"), raw.pop("priceUint")
    if "price" in spec:
        cents = 425 if spec["price"] == "0.425" else 1000
        raw.update(makerAmount=str(cents * 1000), takerAmount="1000000")
    if "size" in spec:
        raw.update(makerAmount="500005", takerAmount="1000010")
    if "post_only" in spec:
        raw.update(orderType="FOK", postOnly=True)
    with pytest.raises(ValidationError) as server_side:
        trader.orders.place(raw)  # type: ignore[arg-type]
    assert local.value.code == server_side.value.code == code
    assert server_side.value.status_code == 400


def test_a_bad_order_signature_is_refused(trader: Client, market: dict[str, Any]) -> None:
    body = trader.orders.build(OrderSpec(market["tokenId1"], "BUY", "0.3", "1"))
    body["takerAmount"] = "2000000"  # signed for 1 token, sent for 2
    body["priceUint"] = "150000"
    with pytest.raises(ValidationError) as refused:
        trader.orders.place(body)
    assert (refused.value.status_code, refused.value.code) == (400, "INVALID_SIGNATURE")
    other = Client(trader.session.base_url, wallet=None, api_key=trader.session.api_key)
    stranger = new_trader_signed_by_other_wallet(trader, market)
    with pytest.raises(ValidationError) as foreign:
        other.orders.place(stranger)
    assert foreign.value.code == "INVALID_SIGNATURE"


def new_trader_signed_by_other_wallet(trader: Client, market: dict[str, Any]) -> Any:
    """An order signed by another wallet than the API key's user."""
    from pmx_client import Wallet

    impostor = Client(trader.session.base_url, wallet=Wallet.create(), api_key=trader.session.api_key)
    impostor.session.user = trader.session.user
    return impostor.orders.build(OrderSpec(market["tokenId1"], "BUY", "0.3", "1"))


def test_orders_follow_an_operators_tick_change(server: Server, trader: Client) -> None:
    """The client caches a market's rules; after the operator makes its tick finer, then coarser, a
    price on the new tick is placed and one off it is refused naming the new tick, with no
    forget_markets()."""
    market = publish_event(server, markets=[{"name": "retick"}])["markets"][0]
    order = lambda price: OrderSpec(market["tokenId1"], "BUY", price, "10")  # noqa: E731
    trader.orders.place(order("0.41"))
    with server.admin as admin:
        assert admin.patch(f"/admin/markets/{market['id']}", json={"tickSize": "0.001"}).status_code == 200
    assert trader.orders.place(order("0.415"))["price"] == 0.415
    with server.admin as admin:
        assert admin.patch(f"/admin/markets/{market['id']}", json={"tickSize": "0.01"}).status_code == 200
    with pytest.raises(OrderBuildError) as refused:
        trader.orders.place(order("0.425"))
    assert refused.value.code == "ORDER_PRICE_NOT_ON_TICK" and "0.01" in refused.value.message
    assert trader.orders.place(order("0.42"))["price"] == 0.42
    trader.orders.cancel_all()


def test_orders_follow_an_operators_fee_cut_but_not_a_raise(server: Server, trader: Client) -> None:
    """The client caches a market's fee rate with its rules; after the operator cuts it, an order is
    placed at the new rate with no forget_markets(). A raise is refused naming both rates, and so
    are later orders (a tick made finer meanwhile too, before anything is sent), until
    forget_markets() accepts it."""
    market = publish_event(server, orderFeeRateBps=50, markets=[{"name": "refee"}])["markets"][0]
    order = OrderSpec(market["tokenId1"], "BUY", "0.41", "10")

    def patch(**fields: Any) -> None:
        with server.admin as admin:
            assert admin.patch(f"/admin/markets/{market['id']}", json=fields).status_code == 200

    assert trader.orders.place(order)["feeRateBps"] == 50
    patch(orderFeeRateBps=20)
    assert trader.orders.place(order)["feeRateBps"] == 20
    patch(orderFeeRateBps=80)
    for _ in range(2):
        with pytest.raises(ValidationError) as raised:
            trader.orders.place(order)
        assert raised.value.code == "ORDER_FEE_RATE_MISMATCH"
        assert "raised from 20 to 80 bps" in raised.value.message and "orders.forget_markets() accepts the new terms" in raised.value.message
    patch(tickSize="0.001")
    with pytest.raises(OrderBuildError) as unsent:
        trader.orders.place(OrderSpec(market["tokenId1"], "BUY", "0.415", "10"))
    assert unsent.value.code == "ORDER_FEE_RATE_MISMATCH" and "raised from 20 to 80 bps" in unsent.value.message
    assert sorted(o["feeRateBps"] for o in trader.orders.list(market=market["id"])) == [20, 50]
    trader.orders.forget_markets()
    assert trader.orders.place(order)["feeRateBps"] == 80
    trader.orders.cancel_all()
