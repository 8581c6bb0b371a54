"""API-key HMAC of SPEC.md section 5 and EXTENSIONS.md section 2.

HMAC-SHA256 keyed with the UTF-8 bytes of the secret, over timestamp + METHOD + path + body, as
lowercase hex. `path` is the wire path with /api/v1 and without the query string; `body` the
exact JSON text sent ("" when none).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass


@dataclass(frozen=True)
class ApiKeyCredentials:
    """An API key as `POST /auth/api-keys` answered it; the secret and passphrase are shown once."""

    api_key: str
    secret: str
    passphrase: str

    def __repr__(self) -> str:  # never the secret
        return f"ApiKeyCredentials(api_key={self.api_key!r})"


def hmac_signature(secret: str, timestamp: str, method: str, path: str, body: str) -> str:
    message = f"{timestamp}{method.upper()}{path}{body}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def hmac_headers(creds: ApiKeyCredentials, prefix: str, timestamp_ms: int, method: str, path: str, body: str) -> dict[str, str]:
    """The four headers of a signed request (`prefix` is GET /exchange `headerPrefix`)."""
    timestamp = str(timestamp_ms)
    return {
        f"{prefix}-api-key": creds.api_key,
        f"{prefix}-signature": hmac_signature(creds.secret, timestamp, method, path, body),
        f"{prefix}-timestamp": timestamp,
        f"{prefix}-passphrase": creds.passphrase,
    }
