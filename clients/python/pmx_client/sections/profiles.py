from __future__ import annotations

from typing import Literal

from ..flow import Flow, M, Section, api
from ..session import segment
from ..types import PnlHistory, ProfileActivity, ProfilePosition, ProfileSummary


class ProfilesSection(Section[M]):
    """Public profiles by display name, any letter case (SPEC.md 4.8); NotFoundError for unknown or anonymous names."""

    @api
    def summary(self, name: str) -> Flow[ProfileSummary]:
        summary: ProfileSummary = yield from self._session.call("GET", f"/profiles/by-name/{segment(name)}/summary")
        return summary

    @api
    def pnl_history(self, name: str, range: Literal["1D", "1W", "1M", "1Y", "YTD", "ALL"]) -> Flow[PnlHistory]:
        history: PnlHistory = yield from self._session.call("GET", f"/profiles/by-name/{segment(name)}/pnl-history", query={"range": range})
        return history

    @api
    def positions(self, name: str, status: Literal["active", "closed"]) -> Flow[list[ProfilePosition]]:
        """Active or closed positions, by latest price descending, at most 1,000."""
        positions: list[ProfilePosition] = yield from self._session.call("GET", f"/profiles/by-name/{segment(name)}/positions", query={"status": status})
        return positions

    @api
    def activity(self, name: str) -> Flow[list[ProfileActivity]]:
        """The newest 100 trade rows."""
        rows: list[ProfileActivity] = yield from self._session.call("GET", f"/profiles/by-name/{segment(name)}/activity")
        return rows
