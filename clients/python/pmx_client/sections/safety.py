"""Market makers' safety (EXTENSIONS.md section 15): the dead-man's switch and market-maker protection.

These routes are specified; a server that does not have them yet answers NotFoundError.
"""

from __future__ import annotations

from typing import Any, TypedDict

from ..flow import Flow, M, Section, api


class HeartbeatStatus(TypedDict):
    armed: bool
    expiresAt: str


class MarketScope(TypedDict, total=False):
    """One of the two: the key's orders in a market, or in every market of an event."""

    marketId: str
    eventId: str


class HeartbeatSection(Section[M]):
    @api
    def send(self, timeout_ms: int | None = None) -> Flow[HeartbeatStatus]:
        """Arms or refreshes this key's switch: without another heartbeat before `expiresAt`
        (default 10 s, 5 to 60 s), every open order placed with the key is cancelled."""
        body = {} if timeout_ms is None else {"timeoutMs": timeout_ms}
        status: HeartbeatStatus = yield from self._session.call("POST", "/heartbeat", auth="apiKey", body=body, idempotent=True)
        return status

    @api
    def disarm(self) -> Flow[None]:
        yield from self._session.call("DELETE", "/heartbeat", auth="apiKey", idempotent=True)


class MmpSection(Section[M]):
    @api
    def set(
        self,
        scope: MarketScope,
        *,
        window_ms: int,
        frozen_ms: int,
        max_fills: int | None = None,
        max_quantity: str | None = None,
        max_notional_usd: str | None = None,
    ) -> Flow[dict[str, Any]]:
        """When the key's fills in `scope` within `window_ms` reach a limit, its open orders there are
        cancelled and new ones refused (409 MMP_FROZEN) for `frozen_ms`. At least one limit."""
        limits = {"maxFills": max_fills, "maxQuantity": max_quantity, "maxNotionalUsd": max_notional_usd}
        if all(v is None for v in limits.values()):
            raise ValueError("market-maker protection needs at least one limit: max_fills, max_quantity or max_notional_usd")
        body = {"scope": scope, "windowMs": window_ms, "frozenMs": frozen_ms, **{k: v for k, v in limits.items() if v is not None}}
        setting: dict[str, Any] = yield from self._session.call("PUT", "/mmp", auth="apiKey", body=body, idempotent=True)
        return setting

    @api
    def list(self) -> Flow[list[dict[str, Any]]]:
        settings: list[dict[str, Any]] = yield from self._session.call("GET", "/mmp", auth="apiKey")
        return settings

    @api
    def delete(self, scope: MarketScope) -> Flow[None]:
        yield from self._session.call("DELETE", "/mmp", auth="apiKey", body={"scope": scope}, idempotent=True)
