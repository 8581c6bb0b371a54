"""What every call shares: the base URL, credentials, the server clock, GET /exchange, and the
one flow that sends a call (`Session.call`): URL and query string, credentials per route, typed
errors, retries and clock resyncs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Union
from urllib.parse import quote, urlencode

from .clock import ServerClock
from .errors import ExchangeError, error_from_response
from .flow import Flow, Http, Response, Sleep
from .hmac_auth import ApiKeyCredentials, hmac_headers, hmac_signature
from .types import Account, ExchangeInfo
from .wallet import Wallet

API_PREFIX = "/api/v1"

#: How a route authenticates, seen from the client. `optionalUser`: public, but the session
#: token, or else the API key, is sent when the client has one.
RouteAuth = Literal["public", "optionalUser", "apiKey", "jwt", "jwtOrApiKey", "admin"]
QueryValue = Union[str, int, bool, Sequence[Union[str, int]], None]
_RETRIED = {429, 503}


@dataclass
class RetryPolicy:
    """429 and 503 are retried this many times (0: never), only for calls that cannot act twice."""

    retries: int = 3
    base_delay: float = 0.2
    max_delay: float = 5.0

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Retry-After when the server sent it (capped), else exponential backoff with jitter."""
        if retry_after is not None:
            return min(retry_after, self.max_delay)
        exponential = min(self.base_delay * 2.0**attempt, self.max_delay)
        return exponential / 2 + random.random() * exponential / 2


def segment(value: str) -> str:
    """A path segment, percent-encoded."""
    return quote(value, safe="")


def query_string(query: Mapping[str, QueryValue] | None) -> str:
    """Repeated parameters for sequences (EXTENSIONS.md section 11 accepts both forms); None is left out."""
    pairs: list[tuple[str, str]] = []
    for key, value in (query or {}).items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            pairs.extend((key, str(item)) for item in value)
        else:
            pairs.append((key, _text(value)))
    return "?" + urlencode(pairs) if pairs else ""


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


class Session:
    def __init__(
        self,
        base_url: str,
        *,
        wallet: Wallet | None = None,
        api_key: ApiKeyCredentials | None = None,
        token: str | None = None,
        admin_token: str | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.wallet = wallet
        self.api_key = api_key
        self.token = token
        self.admin_token = admin_token
        self.retry = retry or RetryPolicy()
        self.clock = ServerClock()
        self.exchange_info: ExchangeInfo | None = None
        #: The signed-in Account, once known (sign-in, or GET /account).
        self.user: Account | None = None

    def exchange(self) -> Flow[ExchangeInfo]:
        """GET /exchange, once; it also syncs the server clock."""
        if self.exchange_info is None:
            return (yield from self.refresh_exchange())
        return self.exchange_info

    def refresh_exchange(self) -> Flow[ExchangeInfo]:
        """Retried like any read; the clock syncs on the round trip of the attempt that answered."""

        def attempt() -> Flow[Response]:
            response: Response = yield self._request("GET", "/exchange", None, "", {})
            return response

        answer, response = yield from self._retrying("GET", "/exchange", "public", True, attempt)
        info: ExchangeInfo = answer
        self.clock.sync(info["serverTime"], response.elapsed * 1000)
        self.exchange_info = info
        return info

    def call(
        self,
        method: str,
        path: str,
        *,
        auth: RouteAuth = "public",
        query: Mapping[str, QueryValue] | None = None,
        body: Any = None,
        idempotent: bool | None = None,
    ) -> Flow[Any]:
        """
        One API call. A 401 on an HMAC-signed call is retried once after re-reading the server's
        clock (the server refused it before doing anything); 429 and 503 are retried with backoff
        when the call is idempotent (reads, cancels, orders with an idempotency key), honouring
        Retry-After. Each attempt is signed afresh.
        """
        body_text = "" if body is None else json.dumps(body, separators=(",", ":"))

        def attempt() -> Flow[Response]:
            headers = yield from self._auth_headers(auth, method, API_PREFIX + path, body_text)
            response: Response = yield self._request(method, path, query, body_text, headers)
            return response

        result, _ = yield from self._retrying(method, path, auth, method == "GET" if idempotent is None else idempotent, attempt)
        return result

    def _retrying(self, method: str, path: str, auth: RouteAuth, may_repeat: bool, attempt: Callable[[], Flow[Response]]) -> Flow[tuple[Any, Response]]:
        """Runs `attempt` until it answers, with the retries `call` describes; the result and the answering response."""
        resynced = False
        tries = 0
        while True:
            response = yield from attempt()
            try:
                return self._result(response, method, API_PREFIX + path), response
            except ExchangeError as error:
                if error.status_code == 401 and not resynced and self._signs_with_api_key(auth):
                    resynced = True
                    yield from self.refresh_exchange()
                    continue
                if error.status_code not in _RETRIED or not may_repeat or tries >= self.retry.retries:
                    raise
                yield Sleep(self.retry.delay(tries, error.retry_after))
                tries += 1

    def _request(self, method: str, path: str, query: Mapping[str, QueryValue] | None, body_text: str, headers: dict[str, str]) -> Http:
        headers = {"accept": "application/json", **headers}
        if body_text:
            headers["content-type"] = "application/json"
        url = f"{self.base_url}{API_PREFIX}{path}{query_string(query)}"
        return Http(method, url, headers, body_text.encode() if body_text else None)

    def _result(self, response: Response, method: str, wire_path: str) -> Any:
        parsed: Any = None
        if response.text:
            try:
                parsed = json.loads(response.text)
            except ValueError:
                parsed = response.text
        if 200 <= response.status_code < 300:
            return parsed
        raise error_from_response(response.status_code, parsed, response.text, method, wire_path, _retry_after(response.headers))

    def _signs_with_api_key(self, auth: RouteAuth) -> bool:
        if self.api_key is None or auth in ("public", "jwt", "admin"):
            return False
        return auth == "apiKey" or self.token is None

    def _auth_headers(self, auth: RouteAuth, method: str, wire_path: str, body_text: str) -> Flow[dict[str, str]]:
        if auth == "public" or (auth == "optionalUser" and self.api_key is None and self.token is None):
            return {}
        if auth == "admin":
            return {"authorization": f"Bearer {_required(self.admin_token, 'an admin token')}"}
        if auth == "jwt" or (auth in ("jwtOrApiKey", "optionalUser") and self.token is not None):
            return {"authorization": f"Bearer {_required(self.token, 'a sign-in session (client.auth.sign_in())')}"}
        creds = _required(self.api_key, "API-key credentials (client.auth.create_api_key() or api_key=)")
        exchange = yield from self.exchange()
        return hmac_headers(creds, exchange["headerPrefix"], self.clock.unique_timestamp_ms(), method, wire_path, body_text)


def socket_auth(session: Session) -> dict[str, Any]:
    """The `/user` handshake: HMAC over timestamp + "GET" + "/user" (needs GET /exchange read), or the session token."""
    if session.api_key is None:
        if session.token is not None:
            return {"token": session.token}
        raise ExchangeError(0, "MISSING_CREDENTIALS", "the /user feed needs API-key credentials or a sign-in session")
    timestamp = str(session.clock.unique_timestamp_ms())
    creds = session.api_key
    return {"apiKey": creds.api_key, "passphrase": creds.passphrase, "timestamp": timestamp, "signature": hmac_signature(creds.secret, timestamp, "GET", "/user", "")}


def _retry_after(headers: Mapping[str, str]) -> float | None:
    value = {k.lower(): v for k, v in headers.items()}.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None  # an HTTP date: the backoff decides


def _required(value: Any, what: str) -> Any:
    if value is None:
        raise ExchangeError(0, "MISSING_CREDENTIALS", f"this call needs {what}")
    return value
