"""One token's order book kept from an `orderbook` snapshot and its `orderbook-price-change`
stream (EXTENSIONS.md section 6). Every change is checked: its `seq` must be the next one, and
the book's hash after it must equal the change's `hash` (sha256 over market, token and every
level's price and size, best first, as the server computes it). Pure: no socket here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

ApplyResult = Literal["applied", "stale", "gap", "mismatch"]


@dataclass(frozen=True)
class Level:
    price: str
    size: str


@dataclass(frozen=True)
class Book:
    """A token's book at one `seq`: bids best (highest) first, asks best (lowest) first."""

    market: str
    asset_id: str
    tick_size: str
    seq: int
    timestamp: int
    hash: str
    bids: tuple[Level, ...]
    asks: tuple[Level, ...]

    def best_bid(self) -> Level | None:
        return self.bids[0] if self.bids else None

    def best_ask(self) -> Level | None:
        return self.asks[0] if self.asks else None

    def midpoint(self) -> Decimal | None:
        """Halfway between the best bid and the best ask, when the book has both."""
        if not self.bids or not self.asks:
            return None
        return (Decimal(self.bids[0].price) + Decimal(self.asks[0].price)) / 2


def book_hash(market: str, asset_id: str, bids: Sequence[Level], asks: Sequence[Level]) -> str:
    canonical = json.dumps([market, asset_id, [[l.price, l.size] for l in bids], [[l.price, l.size] for l in asks]], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


class LocalBook:
    def __init__(self, snapshot: Mapping[str, Any]) -> None:
        self.market: str = snapshot["market"]
        self.asset_id: str = snapshot["asset_id"]
        self.tick_size: str = snapshot["tick_size"]
        self.seq: int = snapshot["seq"]
        self.timestamp: int = snapshot["timestamp"]
        self._bids = {level["price"]: level["size"] for level in snapshot["bids"]}
        self._asks = {level["price"]: level["size"] for level in snapshot["asks"]}

    def apply(self, change: Mapping[str, Any]) -> ApplyResult:
        """`applied`: in sync; `stale`: the snapshot holds it already; `gap` or `mismatch`: needs a fresh snapshot."""
        seq: int = change["seq"]
        if seq <= self.seq:
            return "stale"
        if seq != self.seq + 1:
            return "gap"
        for level in change["changes"]:
            side = self._bids if level["side"] == "buy" else self._asks
            if level["size"] == "0":
                side.pop(level["price"], None)
            else:
                side[level["price"]] = level["size"]
        self.seq = seq
        self.timestamp = change["timestamp"]
        return "applied" if self.hash() == change["hash"] else "mismatch"

    def bids(self) -> tuple[Level, ...]:
        return _sorted(self._bids, descending=True)

    def asks(self) -> tuple[Level, ...]:
        return _sorted(self._asks, descending=False)

    def hash(self) -> str:
        return book_hash(self.market, self.asset_id, self.bids(), self.asks())

    def snapshot(self) -> Book:
        bids, asks = self.bids(), self.asks()
        return Book(self.market, self.asset_id, self.tick_size, self.seq, self.timestamp, book_hash(self.market, self.asset_id, bids, asks), bids, asks)


def _sorted(levels: dict[str, str], *, descending: bool) -> tuple[Level, ...]:
    return tuple(Level(price, size) for price, size in sorted(levels.items(), key=lambda item: Decimal(item[0]), reverse=descending))
