from __future__ import annotations

from typing import Any, cast

from ..flow import Flow, M, Section, api
from ..hmac_auth import ApiKeyCredentials
from ..session import segment
from ..siwe import sign_in_message
from ..types import ApiKeySummary, SignInSession
from ..wallet import Wallet


class AuthSection(Section[M]):
    """Sign-In with Ethereum and API keys (EXTENSIONS.md section 2)."""

    @api
    def nonce(self) -> Flow[str]:
        answer = yield from self._session.call("GET", "/auth/nonce")
        return cast(str, answer["nonce"])

    @api
    def sign_in(self, wallet: Wallet | None = None) -> Flow[SignInSession]:
        """Signs an EIP-4361 message with the wallet and keeps the session token for JWT routes."""
        s = self._session
        wallet = wallet or s.wallet
        if wallet is None:
            raise ValueError("sign_in needs a wallet: Client(wallet=...) or sign_in(wallet)")
        exchange = yield from s.refresh_exchange()
        nonce = (yield from s.call("GET", "/auth/nonce"))["nonce"]
        message = sign_in_message(base_url=s.base_url, address=wallet.address, chain_id=exchange["chainId"], nonce=nonce, issued_at_ms=s.clock.now_ms())
        session: SignInSession = yield from s.call("POST", "/auth/login", body={"message": message, "signature": wallet.sign_message(message)})
        s.wallet, s.user, s.token = wallet, session["user"], session["token"]
        return session

    @api
    def logout(self) -> Flow[None]:
        """Ends the session: its token is refused from now on."""
        yield from self._session.call("POST", "/auth/logout", auth="jwt")
        self._session.token = None

    @api
    def create_api_key(self) -> Flow[ApiKeyCredentials]:
        """Creates an API key (needs a session) and signs every later call with it. Save it: the secret is shown once."""
        answer: dict[str, Any] = yield from self._session.call("POST", "/auth/api-keys", auth="jwt")
        creds = ApiKeyCredentials(answer["apiKey"], answer["secret"], answer["passphrase"])
        self._session.api_key = creds
        return creds

    @api
    def list_api_keys(self) -> Flow[list[ApiKeySummary]]:
        keys: list[ApiKeySummary] = yield from self._session.call("GET", "/auth/api-keys", auth="jwtOrApiKey")
        return keys

    @api
    def revoke_api_key(self, api_key: str) -> Flow[None]:
        """The key stops working at once, on every node, its open /user feeds included."""
        yield from self._session.call("DELETE", f"/auth/api-keys/{segment(api_key)}", auth="jwtOrApiKey", idempotent=True)
