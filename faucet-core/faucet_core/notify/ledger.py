"""The delivery ledger: what each destination has received, kept as a JSON cursor.

Check evaluations are records with increasing ids (one id sequence for all checks). For
each destination and each check ("stream") the ledger keeps:

- ``after``: every record of the stream with an id up to here is settled (delivered, or
  nothing to deliver);
- ``done``: records above ``after`` that are fully delivered (an earlier record still
  runs, so ``after`` cannot move past it yet);
- ``at``: records partly delivered, with how many of their findings went out.

A destination also keeps ``wait_until`` (a Slack ``Retry-After`` longer than the tick)
and ``broken`` (a destination that cannot work: its configuration fingerprint, the reason,
and when to probe it again). ``start`` is the record id the ledger began after; a
destination added later has its own ``start`` (it is not sent the past). The JSON
is versioned (``v``) so a new faucet can read an old cursor::

    {"v": 1, "start": 41, "to": {"slack": {"checks": {"orders:faucet_profile":
        {"after": 57, "done": [60], "at": {"59": 12}}}, "wait_until": 1795983700.0}}}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from faucet_core.errors import NotifyError

__all__ = ["LEDGER_VERSION", "Broken", "DestinationLedger", "Ledger", "StreamProgress"]

LEDGER_VERSION = 1


@dataclass
class StreamProgress:
    """One destination's progress through one check's evaluations."""

    after: int
    done: set[int] = field(default_factory=set)
    at: dict[int, int] = field(default_factory=dict)

    def delivered(self, record_id: int) -> int | None:
        """Findings of the record already delivered; None when it is fully delivered."""
        if record_id <= self.after or record_id in self.done:
            return None
        return self.at.get(record_id, 0)

    def record(self, record_id: int, delivered: int, total: int) -> None:
        """``delivered`` of the record's ``total`` findings have now gone out."""
        if delivered >= total:
            self.done.add(record_id)
            self.at.pop(record_id, None)
        else:
            self.at[record_id] = delivered

    def settle(self, records: Iterable[tuple[int, bool]]) -> None:
        """Move ``after`` over the records, ascending ``(id, nothing_to_deliver)``, that are
        settled. ``records`` must hold every record of the stream above ``after``."""
        after = self.after
        for record_id, nothing in records:
            if record_id <= after:
                continue
            if not (nothing or record_id in self.done):
                break
            after = record_id
        self.after = after
        self.done = {d for d in self.done if d > after}
        self.at = {k: v for k, v in self.at.items() if k > after}

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"after": self.after}
        if self.done:
            data["done"] = sorted(self.done)
        if self.at:
            data["at"] = {str(k): v for k, v in sorted(self.at.items())}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StreamProgress:
        return cls(
            after=int(data["after"]),
            done={int(d) for d in data.get("done", ())},
            at={int(k): int(v) for k, v in dict(data.get("at", {})).items()},
        )


@dataclass
class Broken:
    """A destination that cannot work as configured (``fingerprint``) and why."""

    fingerprint: str
    reason: str
    since: float
    probe_at: float

    def to_json(self) -> dict[str, Any]:
        return {
            "fp": self.fingerprint,
            "reason": self.reason,
            "since": self.since,
            "probe_at": self.probe_at,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Broken:
        return cls(
            fingerprint=str(data["fp"]),
            reason=str(data["reason"]),
            since=float(data["since"]),
            probe_at=float(data["probe_at"]),
        )


@dataclass
class DestinationLedger:
    """One destination's streams and state."""

    streams: dict[str, StreamProgress] = field(default_factory=dict)
    broken: Broken | None = None
    wait_until: float | None = None
    start: int | None = None
    """Where a destination added after the ledger began starts (None: the ledger's start)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"checks": {k: s.to_json() for k, s in sorted(self.streams.items())}}
        if self.start is not None:
            data["start"] = self.start
        if self.broken is not None:
            data["broken"] = self.broken.to_json()
        if self.wait_until is not None:
            data["wait_until"] = self.wait_until
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DestinationLedger:
        broken = data.get("broken")
        wait = data.get("wait_until")
        start = data.get("start")
        return cls(
            streams={str(k): StreamProgress.from_json(v) for k, v in dict(data["checks"]).items()},
            broken=None if broken is None else Broken.from_json(broken),
            wait_until=None if wait is None else float(wait),
            start=None if start is None else int(start),
        )


@dataclass
class Ledger:
    """Every destination's progress; :meth:`dumps` / :meth:`loads` are the cursor string."""

    start: int | None = None
    destinations: dict[str, DestinationLedger] = field(default_factory=dict)

    def destination(self, name: str) -> DestinationLedger:
        return self.destinations.setdefault(name, DestinationLedger())

    def _start_of(self, destination: DestinationLedger) -> int:
        if destination.start is not None:
            return destination.start
        if self.start is None:
            raise NotifyError("the ledger has no start yet: set Ledger.start first")
        return self.start

    def stream(self, destination: str, stream: str) -> StreamProgress:
        """The progress of ``destination`` through ``stream`` (new streams begin at the
        destination's start)."""
        state = self.destination(destination)
        if stream not in state.streams:
            state.streams[stream] = StreamProgress(after=self._start_of(state))
        return state.streams[stream]

    def after(self, destination: str, stream: str) -> int:
        """Where ``destination`` stands in ``stream``, without creating anything."""
        state = self.destinations.get(destination, DestinationLedger())
        progress = state.streams.get(stream)
        return progress.after if progress is not None else self._start_of(state)

    def dumps(self) -> str:
        data: dict[str, Any] = {"v": LEDGER_VERSION, "start": self.start}
        data["to"] = {k: d.to_json() for k, d in sorted(self.destinations.items())}
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    @classmethod
    def loads(cls, text: str | None) -> Ledger:
        """The ledger a cursor holds; an empty cursor is a new ledger."""
        if not text:
            return cls()
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or "v" not in data:
                raise ValueError("not a faucet notification cursor")
            if data["v"] != LEDGER_VERSION:
                raise ValueError(
                    f"cursor version {data['v']!r}; this faucet reads version {LEDGER_VERSION}"
                )
            start = data.get("start")
            return cls(
                start=None if start is None else int(start),
                destinations={
                    str(k): DestinationLedger.from_json(v) for k, v in dict(data["to"]).items()
                },
            )
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise NotifyError(
                f"the sensor cursor is not a readable faucet delivery ledger ({exc}): if it was "
                "edited by hand, restore it, or clear it to notify evaluations from now on"
            ) from None
