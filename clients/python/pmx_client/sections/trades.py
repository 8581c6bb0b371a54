from __future__ import annotations

from ..flow import Flow, M, Section, api, paged
from ..pagination import backwards
from ..session import QueryValue
from ..types import Trade, TradeActivity, TradeActivityList, TradesList


class TradesSection(Section[M]):
    """Public trades (SPEC.md 4.6), newest first; the `all*` walks follow `before` + `beforeId`."""

    @api
    def list(self, /, **query: QueryValue) -> Flow[TradesList]:
        """Raw trades (the taker's token, side and price); times in Unix seconds."""
        page: TradesList = yield from self._session.call("GET", "/trades", query=query)
        return page

    @paged(Trade)
    def all(self, /, **query: QueryValue) -> Flow[None]:
        """Every matching trade, newest first (`after` bounds the walk)."""
        yield from backwards(lambda key: self._session.call("GET", "/trades", query={**query, **key}))

    @api
    def activity(self, /, **query: QueryValue) -> Flow[TradeActivityList]:
        """Confirmed trades with trader, market and event; times in epoch microseconds."""
        page: TradeActivityList = yield from self._session.call("GET", "/trades/activity", query=query)
        return page

    @paged(TradeActivity)
    def all_activity(self, /, **query: QueryValue) -> Flow[None]:
        yield from backwards(lambda key: self._session.call("GET", "/trades/activity", query={**query, **key}))
