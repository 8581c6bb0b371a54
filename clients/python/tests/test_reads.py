"""Every read route of SPEC.md through the client, after real trades, with the paginated walks."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Server, new_trader, publish_event

from pmx_client import Client, NotFoundError, OrderSpec


@pytest.fixture(scope="module")
def traded(server: Server) -> dict[str, Any]:
    """A market where a maker and a taker traded, and three more events to page through."""
    event = publish_event(server)
    for _ in range(3):
        publish_event(server)
    market = event["markets"][0]
    maker, taker = new_trader(server), new_trader(server)
    maker.account.update({"displayName": f"maker_{maker.session.wallet.address[2:10]}"})  # type: ignore[union-attr]
    for price in ("0.41", "0.42", "0.43"):
        maker.orders.place(OrderSpec(market["tokenId1"], "BUY", price, "5"))
    taker.markets.split(market["id"], "20")
    taker.orders.place(OrderSpec(market["tokenId1"], "SELL", "0.41", "12"))  # fills 0.43, 0.42 and part of 0.41
    return {"event": event, "market": market, "maker": maker, "taker": taker}


def test_catalogue_books_prices_and_trades(server: Server, traded: dict[str, Any]) -> None:
    client, market, event = Client(server.url), traded["market"], traded["event"]
    assert client.events.get(event["slug"])["id"] == event["id"]
    assert len(list(client.events.all(limit=1))) >= 4  # one a page
    assert client.markets.list([market["id"]])[0]["id"] == market["id"]
    assert client.markets.get(market["slug"])["tokenId1"] == market["tokenId1"]
    assert client.markets.volume(market["id"])["marketId"] == market["id"]
    assert client.events.volume(event["id"]) > 0
    assert client.markets.holders(market["id"], limit=5)["marketId"] == market["id"]
    book = client.book.get(market["tokenId1"])
    assert [(l["price"], l["size"]) for l in book["bids"]] == [("0.41", "3")]
    assert client.book.last_trade_price(market["tokenId1"]) == {"price": "0.41", "side": "sell"}
    assert client.book.history(market["tokenId1"], "1D", 60)["data"]
    assert list(client.book.all_history(market["tokenId1"], "1H", 1, limit=2))
    trades = list(client.trades.all(market=market["id"], limit=1))
    assert len(trades) == 3 and len({t["id"] for t in trades}) == 3
    assert client.trades.list(market=market["id"])["data"][0]["id"] == trades[0]["id"]
    assert isinstance(client.trades.activity(eventId=event["id"])["data"], list)
    assert isinstance(list(client.trades.all_activity(eventId=event["id"], limit=1)), list)
    assert len(list(client.markets.all_activity_of(market["id"], limit=1))) >= 3
    assert "data" in client.markets.activity(limit=2) and list(client.markets.all_activity(limit=50))
    assert client.markets.activity_of(market["id"])["data"]
    users = [traded["maker"].session.user["userId"], traded["taker"].session.user["userId"]]
    assert {p["userId"] for p in client.events.positions(event["id"], users)} == set(users)


def test_portfolio_rewards_and_profiles(server: Server, traded: dict[str, Any]) -> None:
    maker, taker, market = traded["maker"], traded["taker"], traded["market"]
    positions = maker.portfolio.positions()
    assert positions["data"][0]["tokenId"] == market["tokenId1"]
    assert [p["tokenId"] for p in maker.portfolio.all_positions(limit=1)] == [market["tokenId1"]]
    assert maker.portfolio.value()["value"] > 0
    assert maker.portfolio.traded_count() == 1
    assert {a["type"] for a in taker.portfolio.all_activity(limit=1)} >= {"SPLIT", "SELL"}
    assert taker.portfolio.activity(types=["SPLIT"])["data"][0]["type"] == "SPLIT"
    assert market["id"] in [m["marketId"] for m in taker.portfolio.mergeable()]
    assert taker.portfolio.merge([market["id"]])["included"] == [market["id"]]
    assert taker.portfolio.redeemable() == []
    assert taker.portfolio.redeem([market["id"]])["excluded"][0]["reason"] == "not-redeemable"
    summary = maker.rewards.summary()
    assert summary["canClaim"] is False and maker.rewards.qualifying_orders() == []
    assert maker.rewards.history()["data"] == [] and list(maker.rewards.all_history()) == []
    assert maker.rewards.claim()["outcome"] == "nothing-to-claim"
    assert maker.rewards.pools()["data"] == []  # no market of this server has a reward
    with pytest.raises(NotFoundError):
        maker.rewards.pool(market["id"])
    assert maker.rewards.leaderboard(window="all")["window"] == "all"
    name = maker.account.get()["displayName"]
    assert name is not None
    client = Client(server.url)
    assert float(client.profiles.summary(name)["positionsValue"]) > 0
    assert client.profiles.pnl_history(name, "1D")["range"] == "1D"
    assert client.profiles.positions(name, "active")[0]["market"]
    assert client.profiles.positions(name, "closed") == []
    assert client.profiles.activity(name)[0]["action"] == "bought"
    with pytest.raises(NotFoundError) as unknown:
        client.profiles.summary("nobody_by_this_name")
    assert unknown.value.status_code == 404 and unknown.value.code == "NOT_FOUND"
