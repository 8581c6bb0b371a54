from __future__ import annotations

from typing import TypedDict

from ..amounts import DecimalLike, from_base_units, to_base_units
from ..flow import Flow, M, Section, api
from ..types import Account, Balances, FaucetResult


class AccountPatch(TypedDict, total=False):
    """PATCH /account: displayName 3 to 30 of [A-Za-z0-9_-], unique; fields not sent are unchanged."""

    displayName: str | None
    avatarUrl: str | None
    anonymous: bool


class AccountSection(Section[M]):
    """The caller's account and balances (EXTENSIONS.md section 2)."""

    @api
    def get(self) -> Flow[Account]:
        account: Account = yield from self._session.call("GET", "/account", auth="jwtOrApiKey")
        self._session.user = account
        return account

    @api
    def update(self, patch: AccountPatch) -> Flow[Account]:
        """Changes the fields given; None clears `displayName` or `avatarUrl`."""
        account: Account = yield from self._session.call("PATCH", "/account", auth="jwtOrApiKey", body=patch)
        self._session.user = account
        return account

    @api
    def balance(self) -> Flow[Balances]:
        """Collateral and token balances as exact decimal strings in display units."""
        balances: Balances = yield from self._session.call("GET", "/account/balance", auth="jwtOrApiKey")
        return balances

    @api
    def faucet(self, amount: DecimalLike) -> Flow[FaucetResult]:
        """Test collateral, on servers run with FAUCET_ENABLED (the demo). Not retried: it carries no key."""
        result: FaucetResult = yield from self._session.call("POST", "/account/faucet", auth="apiKey", body={"amount": _display(amount)})
        return result


def _display(amount: DecimalLike) -> str:
    """A display amount as the API takes it, checked locally (at most 6 decimals, never a float)."""
    return from_base_units(to_base_units(amount))
