"""An Ethereum key pair for signing in and signing orders, on the `ecdsa` package alone.

Signatures follow what the exchange (and the CTF exchange contract behind it) accepts:
65 bytes r ‖ s ‖ v with v 27 or 28 and s in the lower half of the curve order, deterministic
(RFC 6979), so the same key and digest always give the same signature, as viem's do.
"""

from __future__ import annotations

import hashlib
import secrets

from ecdsa import SECP256k1, SigningKey
from ecdsa.rfc6979 import generate_k

from ._keccak import keccak256

_CURVE_ORDER: int = SECP256k1.order
_HALF_ORDER = _CURVE_ORDER // 2
_GENERATOR = SECP256k1.generator


def checksum_address(address: str) -> str:
    """The EIP-55 mixed-case spelling of a 20-byte hex address."""
    hex_digits = address.lower().removeprefix("0x")
    if len(hex_digits) != 40 or any(c not in "0123456789abcdef" for c in hex_digits):
        raise ValueError(f"not a 20-byte hex address: {address!r}")
    digest = keccak256(hex_digits.encode("ascii")).hex()
    return "0x" + "".join(c.upper() if int(digest[i], 16) >= 8 else c for i, c in enumerate(hex_digits))


class Wallet:
    """A secp256k1 private key and its Ethereum address (the sign-in address, EOA)."""

    def __init__(self, private_key: str | bytes) -> None:
        key = bytes.fromhex(private_key.removeprefix("0x")) if isinstance(private_key, str) else private_key
        if len(key) != 32:
            raise ValueError("a private key is 32 bytes (64 hex digits)")
        self._secret = int.from_bytes(key, "big")
        if not 0 < self._secret < _CURVE_ORDER:
            raise ValueError("the private key is outside the secp256k1 range")
        self._key_bytes = key
        public = SigningKey.from_string(key, curve=SECP256k1).get_verifying_key().to_string()  # x ‖ y
        self.address: str = checksum_address(keccak256(public)[-20:].hex())

    @classmethod
    def create(cls) -> Wallet:
        """A new random wallet: keep `private_key` to come back as the same user."""
        while True:
            key = secrets.token_bytes(32)
            if 0 < int.from_bytes(key, "big") < _CURVE_ORDER:
                return cls(key)

    @property
    def private_key(self) -> str:
        return "0x" + self._key_bytes.hex()

    def __repr__(self) -> str:  # never the key
        return f"Wallet({self.address})"

    def sign_digest(self, digest: bytes) -> str:
        """A recoverable signature of a 32-byte digest as 0x-hex r ‖ s ‖ v (v 27/28, low s)."""
        if len(digest) != 32:
            raise ValueError("a digest is 32 bytes")
        z = int.from_bytes(digest, "big")
        k: int = generate_k(_CURVE_ORDER, self._secret, hashlib.sha256, digest)
        point = _GENERATOR * k
        x, y = int(point.x()), int(point.y())
        r = x % _CURVE_ORDER
        s = pow(k, -1, _CURVE_ORDER) * (z + r * self._secret) % _CURVE_ORDER
        recovery = (y & 1) | (2 if x >= _CURVE_ORDER else 0)
        if s > _HALF_ORDER:  # the malleable twin; the exchange accepts only the low one
            s = _CURVE_ORDER - s
            recovery ^= 1
        return "0x" + r.to_bytes(32, "big").hex() + s.to_bytes(32, "big").hex() + bytes([27 + recovery]).hex()

    def sign_message(self, message: str) -> str:
        """EIP-191 personal_sign of a text message (what a browser wallet signs at sign-in)."""
        data = message.encode("utf-8")
        return self.sign_digest(keccak256(b"\x19Ethereum Signed Message:\n" + str(len(data)).encode("ascii") + data))
