"""asyncio faces of the feeds: the same BookWatcher and UserFeed (python-socketio on its own
threads), with their waits and iterations awaitable on the caller's loop. Nothing blocks the
loop: the socket threads wake it with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from types import TracebackType
from typing import Any

from .book import Book
from .errors import FeedError
from .feeds import DEFAULT_WAIT, BookWatcher, UserFeed, UserMessage


def _waker(event: asyncio.Event) -> Callable[[], None]:
    """Sets `event` on the running loop, from any thread."""
    loop = asyncio.get_running_loop()

    def wake() -> None:
        loop.call_soon_threadsafe(event.set)

    return wake


class AsyncBookWatcher:
    """`await AsyncBookWatcher.open(url, token_ids)`; then `async for token_id, book in watcher.updates()`."""

    def __init__(self, watcher: BookWatcher) -> None:
        self._watcher = watcher

    @classmethod
    async def open(cls, base_url: str, token_ids: Sequence[str], *, transports: Sequence[str] = ("websocket",)) -> AsyncBookWatcher:
        return cls(await asyncio.to_thread(BookWatcher, base_url, token_ids, transports=transports))

    @property
    def resync_count(self) -> int:
        return self._watcher.resync_count

    def book(self, token_id: str) -> Book | None:
        return self._watcher.book(token_id)

    def resync(self, token_id: str) -> None:
        self._watcher.resync(token_id)

    async def updates(self, timeout: float | None = None) -> AsyncIterator[tuple[str, Book]]:
        """As BookWatcher.updates, awaiting between changes."""
        wake = asyncio.Event()
        reader = self._watcher.reader(_waker(wake))
        try:
            while not self._watcher.closed:
                token_id = reader.pop()
                if token_id is None:
                    try:
                        await asyncio.wait_for(wake.wait(), timeout)
                    except asyncio.TimeoutError:
                        return
                    wake.clear()
                    continue
                self._watcher.raise_refusal([token_id])
                book = self._watcher.book(token_id)
                if book is not None:
                    yield token_id, book
        finally:
            self._watcher.drop_reader(reader)

    async def until(self, token_id: str, predicate: Callable[[Book], bool], timeout: float = DEFAULT_WAIT) -> Book:
        deadline = time.monotonic() + timeout
        wake = asyncio.Event()
        reader = self._watcher.reader(_waker(wake))
        try:
            while True:
                self._watcher.raise_refusal([token_id])
                book = self._watcher.book(token_id)
                if book is not None and predicate(book):
                    return book
                try:
                    await asyncio.wait_for(wake.wait(), max(0.0, deadline - time.monotonic()))
                except asyncio.TimeoutError:
                    raise FeedError("TIMEOUT", f"no book of {token_id} met the condition within {timeout} s", [token_id]) from None
                wake.clear()
        finally:
            self._watcher.drop_reader(reader)

    async def ready(self, timeout: float = DEFAULT_WAIT) -> None:
        deadline = time.monotonic() + timeout
        for token_id in self._watcher.token_ids:
            await self.until(token_id, lambda _: True, max(0.0, deadline - time.monotonic()))

    async def close(self) -> None:
        await asyncio.to_thread(self._watcher.close)

    async def __aenter__(self) -> AsyncBookWatcher:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        await self.close()


class AsyncUserFeed:
    """`async for message in feed`; messages cross from the socket's thread through an asyncio queue."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[UserMessage | None] = asyncio.Queue()
        self._feed: UserFeed | None = None
        self._done = False

    @classmethod
    async def open(cls, base_url: str, auth: Callable[[], dict[str, Any]], *, cancel_on_disconnect: bool = False, transports: Sequence[str] = ("websocket",)) -> AsyncUserFeed:
        self = cls()
        loop = asyncio.get_running_loop()

        def sink(message: UserMessage | None) -> None:
            loop.call_soon_threadsafe(self._queue.put_nowait, message)

        self._feed = await asyncio.to_thread(UserFeed, base_url, auth, cancel_on_disconnect=cancel_on_disconnect, transports=transports, sink=sink)
        return self

    @property
    def connected(self) -> bool:
        return self._feed is not None and self._feed.connected

    async def get(self, timeout: float | None = None) -> UserMessage | None:
        """The next message; None once the feed closed or after `timeout` seconds without one."""
        if self._done:
            return None
        try:
            message = await asyncio.wait_for(self._queue.get(), timeout)
        except asyncio.TimeoutError:
            return None
        self._done = message is None
        return message

    def __aiter__(self) -> AsyncIterator[UserMessage]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[UserMessage]:
        while (message := await self.get()) is not None:
            yield message

    async def close(self) -> None:
        if self._feed is not None:
            await asyncio.to_thread(self._feed.close)

    async def __aenter__(self) -> AsyncUserFeed:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        await self.close()
