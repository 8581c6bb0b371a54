from __future__ import annotations

from typing import TypedDict

from ..amounts import DecimalLike, from_base_units, to_base_units
from ..eip712 import order_domain, withdraw_digest
from ..errors import NotFoundError
from ..flow import Flow, M, Section, api
from ..types import Account, Balances, FaucetResult, WithdrawResult


#: What a faucet call to a server without the faucet says (as the TypeScript SDK does).
FAUCET_OFF = (
    "this exchange runs without the faucet (its server was started without FAUCET_ENABLED=true): fund the account"
    " instead through the operator, who credits your sign-in address (pmx credit <address> <amount>,"
    " POST /api/v1/admin/credits), or on a chain by sending collateral to your proxy wallet"
)


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
        """Test collateral, on servers run with FAUCET_ENABLED (the demo). Not retried: it carries no key.
        Elsewhere a NotFoundError that says the faucet is off and how to fund the account instead."""
        try:
            result: FaucetResult = yield from self._session.call("POST", "/account/faucet", auth="apiKey", body={"amount": _display(amount)})
        except NotFoundError as error:
            # The route exists only on a server run with the faucet: its bare "route not found"
            # reads as a wrong URL or an old server.
            raise NotFoundError(error.status_code, error.code, FAUCET_OFF, error.method, error.path) from error
        return result

    @api
    def withdraw(self, to: str, amount: DecimalLike, nonce: int) -> Flow[WithdrawResult]:
        """Sends collateral out of the wallet to `to` (EXTENSIONS.md section 14), answering the chain
        transaction's hash. The client's wallet signs the EIP-712 Withdraw under GET /exchange's order
        domain, which no API key can do for it; `nonce` is any uint256 the wallet has not withdrawn
        with before. Not retried: a second send of the same nonce is refused."""
        wallet = self._session.wallet
        if wallet is None:
            raise ValueError("a withdrawal is signed by the wallet: create the client with a wallet")
        base_units = to_base_units(amount)
        exchange = yield from self._session.exchange()
        signature = wallet.sign_digest(withdraw_digest(to, base_units, nonce, order_domain(exchange, False)))
        body = {"to": to, "amount": from_base_units(base_units), "nonce": str(nonce), "signature": signature}
        result: WithdrawResult = yield from self._session.call("POST", "/account/withdraw", auth="jwtOrApiKey", body=body)
        return result


def _display(amount: DecimalLike) -> str:
    """A display amount as the API takes it, checked locally (at most 6 decimals, never a float)."""
    return from_base_units(to_base_units(amount))
