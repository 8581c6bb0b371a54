"""The client's exceptions.

`ExchangeError` is any non-2xx answer, with the error body of EXTENSIONS.md section 9: its
`status_code`, its stable upper-snake-case `code` and its `message`; a subclass per status lets a
bot catch what it handles (`except RateLimitedError`). `OrderBuildError` is an order refused
before any request, with the code the server would answer for it.
"""

from __future__ import annotations

from typing import Any


class PmxError(Exception):
    """Base of every exception this package raises on purpose."""


class ExchangeError(PmxError):
    """A non-2xx answer of the exchange (or MISSING_CREDENTIALS, status 0, for a call never sent)."""

    def __init__(self, status_code: int, code: str, message: str, method: str = "", path: str = "", retry_after: float | None = None) -> None:
        super().__init__(f"{status_code} {code}: {message}" if status_code else f"{code}: {message}")
        self.status_code = status_code
        self.code = code
        self.message = message
        self.method = method
        self.path = path
        #: Seconds of the Retry-After header of a 429 or 503, when sent.
        self.retry_after = retry_after


class ValidationError(ExchangeError):
    """400: VALIDATION_FAILED, INVALID_SIGNATURE, INSUFFICIENT_BALANCE, an order rule (ORDER_…), …"""


class AuthenticationError(ExchangeError):
    """401 UNAUTHORIZED: missing, malformed, stale, replayed, revoked or wrong credentials."""


class ForbiddenError(ExchangeError):
    """403 FORBIDDEN: acting on another user's resource."""


class NotFoundError(ExchangeError):
    """404 NOT_FOUND (also what a route this server does not have yet answers)."""


class ConflictError(ExchangeError):
    """409: CONFLICT (a duplicate) or MMP_FROZEN."""


class RateLimitedError(ExchangeError):
    """429 RATE_LIMITED; `retry_after` says when to come back."""


class ServiceUnavailableError(ExchangeError):
    """503 SERVICE_UNAVAILABLE: a bounded queue is full or the engine is changing nodes; safe to retry."""


_BY_STATUS: dict[int, type[ExchangeError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitedError,
    503: ServiceUnavailableError,
}


def error_from_response(status_code: int, body: Any, text: str, method: str, path: str, retry_after: float | None) -> ExchangeError:
    """The typed error of an answer; a body that is not the error shape (a proxy's page) still becomes one."""
    code = body.get("code") if isinstance(body, dict) else None
    message = body.get("message") if isinstance(body, dict) else None
    cls = _BY_STATUS.get(status_code, ExchangeError)
    return cls(
        status_code,
        code if isinstance(code, str) else f"HTTP_{status_code}",
        message if isinstance(message, str) else (text[:200] or f"HTTP {status_code}"),
        method,
        path,
        retry_after,
    )


class OrderBuildError(PmxError):
    """An order refused locally; `code` is what the server answers for it (ORDER_PRICE_NOT_ON_TICK, …)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class FeedError(PmxError):
    """A feed gave up: the server refused a subscription or handshake (`code`), or TIMEOUT."""

    def __init__(self, code: str, message: str, token_ids: list[str] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.token_ids = token_ids or []
