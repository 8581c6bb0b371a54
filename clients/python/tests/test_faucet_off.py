"""A server run without the faucet, as a real exchange is: its faucet route does not exist."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Server, start_server

from pmx_client import Client, NotFoundError, Wallet
from pmx_client.sections.account import FAUCET_OFF


@pytest.fixture(scope="module")
def faucet_off(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = start_server(tmp_path_factory.mktemp("faucet-off"), {"FAUCET_ENABLED": "false"})
    yield running
    running.stop()


def test_the_faucet_says_it_is_off_and_how_to_fund_the_account_instead(faucet_off: Server) -> None:
    client = Client(faucet_off.url, wallet=Wallet.create())
    client.auth.sign_in()
    client.auth.create_api_key()
    with pytest.raises(NotFoundError) as refused:
        client.account.faucet("100")
    assert (refused.value.status_code, refused.value.code, refused.value.message) == (404, "NOT_FOUND", FAUCET_OFF)
    assert FAUCET_OFF.startswith("this exchange runs without the faucet (its server was started without FAUCET_ENABLED=true)")


def test_the_type_generator_says_why_it_needs_the_faucet_on_and_how_to_run_such_a_server(faucet_off: Server) -> None:
    generator = Path(__file__).resolve().parents[1] / "tools" / "generate_types.py"
    run = subprocess.run([sys.executable, str(generator), f"{faucet_off.url}/openapi.json"], capture_output=True, text=True)
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == (
        "the document has no POST /api/v1/account/faucet: its server runs without FAUCET_ENABLED=true, and the types describe every route;"
        " generate them from a server with it, such as `FAUCET_ENABLED=true PORT=3999 DATA_DIR=memory:// CHAIN=none node dist/server/main.js serve`"
        " (from the repository's root, after npm run build)\n"
    )
