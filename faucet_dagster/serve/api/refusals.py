"""Bounded auditing of refused requests (401/403).

A scanner without a token must not grow the audit log one row per request. Refusals are
grouped by (client address, actor, action, status): the first refusal of a group is
written as its own entry; repeats within :data:`WINDOW_SECONDS` of it are only counted,
and the count is written as one summary entry once the window has passed (at the next
refusal of any client after it, or when the server stops). So a group writes at most two
entries a minute. Past :data:`MAX_GROUPS` open groups, new clients are counted together
under the client ``*``, so memory stays bounded too.
"""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_GROUPS", "WINDOW_SECONDS", "RefusalGroup", "RefusalLimiter", "Repeats"]

WINDOW_SECONDS = 60.0
MAX_GROUPS = 10_000
OVERFLOW_CLIENT = "*"


@dataclass(frozen=True)
class RefusalGroup:
    """What makes two refusals repeats of each other."""

    client: str
    actor: str
    role: str
    action: str
    status: int


@dataclass(frozen=True)
class Repeats:
    """The refusals of one group counted, not written, in one window."""

    group: RefusalGroup
    count: int
    first: float  # epoch seconds of the group's first refusal (the one written)
    last: float  # epoch seconds of the last repeat

    def detail(self) -> dict[str, Any]:
        def iso(t: float) -> str:
            return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

        return {
            "client": self.group.client,
            "repeats": self.count,
            "since": iso(self.first),
            "until": iso(self.last),
        }


@dataclass
class _Open:
    start: float
    last: float
    count: int = 0


class RefusalLimiter:
    """Decides which refusals to write; thread-safe."""

    def __init__(self, window: float = WINDOW_SECONDS, max_groups: int = MAX_GROUPS) -> None:
        self.window = window
        self.max_groups = max_groups
        self._open: dict[RefusalGroup, _Open] = {}
        self._lock = threading.Lock()

    def note(self, group: RefusalGroup, now: float) -> tuple[bool, RefusalGroup]:
        """Count one refusal at ``now``: (write it as its own entry?, the group it joined)."""
        with self._lock:
            if group not in self._open and len(self._open) >= self.max_groups:
                group = RefusalGroup(
                    OVERFLOW_CLIENT, group.actor, group.role, group.action, group.status
                )
            found = self._open.get(group)
            if found is not None and now < found.start + self.window:
                found.count += 1
                found.last = now
                return False, group
            self._open[group] = _Open(start=now, last=now)
            return True, group

    def closed(self, now: float) -> list[Repeats]:
        """The groups whose window ended before ``now``, with their repeats (if any);
        they are forgotten."""
        with self._lock:
            done = [g for g, o in self._open.items() if now >= o.start + self.window]
            return self._pop(done)

    def drain(self) -> list[Repeats]:
        """Every open group's repeats (when the server stops)."""
        with self._lock:
            return self._pop(list(self._open))

    def _pop(self, groups: list[RefusalGroup]) -> list[Repeats]:
        out = []
        for group in groups:
            found = self._open.pop(group)
            if found.count:
                out.append(Repeats(group, found.count, found.start, found.last))
        return out
