"""The bound on sign-in attempts: :data:`MAX_FAILURES` failed sign-ins per client address
in :data:`WINDOW_SECONDS`, then ``429 Too Many Requests`` with ``Retry-After`` until the
oldest of them is a window old.

Failures (a wrong token, an expired or forged sign-in form) are counted per client address
in each worker process, in memory: a guesser gets at most ``MAX_FAILURES`` tries a minute
from each worker. Past :data:`MAX_CLIENTS` addresses being counted, new ones share the
count of the client ``*``, so memory stays bounded however many addresses send.
"""

from __future__ import annotations

import math
import threading
from collections import deque

__all__ = ["MAX_CLIENTS", "MAX_FAILURES", "WINDOW_SECONDS", "SigninThrottle"]

MAX_FAILURES = 10
WINDOW_SECONDS = 60.0
MAX_CLIENTS = 10_000
OVERFLOW_CLIENT = "*"


class SigninThrottle:
    """Counts failed sign-ins per client; thread-safe."""

    def __init__(
        self,
        limit: int = MAX_FAILURES,
        window: float = WINDOW_SECONDS,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        self.limit = limit
        self.window = window
        self.max_clients = max_clients
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str, now: float) -> deque[float] | None:
        found = self._failures.get(client)
        if found is None:
            return None
        while found and found[0] <= now - self.window:
            found.popleft()
        if not found:
            del self._failures[client]
            return None
        return found

    def _key(self, client: str) -> str:
        if client in self._failures or len(self._failures) < self.max_clients:
            return client
        return OVERFLOW_CLIENT

    def retry_after(self, client: str, now: float) -> int | None:
        """Seconds ``client`` must wait before its next attempt, or None when it may try."""
        with self._lock:
            found = self._recent(self._key(client), now)
            if found is None or len(found) < self.limit:
                return None
            return max(1, math.ceil(found[0] + self.window - now))

    def failed(self, client: str, now: float) -> None:
        """Count one failed sign-in of ``client`` at ``now``."""
        with self._lock:
            if len(self._failures) >= self.max_clients:  # forget the clients gone quiet
                for name in list(self._failures):
                    self._recent(name, now)
            key = self._key(client)
            self._failures.setdefault(key, deque()).append(now)
