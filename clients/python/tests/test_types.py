"""pmx_client/types.py is what tools/generate_types.py makes of the running server's /openapi.json:
the response types cannot drift from what the server answers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import Server

ROOT = Path(__file__).resolve().parents[1]


def test_types_match_the_servers_openapi_document(server: Server) -> None:
    generated = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_types.py"), f"{server.url}/openapi.json"], capture_output=True, text=True, check=True).stdout
    assert generated == (ROOT / "pmx_client" / "types.py").read_text(), "regenerate: tools/generate_types.py URL > pmx_client/types.py"
