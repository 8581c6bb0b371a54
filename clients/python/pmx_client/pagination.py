"""Bounded walks over paginated routes, as flows that emit each row: the walk stops after
`MAX_PAGES` pages whatever the server says, so a server bug cannot loop a bot forever.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .flow import Emit, Flow

MAX_PAGES = 1_000


def by_page(fetch: Callable[[int], Flow[Any]], has_more: Callable[[Any], bool]) -> Flow[None]:
    """Page 1, 2, … of a `{data, …}` page while `has_more(page)` and the page had rows."""
    for number in range(1, MAX_PAGES + 1):
        page = yield from fetch(number)
        rows: Sequence[Any] = page["data"]
        for row in rows:
            yield Emit(row)
        if not rows or not has_more(page):
            return


def full_page(page: Mapping[str, Any]) -> bool:
    """More may follow a page that came back full."""
    return len(page["data"]) >= int(page["limit"])


def by_cursor(fetch: Callable[[str | None], Flow[Any]], first_cursor: str | None = None) -> Flow[None]:
    """Follows `nextCursor` until it is null."""
    cursor = first_cursor
    for _ in range(MAX_PAGES):
        page = yield from fetch(cursor)
        for row in page["data"]:
            yield Emit(row)
        cursor = page.get("nextCursor")
        if not cursor:
            return


def backwards(fetch: Callable[[dict[str, Any]], Flow[Any]]) -> Flow[None]:
    """Newest first by keyset: the next page is strictly before the last row (`before` + `beforeId`)."""
    key: dict[str, Any] = {}
    for _ in range(MAX_PAGES):
        page = yield from fetch(key)
        rows = page["data"]
        for row in rows:
            yield Emit(row)
        if not page["hasMore"] or not rows:
            return
        key = {"before": rows[-1]["matchedAt"], "beforeId": rows[-1]["id"]}
