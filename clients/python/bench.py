"""Orders signed per second: this client (`ecdsa`, pure Python) against the TypeScript SDK
(`buildOrder`, viem), in one run. Each order is the whole path of `orders.build`: exact amounts
with the tick rules, a random salt, the EIP-712 digest and a recoverable signature.

    /usr/bin/python3 bench.py [orders]      # default 2000 each
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))

from pmx_client import OrderSpec, Wallet  # noqa: E402
from pmx_client.orders import Signer, build_order  # noqa: E402
from typescript_sdk import run_ts_sdk  # noqa: E402

EXCHANGE = {
    "chainId": 31337,
    "eip712": {"name": "PMX Exchange", "version": "1", "verifyingContract": "0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E"},
    "negRiskVerifyingContract": "0xC5d563A36AE78145C45a50134d48A1215220f80a",
    "collateral": {"symbol": "USDC", "decimals": 6, "address": "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174"},
    "conditionalTokens": "0x4D97DCd97eC945f40cF65F87097ACe5EA0476045",
    "headerPrefix": "svc",
    "settlement": "embedded",
    "serverTime": 0,
}
MARKET = {"id": "00000000-0000-4000-8000-000000000000", "tokenId1": str(2**255 + 1), "tokenId2": str(2**255 + 2), "tickSize": "0.01", "negRisk": False, "orderFeeRateBps": 20}
PROXY = "0x93775C9d5BFCBAC8E30a2aa581193D183E665E5b"


def python_rate(count: int) -> float:
    signer = Signer(Wallet.create(), PROXY)
    spec = OrderSpec(MARKET["tokenId1"], "BUY", "0.42", "10")  # type: ignore[arg-type]
    for _ in range(50):  # warm-up
        build_order(spec, MARKET, EXCHANGE, signer)  # type: ignore[arg-type]
    started = time.perf_counter()
    for _ in range(count):
        build_order(spec, MARKET, EXCHANGE, signer)  # type: ignore[arg-type]
    return count / (time.perf_counter() - started)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    python = python_rate(count)
    typescript = run_ts_sdk({"privateKey": Wallet.create().private_key, "exchange": EXCHANGE, "negRisk": False, "proxyWallet": PROXY, "bench": {"market": MARKET, "count": count}})["ordersPerSecond"]
    print(f"orders signed per second, {count} each, one core:")
    print(f"  Python pmx-client (ecdsa {__import__('ecdsa').__version__}): {python:8.0f}")
    print(f"  TypeScript SDK (viem):            {typescript:8.0f}")
    print(f"  Python / TypeScript:              {python / typescript:8.2f}")


if __name__ == "__main__":
    main()
