"""Keccak-256 (Ethereum's hash, not NIST SHA3-256) from pycryptodome.

PyPI's pycryptodome installs as `Crypto`; Debian's python3-pycryptodome (and PyPI's
pycryptodomex) as `Cryptodome`. Both are the same library, so either is accepted.
"""

from __future__ import annotations

import importlib

try:
    _keccak = importlib.import_module("Crypto.Hash.keccak")
except ModuleNotFoundError:  # pragma: no cover - depends on how pycryptodome was installed
    _keccak = importlib.import_module("Cryptodome.Hash.keccak")


def keccak256(data: bytes) -> bytes:
    """The 32-byte Keccak-256 digest of `data`."""
    return bytes(_keccak.new(digest_bits=256, data=data).digest())
