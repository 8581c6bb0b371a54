from __future__ import annotations

from collections.abc import Sequence

from ..flow import Flow, M, Section, api, paged
from ..pagination import by_page, full_page
from ..session import QueryValue
from ..types import (
    BatchMergeResponse,
    BatchRedeemResponse,
    MergeablePosition,
    RedeemablePosition,
    UserActivity,
    UserActivityPage,
    UserPosition,
    UserPositionsPage,
    UserPositionValue,
)


class PortfolioSection(Section[M]):
    """The caller's positions, activity, merges and redeems (SPEC.md 4.3), API-key HMAC."""

    @api
    def positions(self, /, **query: QueryValue) -> Flow[UserPositionsPage]:
        """One page of held positions valued at the latest prices."""
        page: UserPositionsPage = yield from self._session.call("GET", "/markets/user-positions", auth="apiKey", query=query)
        return page

    @paged(UserPosition)
    def all_positions(self, /, **query: QueryValue) -> Flow[None]:
        yield from by_page(lambda number: self._session.call("GET", "/markets/user-positions", auth="apiKey", query={**query, "page": number}), lambda page: bool(page["last"] < page["total"]))

    @api
    def value(self, /, **query: QueryValue) -> Flow[UserPositionValue]:
        """USD value of the positions of `user` (default: the caller), optionally of some `markets` only."""
        value: UserPositionValue = yield from self._session.call("GET", "/markets/value", auth="apiKey", query=query)
        return value

    @api
    def activity(self, /, **query: QueryValue) -> Flow[UserActivityPage]:
        """One page of the caller's trades, splits, merges and redeems."""
        page: UserActivityPage = yield from self._session.call("GET", "/markets/user-activity", auth="apiKey", query=query)
        return page

    @paged(UserActivity)
    def all_activity(self, /, **query: QueryValue) -> Flow[None]:
        yield from by_page(lambda number: self._session.call("GET", "/markets/user-activity", auth="apiKey", query={"total": False, **query, "page": number}), full_page)

    @api
    def traded_count(self) -> Flow[int]:
        """How many distinct markets the caller has traded in."""
        count: int = yield from self._session.call("GET", "/markets/traded-count", auth="apiKey")
        return count

    @api
    def redeemable(self) -> Flow[list[RedeemablePosition]]:
        positions: list[RedeemablePosition] = yield from self._session.call("GET", "/markets/redeemable-positions", auth="apiKey")
        return positions

    @api
    def redeem(self, market_ids: Sequence[str]) -> Flow[BatchRedeemResponse]:
        """Redeems resolved markets in one transaction; what cannot be is in `excluded`. Retried: a repeat finds nothing left."""
        result: BatchRedeemResponse = yield from self._session.call("POST", "/markets/redeem-positions/batch", auth="apiKey", body={"marketIds": list(market_ids)}, idempotent=True)
        return result

    @api
    def mergeable(self) -> Flow[list[MergeablePosition]]:
        positions: list[MergeablePosition] = yield from self._session.call("GET", "/markets/mergeable-positions", auth="apiKey")
        return positions

    @api
    def merge(self, market_ids: Sequence[str]) -> Flow[BatchMergeResponse]:
        """Merges complete sets back to collateral (the smaller available side of each market), in one transaction."""
        result: BatchMergeResponse = yield from self._session.call("POST", "/markets/merge-positions/batch", auth="apiKey", body={"marketIds": list(market_ids)}, idempotent=True)
        return result
