"""Sign-in, API keys and the HMAC scheme against a real server, and each way credentials fail."""

from __future__ import annotations

import httpx
import pytest
from conftest import Server, new_trader

from pmx_client import ApiKeyCredentials, AuthenticationError, Client, RetryPolicy, Wallet
from pmx_client.clock import ServerClock
from pmx_client.siwe import sign_in_message


def test_sign_in_binds_the_message_to_the_origin_the_client_was_given(server: Server) -> None:
    """127.0.0.1:PORT and localhost:PORT are both the server's own origins; another site's is refused."""
    port = server.url.rsplit(":", 1)[1]
    for base_url in (server.url, f"http://localhost:{port}/"):
        client = Client(base_url, wallet=Wallet.create())
        session = client.auth.sign_in()
        assert session["user"]["address"] == client.session.wallet.address  # type: ignore[union-attr]
        assert client.account.get()["proxyWallet"] == session["user"]["proxyWallet"]
    wallet = Wallet.create()
    nonce = httpx.get(f"{server.url}/api/v1/auth/nonce").json()["nonce"]
    exchange = httpx.get(f"{server.url}/api/v1/exchange").json()
    phished = sign_in_message(base_url="https://pmx-login.example", address=wallet.address, chain_id=exchange["chainId"], nonce=nonce, issued_at_ms=exchange["serverTime"])
    answer = httpx.post(f"{server.url}/api/v1/auth/login", json={"message": phished, "signature": wallet.sign_message(phished)})
    assert answer.status_code == 401


def test_api_keys_are_listed_and_revoked_and_a_revoked_key_stops_at_once(server: Server) -> None:
    client = new_trader(server)
    first = client.session.api_key
    assert first is not None
    second = client.auth.create_api_key()
    assert {k["apiKey"] for k in client.auth.list_api_keys()} == {first.api_key, second.api_key}
    keyed = Client(server.url, api_key=second)  # the key alone, no session
    keyed.account.balance()
    feed = keyed.user_feed()
    client.auth.revoke_api_key(second.api_key)
    with pytest.raises(AuthenticationError) as refused:
        keyed.account.balance()
    assert (refused.value.status_code, refused.value.code) == (401, "UNAUTHORIZED")
    assert feed.get(timeout=10) is None and feed.closed  # the server closed the revoked key's feed
    client.use_api_key(first)
    assert [k["apiKey"] for k in client.auth.list_api_keys()] == [first.api_key]


def test_a_wrong_secret_is_refused(server: Server) -> None:
    client = new_trader(server)
    good = client.session.api_key
    assert good is not None
    forged = Client(server.url, api_key=ApiKeyCredentials(good.api_key, "not-the-secret", good.passphrase))
    with pytest.raises(AuthenticationError) as refused:
        forged.account.balance()
    assert refused.value.status_code == 401


class _StuckClock(ServerClock):
    """A client clock a minute behind the server that a resync cannot fix."""

    def sync(self, server_time_ms: int, rtt_ms: float = 0) -> None:
        super().sync(server_time_ms - 60_000, rtt_ms)


def test_a_stale_timestamp_is_refused_and_a_skewed_clock_heals_on_the_first_401(server: Server) -> None:
    client = new_trader(server)
    creds = client.session.api_key
    stale = Client(server.url, api_key=creds, retry=RetryPolicy(retries=0))
    stale.session.clock = _StuckClock()
    with pytest.raises(AuthenticationError) as refused:
        stale.account.balance()
    assert refused.value.code == "UNAUTHORIZED"
    skewed = Client(server.url, api_key=creds)
    skewed.exchange()
    skewed.session.clock._offset_ms -= 120_000  # as after a laptop sleeps: the resync puts it right
    assert skewed.account.balance()["collateral"]["balance"] == "1000"


def test_logout_ends_the_session(server: Server) -> None:
    client = Client(server.url, wallet=Wallet.create())
    client.auth.sign_in()
    token = client.session.token
    client.auth.logout()
    with pytest.raises(AuthenticationError):
        Client(server.url, token=token).account.get()
