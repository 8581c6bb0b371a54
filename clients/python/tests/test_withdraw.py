"""A withdrawal signed by the client's wallet (EXTENSIONS.md section 14) against a real server: the
server checks the EIP-712 Withdraw the Python client signed, and each way it refuses one."""

from __future__ import annotations

from decimal import Decimal

import pytest
from conftest import Server, new_trader

from pmx_client import Client, ValidationError, Wallet

TO = "0x000000000000000000000000000000000000dEaD"


def _collateral(client: Client) -> Decimal:
    return Decimal(client.account.balance()["collateral"]["balance"])


def test_a_withdrawal_signed_by_the_wallet_moves_collateral_out_once_per_nonce(server: Server) -> None:
    trader = new_trader(server, fund="50")
    answer = trader.account.withdraw(TO, "12.5", 1)
    assert answer["txHash"].startswith("0x") and len(answer["txHash"]) == 66
    assert _collateral(trader) == Decimal("37.5")
    with pytest.raises(ValidationError):
        trader.account.withdraw(TO, "1", 1)
    trader.account.withdraw(TO, Decimal("0.000001"), 2**255)
    assert _collateral(trader) == Decimal("37.499999")


def test_a_withdrawal_above_the_balance_or_signed_by_another_wallet_is_refused(server: Server) -> None:
    trader = new_trader(server, fund="10")
    with pytest.raises(ValidationError) as above:
        trader.account.withdraw(TO, "10.000001", 1)
    assert above.value.code == "INSUFFICIENT_BALANCE"
    # Another wallet's signature on this account's API key: the key alone moves nothing out.
    trader.session.wallet = Wallet.create()
    with pytest.raises(ValidationError):
        trader.account.withdraw(TO, "1", 2)
    assert _collateral(trader) == Decimal("10")


def test_a_client_without_a_wallet_cannot_withdraw(server: Server) -> None:
    trader = new_trader(server, fund="10")
    keyed = Client(server.url, api_key=trader.session.api_key)
    with pytest.raises(ValueError, match="signed by the wallet"):
        keyed.account.withdraw(TO, "1", 1)
