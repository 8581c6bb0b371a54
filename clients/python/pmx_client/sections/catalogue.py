from __future__ import annotations

import builtins

from collections.abc import Sequence

from ..amounts import DecimalLike
from ..flow import Flow, M, Section, api, paged
from ..pagination import by_cursor, by_page, full_page
from ..session import QueryValue, segment
from ..types import Activity, ActivityCursorPage, ActivityOffsetPage, Event, EventPage, EventUserPositions, Market, MarketHolders, MarketVolume, SplitResult
from .account import _display


class EventsSection(Section[M]):
    """Public catalogue of events (SPEC.md 4.1). Query parameters keep the API's names: `eventStatus="ACTIVE"`."""

    @api
    def list(self, /, **query: QueryValue) -> Flow[EventPage]:
        page: EventPage = yield from self._session.call("GET", "/events", query=query)
        return page

    @paged(Event)
    def all(self, /, **query: QueryValue) -> Flow[None]:
        """Every matching event, page after page."""
        yield from by_page(lambda number: self._session.call("GET", "/events", query={**query, "page": number}), full_page)

    @api
    def get(self, id_or_slug: str, /, **query: QueryValue) -> Flow[Event]:
        event: Event = yield from self._session.call("GET", f"/events/{segment(id_or_slug)}", query=query)
        return event

    @api
    def volume(self, id_or_slug: str) -> Flow[float]:
        volume: float = yield from self._session.call("GET", f"/events/{segment(id_or_slug)}/volume")
        return volume

    @api
    def positions(self, event_id: str, user_ids: Sequence[str]) -> Flow[builtins.list[EventUserPositions]]:
        """Positions of 1 to 50 users (their UUIDs) in the event's markets."""
        positions: builtins.list[EventUserPositions] = yield from self._session.call("GET", f"/events/{segment(event_id)}/positions", query={"users": ",".join(user_ids)})
        return positions


class MarketsSection(Section[M]):
    """Public markets (SPEC.md 4.2) and splitting collateral into outcome tokens."""

    @api
    def list(self, ids: Sequence[str]) -> Flow[builtins.list[Market]]:
        markets: builtins.list[Market] = yield from self._session.call("GET", "/markets", query={"ids": ",".join(ids) if ids else None})
        return markets

    @api
    def get(self, id_or_slug: str) -> Flow[Market]:
        market: Market = yield from self._session.call("GET", f"/markets/{segment(id_or_slug)}")
        return market

    @api
    def volume(self, market_id: str) -> Flow[MarketVolume]:
        volume: MarketVolume = yield from self._session.call("GET", f"/markets/{segment(market_id)}/volume")
        return volume

    @api
    def holders(self, id_or_slug: str, limit: int | None = None) -> Flow[MarketHolders]:
        holders: MarketHolders = yield from self._session.call("GET", f"/markets/{segment(id_or_slug)}/holders", query={"limit": limit})
        return holders

    @api
    def activity(self, /, **query: QueryValue) -> Flow[ActivityOffsetPage | ActivityCursorPage]:
        """One page of every market's trades (offset mode, or keyset mode when `cursor` is given)."""
        page: ActivityOffsetPage | ActivityCursorPage = yield from self._session.call("GET", "/markets/activity", query=query)
        return page

    @api
    def activity_of(self, market_id: str, /, **query: QueryValue) -> Flow[ActivityOffsetPage | ActivityCursorPage]:
        """One page of one market's trades, splits, merges and redeems."""
        page: ActivityOffsetPage | ActivityCursorPage = yield from self._session.call("GET", f"/markets/activity/{segment(market_id)}", query=query)
        return page

    @paged(Activity)
    def all_activity(self, /, **query: QueryValue) -> Flow[None]:
        """Every row of every market's activity through the keyset cursor (offset mode stops at 1,000)."""
        yield from by_cursor(lambda cursor: self._session.call("GET", "/markets/activity", query={**query, "cursor": cursor}), first_cursor="")

    @paged(Activity)
    def all_activity_of(self, market_id: str, /, **query: QueryValue) -> Flow[None]:
        yield from by_cursor(lambda cursor: self._session.call("GET", f"/markets/activity/{segment(market_id)}", query={**query, "cursor": cursor}), first_cursor="")

    @api
    def split(self, market_id: str, amount: DecimalLike) -> Flow[SplitResult]:
        """Collateral into the same amount of both outcome tokens (display units, "12.5"). Not retried."""
        result: SplitResult = yield from self._session.call("POST", f"/markets/{segment(market_id)}/split", auth="apiKey", body={"amount": _display(amount)})
        return result
