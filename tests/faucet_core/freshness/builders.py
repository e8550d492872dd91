"""Materialization histories at controlled times."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from zoneinfo import ZoneInfo

from faucet_core.freshness import Update

UTC = dt.timezone.utc


def daily(
    first: dt.date,
    count: int,
    *,
    at: dt.time = dt.time(2, 0),
    zone: str = "UTC",
    weekdays: Iterable[int] = range(7),
    skip: Iterable[dt.date] = (),
    late: dict[dt.date, dt.timedelta] | None = None,
) -> list[Update]:
    """``count`` updates, one a day on ``weekdays`` at local time ``at``."""
    days, skipped, late = set(weekdays), set(skip), late or {}
    out: list[Update] = []
    day = first
    while len(out) < count:
        if day.weekday() in days and day not in skipped:
            wall = dt.datetime.combine(day, at, tzinfo=ZoneInfo(zone)) + late.get(
                day, dt.timedelta()
            )
            out.append(Update(wall.astimezone(UTC)))
        day += dt.timedelta(days=1)
    return out


def every(start: dt.datetime, step: dt.timedelta, count: int) -> list[Update]:
    return [Update(start + i * step) for i in range(count)]


def utc(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)
