"""The client's view of the server clock, from GET /exchange `serverTime`.

HMAC timestamps must be within HMAC_WINDOW_MS (default 30 s) of the server's time, and a
signature the server has seen is refused as a replay, so timestamps are (1) the server's time
as estimated from the last sync, and (2) unique per client: two identical requests signed in
the same millisecond would otherwise carry the same signature.
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict

_REMEMBERED = 10_000
#: Each sync signs up to this far behind the server's time, chosen at random: two processes
#: holding one key that send the same request the same time after their syncs would otherwise
#: sign it identically. Half a second is far inside the 30-second window.
_SPREAD_MS = 500


class ServerClock:
    def __init__(self) -> None:
        self._offset_ms = 0
        self._used: OrderedDict[int, None] = OrderedDict()
        self._lock = threading.Lock()

    def sync(self, server_time_ms: int, rtt_ms: float = 0) -> None:
        """Records the server's time as seen now; the round trip (when known) centres the estimate."""
        self._offset_ms = int(server_time_ms + rtt_ms // 2 - time.time() * 1000 - random.randrange(_SPREAD_MS))

    def now_ms(self) -> int:
        return int(time.time() * 1000) + self._offset_ms

    def unique_timestamp_ms(self) -> int:
        """A timestamp near the server's time that this client has not signed with yet."""
        with self._lock:
            timestamp = self.now_ms()
            while timestamp in self._used:
                timestamp -= 1
            self._used[timestamp] = None
            if len(self._used) > _REMEMBERED:
                self._used.popitem(last=False)
            return timestamp
