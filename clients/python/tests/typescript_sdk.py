"""Runs tests/ts_sign.mjs: the TypeScript SDK's signing, for comparisons (tests and bench.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
SCRIPT = Path(__file__).resolve().parent / "ts_sign.mjs"


def run_ts_sdk(request: dict[str, Any]) -> Any:
    answer = subprocess.run(["node", str(SCRIPT)], cwd=REPO, input=json.dumps(request).encode(), capture_output=True, check=True, timeout=120)
    return json.loads(answer.stdout)
