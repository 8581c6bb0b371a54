"""429 and 503 from real servers, and the client's retries of them: only calls that cannot act
twice are retried, honouring Retry-After."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import Server, free_port, new_trader, publish_event, start_server

from pmx_client import Client, OrderSpec, RateLimitedError, RetryPolicy, ServiceUnavailableError
from pmx_client.flow import Blocking

POSTGRES = os.environ.get("CI_DATABASE_URL") or os.environ.get("DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379")


def test_429_carries_retry_after_and_reads_are_retried_after_it(tmp_path: Path) -> None:
    limited = start_server(tmp_path, {"RATE_LIMIT_REQUESTS": "5/8s"})
    try:
        key = new_trader(limited).session.api_key
        client = Client(limited.url, api_key=key, retry=RetryPolicy(retries=0))  # the key's own count
        # Up to 12 calls, not 6: on a loaded machine the 8 s window may turn over before the limit is
        # reached, and then it is reached again within it.
        with pytest.raises(RateLimitedError) as limited_error:
            for _ in range(12):
                client.account.balance()
        error = limited_error.value
        assert (error.status_code, error.code) == (429, "RATE_LIMITED")
        assert error.retry_after is not None and 0 < error.retry_after <= 8
        # A faucet is never retried (it carries no idempotency key): with the default retries it ends
        # in the 429 instead of waiting it out, once the window is spent again if it turned over.
        faucet = Client(limited.url, api_key=key)
        credited = 0
        with pytest.raises(RateLimitedError):
            for _ in range(12):
                faucet.account.faucet("1")
                credited += 1
        patient = Client(limited.url, api_key=key, retry=RetryPolicy(retries=4, max_delay=5))
        assert patient.account.balance()["collateral"]["balance"] == str(1000 + credited)  # after waiting Retry-After
    finally:
        limited.stop()


def test_get_exchange_is_retried_after_429_like_any_read(tmp_path: Path) -> None:
    # The server's clock is manual: a window ends when a 429 moves it on by its Retry-After, as time would.
    limited = start_server(tmp_path, {"RATE_LIMIT_PUBLIC": "2/1s", "CLOCK": "manual"})
    try:
        statuses: list[int] = []

        def on_response(response: httpx.Response) -> None:
            statuses.append(response.status_code)
            if response.status_code == 429:
                limited.admin.post("/admin/clock", json={"advanceMs": int(response.headers["retry-after"]) * 1000}).raise_for_status()

        client = Client(limited.url)
        driver = Blocking(httpx.Client(event_hooks={"response": [on_response]}, timeout=30))
        for _ in range(2):
            driver.run(client.session.call("GET", "/events"))
        # The address's budget is spent: GET /exchange (which also syncs the clock) waits out Retry-After.
        assert isinstance(driver.run(client.session.exchange())["serverTime"], int)
        assert statuses == [200, 200, 429, 200]
    finally:
        limited.stop()


def _reachable() -> str | None:
    try:
        subprocess.run(["psql", POSTGRES, "-qtAc", "select 1"], check=True, capture_output=True, timeout=10)
        subprocess.run(["redis-cli", "-u", REDIS, "ping"], check=True, capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return f"needs PostgreSQL at {POSTGRES} and Redis at {REDIS}"
    return None


@pytest.fixture
def two_nodes(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    reason = _reachable()
    if reason:
        pytest.skip(reason)
    name = f"pmx_python_{uuid.uuid4().hex[:10]}"
    subprocess.run(["psql", POSTGRES, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    url = POSTGRES.rsplit("/", 1)[0] + "/" + name
    env = {"DATABASE_URL": url, "REDIS_URL": REDIS, "FAILOVER_TIMEOUT_MS": "2000", "JWT_SECRET": "python-tests-jwt-secret-0123456789abcdef", "API_KEY_ENCRYPTION_KEY": "11" * 32}
    nodes: list[Server] = []
    try:
        nodes.append(start_server(tmp_path, env))
        nodes.append(start_server(tmp_path, env))
        yield nodes[0], nodes[1]
    finally:
        for node in nodes:
            node.stop()
        subprocess.run(["psql", POSTGRES, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)


def _role(node: Server) -> Any:
    return httpx.get(f"{node.url}/readyz", timeout=5).json().get("role")


def test_503_while_the_engine_changes_nodes_and_an_order_retried_through_it(two_nodes: tuple[Server, Server]) -> None:
    """A real 503: the follower passes order commands to the engine's node; with that node killed it
    answers 503 SERVICE_UNAVAILABLE with Retry-After until it takes the engine over
    (FAILOVER_TIMEOUT_MS), and the client's retry of the order (same body, same idempotency key) lands."""
    first, second = two_nodes
    leader, follower = (first, second) if _role(first) == "leader" else (second, first)
    market = publish_event(follower)["markets"][0]
    trader = new_trader(follower, retry=RetryPolicy(retries=0))
    body = trader.orders.build(OrderSpec(market["tokenId1"], "BUY", "0.3", "2"))
    leader.crash()
    with pytest.raises(ServiceUnavailableError) as unavailable:
        trader.orders.place(body)
    assert (unavailable.value.status_code, unavailable.value.code) == (503, "SERVICE_UNAVAILABLE")
    assert unavailable.value.retry_after is not None
    trader.session.retry = RetryPolicy(retries=30, max_delay=1.0)
    placed = trader.orders.place(body)
    assert placed["status"] == "PENDING"
    assert [o["id"] for o in trader.orders.list(market=market["id"])] == [placed["id"]]
    assert _role(follower) == "leader"
