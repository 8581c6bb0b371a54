"""A server run without the faucet, as a real exchange is: its faucet route does not exist."""

from __future__ import annotations

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
