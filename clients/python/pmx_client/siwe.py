"""The EIP-4361 (Sign-In with Ethereum) message the exchange accepts (EXTENSIONS.md section 2).

The message is bound to the exchange: its `domain` is the host of the base URL the client was
given and its `uri` that origin, which must be one of the exchange's public origins (PUBLIC_URL,
or unset, http://localhost:PORT and http://127.0.0.1:PORT); `issuedAt` is the server's time.
The text is laid out as viem's `createSiweMessage` writes it, which the server parses.
"""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import urlsplit

STATEMENT = "Sign in to the exchange"
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(base_url: str) -> tuple[str, str]:
    """(domain, uri) of a base URL: the authority as a browser shows it (no default port) and the origin."""
    parts = urlsplit(base_url)
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"the base URL must be http(s)://host[:port], got {base_url!r}")
    host = parts.hostname.lower()
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    domain = host if parts.port in (None, _DEFAULT_PORTS[parts.scheme]) else f"{host}:{parts.port}"
    return domain, f"{parts.scheme}://{domain}"


def iso_millis(epoch_ms: int) -> str:
    """JavaScript's toISOString: 2024-01-02T03:04:05.678Z."""
    moment = datetime.fromtimestamp(epoch_ms / 1000, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{epoch_ms % 1000:03d}Z"


def sign_in_message(*, base_url: str, address: str, chain_id: int, nonce: str, issued_at_ms: int) -> str:
    domain, uri = origin_of(base_url)
    return (
        f"{domain} wants you to sign in with your Ethereum account:\n{address}\n\n{STATEMENT}\n\n"
        f"URI: {uri}\nVersion: 1\nChain ID: {chain_id}\nNonce: {nonce}\nIssued At: {iso_millis(issued_at_ms)}"
    )
