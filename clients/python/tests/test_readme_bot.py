"""The README's first python block, run as it stands against `serve --demo` (what `npm run demo`
runs) for 10 seconds: it quotes, requotes, and on Ctrl-C cancels everything and exits."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import Server, start_server

from pmx_client import Client, Wallet

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_server(tmp_path_factory.mktemp("demo"), args=("--demo",))
    deadline = time.monotonic() + 90
    while httpx.get(f"{server.url}/api/v1/markets/demo-btc-above-150k").status_code != 200:  # seeded after /readyz
        assert time.monotonic() < deadline, "the demo did not seed its markets"
        time.sleep(0.5)
    yield server
    server.stop()


def test_the_readme_bot_quotes_requotes_and_cancels_everything_on_exit(demo: Server, tmp_path: Path) -> None:
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.DOTALL)
    assert code is not None
    bot = tmp_path / "bot.py"
    bot.write_text(code.group(1))
    wallet = Wallet.create()  # the bot's own wallet, known to the test so it can look afterwards
    env = {**os.environ, "PMX_URL": demo.url, "PMX_PRIVATE_KEY": wallet.private_key, "PYTHONPATH": str(README.parent)}
    process = subprocess.Popen([sys.executable, str(bot)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        deadline = time.monotonic() + 60  # start-up (sign-in, funding, first quote) on a busy machine
        while not any(line.startswith("quoting") for line in lines) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(10)  # ten seconds of making the market
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        reader.join(timeout=10)
    output = "".join(lines)
    assert process.returncode == 0, output
    assert f"as {wallet.address}" in output and "quoting" in output and output.rstrip().endswith("cancelled every quote"), output

    with Client(demo.url, wallet=wallet) as client:
        client.auth.sign_in()
        client.auth.create_api_key()
        assert client.orders.list() == []  # nothing left open
        cancelled = client.orders.page(status="CANCELLED", total=True)
        assert cancelled["total"] is not None and cancelled["total"] >= 2, output
