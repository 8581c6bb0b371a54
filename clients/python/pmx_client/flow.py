"""One implementation of every call for both clients, blocking and asyncio.

A call is written once as a generator (a "flow") that yields what it needs done, `Http` (send
a request, get the answer back) or `Sleep` (wait before a retry), and returns the result; a
paginated walk also yields `Emit` for each item. The blocking client drives flows with an
httpx.Client and time.sleep, the asyncio client with an httpx.AsyncClient and asyncio.sleep,
so signing, retries, clock resyncs and order building are the same code in both.

Sections declare their methods with `@api` (one result) or `@pages` (an iterator); reading the
method on a `Section[Blocking]` gives a plain function, on a `Section[Awaiting]` a coroutine
function (or an async iterator for `@pages`), with the signature kept for type checkers.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, Union, overload

import httpx

if TYPE_CHECKING:
    from .session import Session

T = TypeVar("T")
P = ParamSpec("P")
S = TypeVar("S")
M = TypeVar("M", bound="Blocking | Awaiting")


@dataclass(frozen=True)
class Http:
    """Send this request; the flow gets a `Response` back."""

    method: str
    url: str
    headers: dict[str, str]
    content: bytes | None = None


@dataclass(frozen=True)
class Response:
    status_code: int
    headers: dict[str, str]
    text: str
    #: Seconds between sending and the answer, to centre the server-clock estimate.
    elapsed: float


@dataclass(frozen=True)
class Sleep:
    seconds: float


@dataclass(frozen=True)
class Emit:
    """One item of a paginated walk, for the caller's iterator."""

    item: Any = field()


Action = Union[Http, Sleep, Emit]
#: A call: yields actions, receives their results, returns the call's result.
Flow = Generator[Action, Any, T]


class Blocking:
    """Drives flows to completion on the calling thread."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http

    def _perform(self, action: Http | Sleep) -> Response | None:
        if isinstance(action, Sleep):
            time.sleep(action.seconds)
            return None
        started = time.monotonic()
        answer = self.http.request(action.method, action.url, headers=action.headers, content=action.content)
        return Response(answer.status_code, dict(answer.headers), answer.text, time.monotonic() - started)

    def iterate(self, flow: Flow[Any]) -> Iterator[Any]:
        """Drives a flow, yielding what it emits; its return value ends the iteration."""
        result: Any = None
        while True:
            try:
                action = flow.send(result)
            except StopIteration as done:
                return done.value
            if isinstance(action, Emit):
                result = None
                yield action.item
            else:
                result = self._perform(action)

    def run(self, flow: Flow[T]) -> T:
        walk = self.iterate(flow)
        try:
            next(walk)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        raise TypeError("a call emitted items: iterate it instead")


class Awaiting:
    """Drives flows on the running asyncio loop."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def _perform(self, action: Http | Sleep) -> Response | None:
        if isinstance(action, Sleep):
            await asyncio.sleep(action.seconds)
            return None
        started = time.monotonic()
        answer = await self.http.request(action.method, action.url, headers=action.headers, content=action.content)
        return Response(answer.status_code, dict(answer.headers), answer.text, time.monotonic() - started)

    async def iterate(self, flow: Flow[Any]) -> AsyncIterator[Any]:
        result: Any = None
        while True:
            try:
                action = flow.send(result)
            except StopIteration:
                return
            if isinstance(action, Emit):
                result = None
                yield action.item
            else:
                result = await self._perform(action)

    async def run(self, flow: Flow[T]) -> T:
        result: Any = None
        while True:
            try:
                action = flow.send(result)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]
            if isinstance(action, Emit):
                raise TypeError("a call emitted items: iterate it instead")
            result = await self._perform(action)


class Section(Generic[M]):
    """A part of the API (orders, events, …) over one session, run by one driver."""

    def __init__(self, session: Session, driver: M) -> None:
        self._session = session
        self._driver: M = driver


class api(Generic[S, P, T]):
    """A section method that returns one result: `T` on a blocking client, `Awaitable[T]` on an asyncio one."""

    def __init__(self, flow: Callable[Concatenate[S, P], Flow[T]]) -> None:
        self._flow = flow
        self.__doc__ = flow.__doc__

    @overload
    def __get__(self, section: None, owner: type[Any]) -> api[S, P, T]: ...
    @overload
    def __get__(self, section: Section[Blocking], owner: type[Any]) -> Callable[P, T]: ...
    @overload
    def __get__(self, section: Section[Awaiting], owner: type[Any]) -> Callable[P, Awaitable[T]]: ...
    def __get__(self, section: Section[Any] | None, owner: type[Any]) -> Any:
        if section is None:
            return self
        flow, driver = self._flow, section._driver

        def call(*args: Any, **kwargs: Any) -> Any:
            return driver.run(flow(section, *args, **kwargs))  # type: ignore[arg-type]

        call.__doc__ = flow.__doc__
        return call


class pages(Generic[S, P, T]):
    """A section method that walks pages: `Iterator[T]` on a blocking client, `AsyncIterator[T]` on an asyncio one."""

    def __init__(self, flow: Callable[Concatenate[S, P], Flow[None]]) -> None:
        self._flow = flow
        self.__doc__ = flow.__doc__

    @overload
    def __get__(self, section: None, owner: type[Any]) -> pages[S, P, T]: ...
    @overload
    def __get__(self, section: Section[Blocking], owner: type[Any]) -> Callable[P, Iterator[T]]: ...
    @overload
    def __get__(self, section: Section[Awaiting], owner: type[Any]) -> Callable[P, AsyncIterator[T]]: ...
    def __get__(self, section: Section[Any] | None, owner: type[Any]) -> Any:
        if section is None:
            return self
        flow, driver = self._flow, section._driver

        def walk(*args: Any, **kwargs: Any) -> Any:
            return driver.iterate(flow(section, *args, **kwargs))  # type: ignore[arg-type]

        walk.__doc__ = flow.__doc__
        return walk


def paged(item: type[T]) -> Callable[[Callable[Concatenate[S, P], Flow[None]]], pages[S, P, T]]:
    """`@paged(Event)`: a `pages` method whose items are typed `Event`."""

    def wrap(flow: Callable[Concatenate[S, P], Flow[None]]) -> pages[S, P, T]:
        return pages(flow)

    return wrap
