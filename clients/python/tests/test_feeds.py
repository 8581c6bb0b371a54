"""The book feed keeps a local book equal to REST (snapshot, seq, hash, resync), and the /user
feed carries the caller's updates; both blocking and asyncio."""

from __future__ import annotations

import asyncio
import random
from decimal import Decimal
from typing import Any

from conftest import Server, new_trader

from pmx_client import AsyncClient, Book, Client, OrderSpec
from pmx_client.book import LocalBook


def _same_as_rest(client: Client, token_id: str, book: Book) -> bool:
    rest = client.book.get(token_id)
    return book.hash == rest["hash"] and [(l.price, l.size) for l in book.bids] == [(l["price"], l["size"]) for l in rest["bids"]]


def test_the_local_book_follows_every_change_and_equals_rest(server: Server, market: dict[str, Any]) -> None:
    maker, taker = new_trader(server), new_trader(server)
    token = market["tokenId1"]
    rng = random.Random(7)
    with maker.watch_book([token, market["tokenId2"]]) as books:
        books.ready(30)
        placed = [maker.orders.place(OrderSpec(token, "BUY", f"0.{rng.randint(10, 45)}", str(rng.randint(1, 9)))) for _ in range(12)]
        for order in placed[:4]:
            maker.orders.cancel(order["id"])
        taker.orders.place(OrderSpec(token, "BUY", "0.6", "1"))  # a new best bid
        taker.markets.split(market["id"], "5")
        taker.orders.place(OrderSpec(token, "SELL", "0.2", "3", type="FAK"))  # takes from the bids
        final = maker.book.get(token)
        book = books.until(token, lambda b: b.hash == final["hash"], 30)
        assert _same_as_rest(maker, token, book)
        mirror = books.until(market["tokenId2"], lambda b: b.hash == maker.book.get(market["tokenId2"])["hash"], 30)
        assert [Decimal(l.price) for l in mirror.asks] == [1 - Decimal(l.price) for l in book.bids]  # one book per market
        assert books.resync_count == 0

        # A change the watcher never saw (a gap in seq): it asks for a fresh snapshot and is equal again.
        books._on_change({"market": book.market, "asset_id": token, "seq": book.seq + 5, "hash": "0" * 64, "timestamp": 0, "changes": []})
        assert books.resync_count == 1
        maker.orders.place(OrderSpec(token, "BUY", "0.01", "1"))
        latest = maker.book.get(token)
        assert _same_as_rest(maker, token, books.until(token, lambda b: b.hash == latest["hash"], 30))


def test_local_book_refuses_gaps_and_mismatches() -> None:
    snapshot = {"market": "m", "asset_id": "1", "tick_size": "0.01", "seq": 3, "timestamp": 0, "hash": "", "bids": [{"price": "0.4", "size": "2"}], "asks": []}
    book = LocalBook(snapshot)
    after = LocalBook({**snapshot, "bids": [{"price": "0.5", "size": "1"}, {"price": "0.4", "size": "2"}]}).hash()
    assert book.apply({"seq": 3, "hash": after, "timestamp": 1, "changes": []}) == "stale"
    assert book.apply({"seq": 5, "hash": after, "timestamp": 1, "changes": []}) == "gap"
    assert book.apply({"seq": 4, "hash": after, "timestamp": 1, "changes": [{"price": "0.5", "side": "buy", "size": "1"}]}) == "applied"
    assert [l.price for l in book.bids()] == ["0.5", "0.4"]
    assert book.apply({"seq": 5, "hash": after, "timestamp": 2, "changes": [{"price": "0.5", "side": "buy", "size": "0"}]}) == "mismatch"


def test_the_user_feed_carries_the_callers_order_updates(server: Server, market: dict[str, Any]) -> None:
    trader = new_trader(server)
    with trader.user_feed() as feed:
        order = trader.orders.place(OrderSpec(market["tokenId1"], "BUY", "0.3", "2"))
        trader.orders.cancel(order["id"])
        seen = [feed.get(timeout=15) for _ in range(2)]
    assert [(m.type, m.data["type"], m.data["order"]["id"]) for m in seen if m] == [("order-update", "PLACEMENT", order["id"]), ("order-update", "CANCELLATION", order["id"])]


def test_the_asyncio_client_and_feeds(server: Server, market: dict[str, Any]) -> None:
    async def scenario() -> None:
        async with AsyncClient(server.url, wallet=new_trader(server).session.wallet) as client:
            await client.auth.sign_in()
            await client.auth.create_api_key()
            await client.account.faucet("100")
            token = market["tokenId1"]
            watcher = await client.watch_book([token])
            feed = await client.user_feed()
            try:
                await watcher.ready(30)
                placed = await client.orders.place(OrderSpec(token, "BUY", "0.33", "3"))
                rest = await client.book.get(token)
                book = await watcher.until(token, lambda b: b.hash == rest["hash"], 30)
                assert book.best_bid() is not None and book.best_bid().price == "0.33"  # type: ignore[union-attr]
                message = await feed.get(timeout=15)
                assert message is not None and message.data["order"]["id"] == placed["id"]
                assert [o["id"] async for o in client.orders.all(market=market["id"])] == [placed["id"]]
                assert (await client.orders.cancel_all())["clearedMarkets"] == [market["id"]]
            finally:
                await feed.close()
                await watcher.close()

    asyncio.run(scenario())
