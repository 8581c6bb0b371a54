from __future__ import annotations

from ..flow import Flow, M, Section, api, paged
from ..pagination import by_page, full_page
from ..session import QueryValue, segment
from ..types import ClaimResponse, MarketRewardDetail, PayoutHistoryPage, QualifyingOrder, RewardPoolsPage, RewardsLeaderboard, UserPayoutHistoryItem, UserRewardsSummary


class RewardsSection(Section[M]):
    """Maker rewards (SPEC.md 4.7): the caller's (session token or API key), the public pools and leaderboard."""

    @api
    def summary(self) -> Flow[UserRewardsSummary]:
        summary: UserRewardsSummary = yield from self._session.call("GET", "/rewards/me/summary", auth="jwtOrApiKey")
        return summary

    @api
    def qualifying_orders(self) -> Flow[list[QualifyingOrder]]:
        orders: list[QualifyingOrder] = yield from self._session.call("GET", "/rewards/me/qualifying-orders", auth="jwtOrApiKey")
        return orders

    @api
    def history(self, /, **query: QueryValue) -> Flow[PayoutHistoryPage]:
        page: PayoutHistoryPage = yield from self._session.call("GET", "/rewards/me/history", auth="jwtOrApiKey", query=query)
        return page

    @paged(UserPayoutHistoryItem)
    def all_history(self, /, **query: QueryValue) -> Flow[None]:
        yield from by_page(lambda number: self._session.call("GET", "/rewards/me/history", auth="jwtOrApiKey", query={**query, "page": number}), full_page)

    @api
    def claim(self) -> Flow[ClaimResponse]:
        """Claims every claimable row. Not retried: a repeat answers nothing-to-claim, and 6 claims a minute are allowed."""
        answer: ClaimResponse = yield from self._session.call("POST", "/rewards/me/claim", auth="jwtOrApiKey")
        return answer

    @api
    def pools(self, /, **query: QueryValue) -> Flow[RewardPoolsPage]:
        """Current opportunities grouped by event (`limit` clamped to 50)."""
        page: RewardPoolsPage = yield from self._session.call("GET", "/rewards/markets/pools", query=query)
        return page

    @api
    def pool(self, market_id: str) -> Flow[MarketRewardDetail]:
        """One market's current opportunity; NotFoundError when it has none."""
        pool: MarketRewardDetail = yield from self._session.call("GET", f"/rewards/markets/{segment(market_id)}/pool")
        return pool

    @api
    def leaderboard(self, /, **query: QueryValue) -> Flow[RewardsLeaderboard]:
        """Makers by earnings; `currentUser` when the client has credentials."""
        board: RewardsLeaderboard = yield from self._session.call("GET", "/rewards/leaderboard", auth="optionalUser", query=query)
        return board
