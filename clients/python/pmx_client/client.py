"""The two clients: `Client` (blocking) and `AsyncClient` (asyncio), with the same sections.

    client = Client("http://127.0.0.1:3000", wallet=Wallet.create())
    client.auth.sign_in(); client.auth.create_api_key()
    order = client.orders.place(OrderSpec(token_id, "BUY", "0.42", "10"))
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import TracebackType
from typing import Generic, Literal

import httpx

from .aio_feeds import AsyncBookWatcher, AsyncUserFeed
from .feeds import BookWatcher, UserFeed
from .flow import Awaiting, Blocking, Flow, M, Section, api
from .hmac_auth import ApiKeyCredentials
from .sections.account import AccountSection
from .sections.auth import AuthSection
from .sections.book import BookSection
from .sections.catalogue import EventsSection, MarketsSection
from .sections.orders import OrdersSection
from .sections.portfolio import PortfolioSection
from .sections.profiles import ProfilesSection
from .sections.rewards import RewardsSection
from .sections.safety import HeartbeatSection, MmpSection
from .sections.trades import TradesSection
from .session import RetryPolicy, Session, socket_auth
from .types import ExchangeInfo
from .wallet import Wallet

DEFAULT_URL = "http://127.0.0.1:3000"


class _Sections(Section[M], Generic[M]):
    """Every section over one session; the client classes pick the driver (`_driver_of`)."""

    def __init__(
        self,
        base_url: str | None = None,
        *,
        wallet: Wallet | None = None,
        api_key: ApiKeyCredentials | None = None,
        token: str | None = None,
        admin_token: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 30.0,
        signature_type: Literal[0, 1] = 1,
    ) -> None:
        session = Session(base_url or os.environ.get("PMX_URL") or DEFAULT_URL, wallet=wallet, api_key=api_key, token=token, admin_token=admin_token, retry=retry)
        driver = self._driver_of(timeout)
        super().__init__(session, driver)
        self.session = session
        self.auth = AuthSection(session, driver)
        self.account = AccountSection(session, driver)
        self.events = EventsSection(session, driver)
        self.markets = MarketsSection(session, driver)
        self.orders = OrdersSection(session, driver, signature_type)
        self.book = BookSection(session, driver)
        self.trades = TradesSection(session, driver)
        self.portfolio = PortfolioSection(session, driver)
        self.rewards = RewardsSection(session, driver)
        self.profiles = ProfilesSection(session, driver)
        self.heartbeat = HeartbeatSection(session, driver)
        self.mmp = MmpSection(session, driver)

    def _driver_of(self, timeout: float) -> M:
        raise NotImplementedError

    @api
    def exchange(self) -> Flow[ExchangeInfo]:
        """Signing domain, collateral, header prefix and server time (GET /exchange), read once."""
        return (yield from self.session.exchange())

    def use_api_key(self, creds: ApiKeyCredentials) -> None:
        """Signs calls with this key from now on (e.g. one saved from an earlier create_api_key)."""
        self.session.api_key = creds


class Client(_Sections[Blocking]):
    """The blocking client. `base_url` defaults to $PMX_URL, else http://127.0.0.1:3000.

    `wallet` signs in and signs orders (signature_type 1: the proxy wallet is the maker; 0: the
    wallet itself); without one, orders go unsigned and the server fills in the caller. `retry`
    sets how 429 and 503 are retried. Close it (or use `with`) to release its connections.
    """

    def _driver_of(self, timeout: float) -> Blocking:
        self._http = httpx.Client(timeout=timeout)
        return Blocking(self._http)

    def watch_book(self, token_ids: Sequence[str]) -> BookWatcher:
        """Local books of these tokens kept equal to REST over Socket.IO; close it when done."""
        return BookWatcher(self.session.base_url, token_ids)

    def user_feed(self, *, cancel_on_disconnect: bool = False) -> UserFeed:
        """The caller's order, trade and reward-claim updates (needs an API key or a session)."""
        self.exchange()  # the handshake is signed with the server's clock
        return UserFeed(self.session.base_url, lambda: socket_auth(self.session), cancel_on_disconnect=cancel_on_disconnect)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()


class AsyncClient(_Sections[Awaiting]):
    """The asyncio client: the same sections and options, each call awaited, each walk an async iterator."""

    def _driver_of(self, timeout: float) -> Awaiting:
        self._http = httpx.AsyncClient(timeout=timeout)
        return Awaiting(self._http)

    async def watch_book(self, token_ids: Sequence[str]) -> AsyncBookWatcher:
        return await AsyncBookWatcher.open(self.session.base_url, token_ids)

    async def user_feed(self, *, cancel_on_disconnect: bool = False) -> AsyncUserFeed:
        await self.exchange()
        return await AsyncUserFeed.open(self.session.base_url, lambda: socket_auth(self.session), cancel_on_disconnect=cancel_on_disconnect)

    async def close(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        await self.close()
