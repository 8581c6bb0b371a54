"""The Socket.IO feeds (EXTENSIONS.md section 6) for the blocking client.

`BookWatcher` keeps local books equal to REST: it subscribes with `orderbook-market-connect`,
starts each book from its `orderbook` snapshot, applies every `orderbook-price-change`, and asks
for a fresh snapshot when a `seq` is skipped or a hash differs (a takeover snapshot simply
replaces the book). Every (re)connect resubscribes. `UserFeed` is the authenticated `/user`
namespace, signed afresh at every (re)connect so a reconnect after a long outage still passes
the timestamp window. python-socketio runs each connection on background threads; both classes
are safe to read from any thread, and `aio_feeds` puts asyncio faces on them.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import socketio

from .book import Book, LocalBook
from .errors import FeedError

DEFAULT_WAIT = 30.0
#: Messages waiting for a consumer; beyond this the oldest are dropped (a bound on memory).
QUEUE_MAX = 10_000
_SOCKET_OPTIONS: dict[str, Any] = {"reconnection": True, "reconnection_delay": 0.5, "reconnection_delay_max": 5}


def _close_socket(sio: socketio.Client) -> None:
    """Disconnects for good. python-socketio's `disconnect()` does not stop a reconnect already under
    way (the server dropped the transport): that thread would retry forever and keep the process
    alive, so its abort event is set first."""
    abort = getattr(sio, "_reconnect_abort", None)
    if abort is not None:
        abort.set()
    sio.disconnect()


class ChangedTokens:
    """Tokens whose book changed since the consumer last looked: the latest state only, so a slow
    reader never falls behind a queue of stale books. `wake` is how the reader is told."""

    def __init__(self, wake: Callable[[], None]) -> None:
        self._tokens: dict[str, None] = {}
        self._lock = threading.Lock()
        self._wake = wake

    def push(self, token_id: str) -> None:
        with self._lock:
            self._tokens[token_id] = None
        self._wake()

    def pop(self) -> str | None:
        with self._lock:
            if not self._tokens:
                return None
            token_id = next(iter(self._tokens))
            del self._tokens[token_id]
            return token_id


class BookWatcher:
    """Local books of `token_ids`; use as a context manager, or call `close()`."""

    def __init__(self, base_url: str, token_ids: Sequence[str], *, transports: Sequence[str] = ("websocket",)) -> None:
        self.token_ids = list(dict.fromkeys(token_ids))
        #: How many times a book was resynchronised (gaps and mismatches).
        self.resync_count = 0
        self._books: dict[str, LocalBook] = {}
        self._resyncing: set[str] = set(self.token_ids)
        self._refusals: dict[str, FeedError] = {}
        self._readers: list[ChangedTokens] = []
        self._lock = threading.RLock()
        self.closed = False
        self._sio = socketio.Client(**_SOCKET_OPTIONS)
        self._sio.on("connect", self._on_connect)
        self._sio.on("orderbook", self._on_snapshot)
        self._sio.on("orderbook-price-change", self._on_change)
        self._sio.on("subscription-error", self._on_refusal)
        self._sio.connect(base_url, transports=list(transports), wait_timeout=10)

    # -- reading -------------------------------------------------------------------------------

    def book(self, token_id: str) -> Book | None:
        """The token's book as of its last change; None while it waits for a (fresh) snapshot."""
        with self._lock:
            local = self._books.get(token_id)
            return None if local is None or token_id in self._resyncing else local.snapshot()

    def updates(self, timeout: float | None = None) -> Iterator[tuple[str, Book]]:
        """(token id, book) each time a book changes, the latest state of each; ends after `timeout`
        seconds without a change (None: never) or when the watcher closes."""
        wake = threading.Event()
        reader = self.reader(wake.set)
        try:
            while not self.closed:
                token_id = reader.pop()
                if token_id is None:
                    if not wake.wait(timeout):
                        return
                    wake.clear()
                    continue
                self.raise_refusal([token_id])
                book = self.book(token_id)
                if book is not None:
                    yield token_id, book
        finally:
            self.drop_reader(reader)

    def until(self, token_id: str, predicate: Callable[[Book], bool], timeout: float = DEFAULT_WAIT) -> Book:
        """The token's book once `predicate` holds for it; FeedError when refused or after `timeout` (TIMEOUT)."""
        deadline = time.monotonic() + timeout
        wake = threading.Event()
        reader = self.reader(wake.set)
        try:
            while True:
                self.raise_refusal([token_id])
                book = self.book(token_id)
                if book is not None and predicate(book):
                    return book
                left = deadline - time.monotonic()
                if left <= 0 or not wake.wait(left):
                    raise FeedError("TIMEOUT", f"no book of {token_id} met the condition within {timeout} s", [token_id])
                wake.clear()
        finally:
            self.drop_reader(reader)

    def ready(self, timeout: float = DEFAULT_WAIT) -> None:
        """Returns once every watched token has a book; FeedError as `until`."""
        deadline = time.monotonic() + timeout
        for token_id in self.token_ids:
            self.until(token_id, lambda _: True, max(0.0, deadline - time.monotonic()))

    def resync(self, token_id: str) -> None:
        """Asks for a fresh snapshot of a token (what a gap or mismatch does)."""
        with self._lock:
            self._resyncing.add(token_id)
        self._sio.emit("orderbook-market-connect", [token_id])

    def close(self) -> None:
        self.closed = True
        _close_socket(self._sio)
        with self._lock:
            readers = list(self._readers)
        for reader in readers:
            reader.push("")  # wakes them to see the watcher closed

    def __enter__(self) -> BookWatcher:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()

    # -- for the asyncio face and the waits --------------------------------------------------------

    def reader(self, wake: Callable[[], None]) -> ChangedTokens:
        reader = ChangedTokens(wake)
        with self._lock:
            self._readers.append(reader)
        return reader

    def drop_reader(self, reader: ChangedTokens) -> None:
        with self._lock:
            if reader in self._readers:
                self._readers.remove(reader)

    def raise_refusal(self, token_ids: Sequence[str]) -> None:
        with self._lock:
            refused = [self._refusals[t] for t in token_ids if t in self._refusals]
        if refused:
            raise refused[0]
        if self.closed:
            raise FeedError("CLOSED", "the book watcher is closed", list(token_ids))

    def _changed(self, token_ids: Sequence[str]) -> None:
        with self._lock:
            readers = list(self._readers)
        for reader in readers:
            for token_id in token_ids:
                reader.push(token_id)

    # -- socket events (python-socketio's thread) -------------------------------------------------

    def _on_connect(self) -> None:
        with self._lock:
            self._resyncing.update(self.token_ids)
            self._refusals.clear()
        self._sio.emit("orderbook-market-connect", self.token_ids)

    def _on_snapshot(self, snapshot: dict[str, Any]) -> None:
        token_id = snapshot["asset_id"]
        with self._lock:
            self._books[token_id] = LocalBook(snapshot)
            self._resyncing.discard(token_id)
            self._refusals.pop(token_id, None)
        self._changed([token_id])

    def _on_change(self, change: dict[str, Any]) -> None:
        token_id = change["asset_id"]
        with self._lock:
            local = self._books.get(token_id)
            if local is None or token_id in self._resyncing:
                return
            result = local.apply(change)
            if result == "stale":
                return
            if result != "applied":
                self.resync_count += 1
        if result == "applied":
            self._changed([token_id])
        else:
            self.resync(token_id)

    def _on_refusal(self, error: dict[str, Any]) -> None:
        token_ids: list[str] = list(error.get("tokenIds") or [])
        refused = token_ids or self.token_ids  # naming none, it refused the whole call
        failure = FeedError(str(error.get("code")), f"subscription refused: {error.get('message')}", refused)
        with self._lock:
            for token_id in refused:
                self._refusals[token_id] = failure
        self._changed(refused)


@dataclass(frozen=True)
class UserMessage:
    """One `/user` event: `type` is its name (order-update, trade-update, user-reward-claim-update, mmp-triggered)."""

    type: str
    data: dict[str, Any]


USER_EVENTS = ("order-update", "trade-update", "user-reward-claim-update", "mmp-triggered")


class UserFeed:
    """The caller's `/user` messages; iterate it (`for message in feed`), and close it when done.

    `auth` builds the handshake (signed afresh for each connection). With `cancel_on_disconnect`
    the server cancels the key's open orders when this feed is gone for more than 2 s
    (EXTENSIONS.md section 15). `sink`, when given, receives the messages instead of the feed's
    own queue (the asyncio face uses it).
    """

    def __init__(
        self,
        base_url: str,
        auth: Callable[[], dict[str, Any]],
        *,
        cancel_on_disconnect: bool = False,
        transports: Sequence[str] = ("websocket",),
        sink: Callable[[UserMessage | None], None] | None = None,
    ) -> None:
        self._messages: queue.Queue[UserMessage | None] = queue.Queue()
        self._sink = sink or self._enqueue
        self._previous_sid: str | None = None
        self._cancel_on_disconnect = cancel_on_disconnect
        self._auth = auth
        self._closed = False
        self._refusal: str | None = None
        self._sio = socketio.Client(**_SOCKET_OPTIONS)
        for event in USER_EVENTS:
            self._sio.on(event, self._forward(event), namespace="/user")
        self._sio.on("connect", self._on_connect, namespace="/user")
        self._sio.on("connect_error", self._on_refused, namespace="/user")
        self._sio.on("disconnect", self._on_disconnect, namespace="/user")
        try:
            self._sio.connect(base_url, namespaces=["/user"], transports=list(transports), auth=self._handshake, wait_timeout=10)
        except socketio.exceptions.ConnectionError as error:
            raise FeedError("UNAUTHORIZED" if self._refusal else "CONNECTION_FAILED", self._refusal or str(error)) from None

    def _handshake(self) -> dict[str, Any]:
        auth = dict(self._auth())
        if self._cancel_on_disconnect:
            auth["cancelOnDisconnect"] = True
        if self._previous_sid:  # names the connection it resumes (replay guard, cancel-on-disconnect grace)
            auth["sessionId"] = self._previous_sid
        return auth

    def _forward(self, event: str) -> Callable[[dict[str, Any]], None]:
        return lambda data: self._sink(UserMessage(event, data))

    def _enqueue(self, message: UserMessage | None) -> None:
        if self._messages.qsize() >= QUEUE_MAX:
            try:
                self._messages.get_nowait()
            except queue.Empty:
                pass
        self._messages.put(message)

    def _on_connect(self) -> None:
        self._previous_sid = self._sio.get_sid("/user")

    def _on_refused(self, data: Any = None) -> None:
        self._refusal = str(data.get("message") if isinstance(data, dict) else data)
        # A reconnect refused for its credentials (a key revoked, a session ended while the
        # transport was down) never succeeds: the feed ends rather than retry forever.
        refused_credentials = isinstance(data, dict) and isinstance(data.get("data"), dict) and data["data"].get("code") == "UNAUTHORIZED"
        if refused_credentials and self._previous_sid is not None:
            timer = threading.Timer(0, self.close)
            timer.daemon = True
            timer.start()

    def _on_disconnect(self) -> None:
        # The server closes the feed of a revoked key and no reconnect follows: end the iteration.
        timer = threading.Timer(0.1, self._end_if_gone)
        timer.daemon = True
        timer.start()

    def _end_if_gone(self) -> None:
        # A dropped transport is being reconnected by python-socketio; a server's disconnect is not.
        if not self._closed and not self._sio.connected and getattr(self._sio, "_reconnect_task", None) is None:
            self.close()

    @property
    def connected(self) -> bool:
        return bool(self._sio.connected)

    @property
    def closed(self) -> bool:
        """Closed by `close()`, or by the server (a revoked key, an ended session): nothing more comes."""
        return self._closed

    def get(self, timeout: float | None = None) -> UserMessage | None:
        """The next message; None when the feed closed or after `timeout` seconds without one."""
        try:
            message = self._messages.get(timeout=timeout)
        except queue.Empty:
            return None
        if message is None:
            self._messages.put(None)  # stays closed for every later read
        return message

    def __iter__(self) -> Iterator[UserMessage]:
        while (message := self.get()) is not None:
            yield message

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        _close_socket(self._sio)
        self._sink(None)

    def __enter__(self) -> UserFeed:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()
