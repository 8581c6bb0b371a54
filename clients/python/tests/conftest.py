"""Real exchange processes for the tests: the built server (`node dist/server/main.js serve`, what
`npm start` runs) on an in-memory store, a free port and the faucet on, started once per session
(and separately where a test needs other settings), stopped at the end."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pmx_client import Client, Wallet  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
ADMIN_TOKEN = "python-client-tests-admin-token"
_built = False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def admin(self) -> httpx.Client:
        return httpx.Client(base_url=f"{self.url}/api/v1", headers={"authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def crash(self) -> None:
        self.process.kill()
        self.process.wait()


def ensure_build() -> None:
    """The build is brought up to date once, as `npm start` does."""
    global _built
    if not _built:
        subprocess.run(["node", "scripts/build.mjs", "--if-stale"], cwd=REPO, check=True, stdout=subprocess.DEVNULL)
        _built = True


def start_server(tmp: Path, env: dict[str, str] | None = None, args: tuple[str, ...] = (), port: int | None = None) -> Server:
    ensure_build()
    port = port or free_port()
    log = tmp / f"server-{port}-{uuid.uuid4().hex[:6]}.log"
    settings = {
        **os.environ,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DATA_DIR": "memory://",
        "DATABASE_URL": "",
        "REDIS_URL": "",
        "ADMIN_TOKEN": ADMIN_TOKEN,
        "FAUCET_ENABLED": "true",
        "LOG_LEVEL": "warn",
        "SIGNATURE_WORKERS": "0",
        # The simulated settlement layer, as the rest of the suite: these tests are the client's; the
        # chain's settlement is tested by the server's suites on CHAIN=embedded.
        "CHAIN": "none",
        **(env or {}),
    }
    with log.open("wb") as out:
        process = subprocess.Popen(["node", "dist/server/main.js", "serve", *args], cwd=REPO, env=settings, stdout=out, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{server.url}/readyz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    server.crash()
    raise RuntimeError(f"the server did not become ready: {log.read_text()[-2000:]}")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = start_server(tmp_path_factory.mktemp("server"))
    yield running
    running.stop()


def publish_event(server: Server, *, markets: list[dict[str, Any]] | None = None, **event: Any) -> dict[str, Any]:
    """A published event (its markets ACTIVE with token ids), through the admin API."""
    with server.admin as admin:
        body = {"name": f"Python client test {uuid.uuid4().hex[:8]}", "description": "made by the Python client's tests", "markets": markets or [{"name": "Will it rain?"}], **event}
        created = admin.post("/admin/events", json=body)
        created.raise_for_status()
        published = admin.post(f"/admin/events/{created.json()['id']}/publish")
        published.raise_for_status()
        result: dict[str, Any] = published.json()
        return result


@pytest.fixture
def market(server: Server) -> dict[str, Any]:
    """A fresh ordinary market (tick 0.01, fees 0)."""
    market: dict[str, Any] = publish_event(server)["markets"][0]
    return market


def new_trader(server: Server, fund: str = "1000", **options: Any) -> Client:
    """A signed-in client with its own wallet, an API key and collateral from the faucet."""
    client = Client(server.url, wallet=Wallet.create(), **options)
    client.auth.sign_in()
    client.auth.create_api_key()
    client.account.faucet(fund)
    return client


@pytest.fixture
def trader(server: Server) -> Iterator[Client]:
    client = new_trader(server)
    yield client
    client.close()


_stray_threads: list[str] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Every feed a test opened was closed: a socket thread left running would keep the process alive."""
    import threading
    import time

    def running() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]

    # A closed feed's socket.io reconnect thread ends on its own a moment after the close (it may be
    # mid-attempt); only a thread still running after a grace period would keep the process alive.
    deadline = time.monotonic() + 10
    for thread in running():
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    alive = [t.name for t in running()]
    if alive:
        print(f"\nthreads still running after the tests: {alive}", file=sys.stderr)
        _stray_threads.extend(alive)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    """A stray thread is a failure, not a hang: the interpreter would wait for it forever at exit (CI's time limit)."""
    if _stray_threads:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(pytest.ExitCode.TESTS_FAILED))
