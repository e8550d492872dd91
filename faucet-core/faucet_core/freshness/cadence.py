"""Learning an asset's update cadence from its materialization times.

Two shapes of schedule are told apart by the median interval between updates:

- **interval** (median under 20 h: every few minutes, hourly, every 6 h): the next update
  is expected one median interval after the last, in elapsed time (a DST change does not
  move an hourly job). Once the history covers two days, the local times of day far from
  every update seen are quiet hours; once it covers two weeks, so are the weekdays (a job that
  runs hourly from 9 to 17 on weekdays is not expected at night or on Sunday).
- **calendar** (median of 20 h or more: daily, every other day, weekly): the next update
  is expected on the next day of the schedule at the learned local time of day, computed
  on the wall clock of the configured time zone (a 02:00 Europe/Berlin job is expected at
  02:00 on both sides of a DST change). For a daily schedule whose history covers two
  weeks, the weekdays that never saw an update are skipped (weekday-only jobs).

The tolerance after the expected time is the learned range of lateness: the latest
non-outlying deviation seen, four robust standard deviations (1.4826 x MAD), or a floor
of a tenth of the period (a quarter for interval cadences), whichever is largest.

Updates closer than :data:`BURST_SECONDS` apart are one update (a backfill writing many
partitions at once). For a partitioned asset, only an update that materializes a partition
newer than every earlier one counts (re-running an old partition adds no fresh data).
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from zoneinfo import ZoneInfo

from faucet_core.errors import ConfigError

__all__ = [
    "BURST_SECONDS",
    "CALENDAR_MIN_SECONDS",
    "Cadence",
    "CadenceKind",
    "Update",
    "learn_cadence",
    "update_times",
]

BURST_SECONDS = 60.0
"""Updates closer than this are one update."""
CALENDAR_MIN_SECONDS = 20 * 3600.0
"""A median interval of at least this is a calendar (daily or longer) cadence."""
_DAY = 86400.0
_DAY_MINUTES = 1440
_MAD_SD = 1.4826
_SPREADS = 4.0
"""Robust standard deviations of lateness inside the learned range."""
_OUTLIER_SPREADS = 6.0
_SLOT_SHIFT = dt.timedelta(hours=6)
"""A calendar update up to 6 h early or 18 h late belongs to that day's slot."""
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass(frozen=True)
class Update:
    """One materialization: when, and which partition (``order``: its position in the
    partitions definition, None for an unpartitioned asset or unordered partitions)."""

    at: dt.datetime
    partition: str | None = None
    order: int | None = None

    def __post_init__(self) -> None:
        if self.at.tzinfo is None or self.at.utcoffset() is None:
            raise ConfigError(
                f"update time {self.at.isoformat()} has no time zone: pass an aware datetime "
                "(e.g. datetime.fromtimestamp(ts, timezone.utc))"
            )


class CadenceKind(str, Enum):
    INTERVAL = "interval"
    CALENDAR = "calendar"


@dataclass(frozen=True)
class Cadence:
    """A learned cadence and the arithmetic of its next expected update."""

    kind: CadenceKind
    interval: float
    """Median seconds between updates (calendar: whole days, in seconds)."""
    spread: float
    """Robust standard deviation (seconds) of the intervals, or of the time of day."""
    tolerance: float
    """Seconds after the expected time before the asset is overdue."""
    timezone: str
    samples: int
    """Intervals learned from."""
    time_of_day: int = 0
    """Calendar: seconds after local midnight of the typical update."""
    weekdays: tuple[int, ...] = tuple(range(7))
    """Days (0 = Monday) updates happen on; all seven when no pattern was learned."""
    windows: tuple[tuple[int, int], ...] = ((0, _DAY_MINUTES),)
    """Interval: local minutes of the day ``[start, end)`` updates happen in (the whole day
    when no quiet hours were learned)."""

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def period_days(self) -> int:
        return round(self.interval / _DAY) if self.kind is CadenceKind.CALENDAR else 0

    def expected_after(self, last: dt.datetime) -> dt.datetime:
        """When the update after one at ``last`` is expected (UTC)."""
        if self.kind is CadenceKind.CALENDAR:
            return self._next_slot(last)
        step = dt.timedelta(seconds=self.interval)
        expected = last + step
        if self.all_day and len(self.weekdays) == 7:
            return expected.astimezone(dt.timezone.utc)
        # Skip quiet hours and days, one step at a time (at least 5 minutes a step).
        jump = max(step, dt.timedelta(minutes=5))
        for _ in range(int(8 * _DAY / jump.total_seconds()) + 1):
            if self._active(expected.astimezone(self.zone)):
                break
            expected += jump
        return expected.astimezone(dt.timezone.utc)

    @property
    def all_day(self) -> bool:
        return self.windows == ((0, _DAY_MINUTES),)

    def _active(self, local: dt.datetime) -> bool:
        if local.weekday() not in self.weekdays:
            return False
        minute = local.hour * 60 + local.minute
        return any(start <= minute < end for start, end in self.windows)

    def deadline_after(self, last: dt.datetime) -> dt.datetime:
        """When an asset last updated at ``last`` becomes overdue (UTC)."""
        return self.expected_after(last) + dt.timedelta(seconds=self.tolerance)

    def _slot(self, at: dt.datetime) -> dt.date:
        local = at.astimezone(self.zone).replace(tzinfo=None)
        return (local - dt.timedelta(seconds=self.time_of_day) + _SLOT_SHIFT).date()

    def _next_slot(self, last: dt.datetime) -> dt.datetime:
        day = self._slot(last)
        period = max(1, self.period_days)
        day += dt.timedelta(days=period)
        if period == 1:
            while day.weekday() not in self.weekdays:
                day += dt.timedelta(days=1)
        wall = dt.datetime.combine(day, dt.time()) + dt.timedelta(seconds=self.time_of_day)
        # A wall time a DST gap skips resolves to the offset before the gap (fold=0).
        return wall.replace(tzinfo=self.zone).astimezone(dt.timezone.utc)

    def describe(self) -> str:
        """``daily at 02:00 Europe/Berlin, Mon-Fri`` or ``every 1 h``."""
        if self.kind is CadenceKind.CALENDAR:
            period = self.period_days
            what = "daily" if period == 1 else ("weekly" if period == 7 else f"every {period} days")
            hh, mm = divmod(self.time_of_day // 60, 60)
            text = f"{what} at {hh:02d}:{mm:02d} {self.timezone}"
            if len(self.weekdays) < 7:
                text += ", " + _days_text(self.weekdays)
            return text
        text = f"every {duration_text(self.interval)}"
        if not self.all_day:
            text += f", {_windows_text(self.windows)} {self.timezone}"
        if len(self.weekdays) < 7:
            text += ", " + _days_text(self.weekdays)
        return text

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind.value,
            "interval_seconds": self.interval,
            "spread_seconds": round(self.spread, 3),
            "tolerance_seconds": round(self.tolerance, 3),
            "timezone": self.timezone,
            "samples": self.samples,
            "weekdays": list(self.weekdays),
        }
        if self.kind is CadenceKind.CALENDAR:
            out["time_of_day_seconds"] = self.time_of_day
        else:
            out["windows_minutes"] = [list(w) for w in self.windows]
        return out


def duration_text(seconds: float) -> str:
    """``45 s``, ``15 min``, ``1 h``, ``1 h 30 min``, ``2 d 3 h``."""
    seconds = abs(seconds)
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, mins = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h" + (f" {mins} min" if mins else "")
    days, hours = divmod(hours, 24)
    return f"{days} d" + (f" {hours} h" if hours else "")


def _days_text(days: Sequence[int]) -> str:
    return _runs_text(days, lambda d: _WEEKDAYS[d])


def _windows_text(windows: Sequence[tuple[int, int]]) -> str:
    def hhmm(minute: int) -> str:
        return f"{minute // 60 % 24:02d}:{minute % 60:02d}"

    return " and ".join(f"{hhmm(a)}-{hhmm(b)}" for a, b in windows)


def _runs_text(values: Sequence[int], name: Callable[[int], str]) -> str:
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ",".join(name(r[0]) if len(r) == 1 else f"{name(r[0])}-{name(r[-1])}" for r in runs)


def update_times(updates: Iterable[Update]) -> list[dt.datetime]:
    """The times that count as fresh updates, oldest first, bursts merged (their last)."""
    ordered = sorted(updates, key=lambda u: (u.at, u.order if u.order is not None else -1))
    mark: int | None = None
    kept: list[dt.datetime] = []
    for u in ordered:
        if u.order is not None:
            if mark is not None and u.order <= mark:
                continue  # an older (or the same) partition again: no fresh data
            mark = u.order
        at = u.at.astimezone(dt.timezone.utc)
        if kept and (at - kept[-1]).total_seconds() < BURST_SECONDS:
            kept[-1] = at
        else:
            kept.append(at)
    return kept


def _mad(values: Sequence[float], center: float) -> float:
    return _MAD_SD * statistics.median(abs(v - center) for v in values)


def _late_range(deviations: Sequence[float], spread: float) -> float:
    """The latest deviation that is not an outlier (0 when every late one is)."""
    fence = _OUTLIER_SPREADS * spread
    inside = [d for d in deviations if 0 < d <= fence]
    return max(inside, default=0.0)


def learn_cadence(
    updates: Iterable[Update], *, min_history: int = 5, timezone: str = "UTC"
) -> Cadence | None:
    """The cadence of ``updates``, or None while fewer than ``min_history`` intervals are
    known (warming up)."""
    zone = ZoneInfo(timezone)
    times = update_times(updates)
    intervals = [(b - a).total_seconds() for a, b in itertools.pairwise(times)]
    if len(intervals) < max(1, min_history):
        return None
    median = statistics.median(intervals)
    span = (times[-1] - times[0]).total_seconds()
    local = [t.astimezone(zone) for t in times]
    if median >= CALENDAR_MIN_SECONDS:
        return _calendar(local, median, span, timezone, len(intervals))
    spread = _mad(intervals, median)
    late = _late_range([i - median for i in intervals], spread)
    tolerance = max(late, _SPREADS * spread, 0.25 * median, BURST_SECONDS)
    windows: tuple[tuple[int, int], ...] = ((0, _DAY_MINUTES),)
    if span >= 2 * _DAY - 3600:
        windows = _active_windows(local, max(tolerance, median / 2))
    weekdays = _weekdays(local, span)
    return Cadence(
        kind=CadenceKind.INTERVAL,
        interval=median,
        spread=spread,
        tolerance=tolerance,
        timezone=timezone,
        samples=len(intervals),
        weekdays=weekdays,
        windows=windows,
    )


def _active_windows(local: Sequence[dt.datetime], reach: float) -> tuple[tuple[int, int], ...]:
    """The minutes of the day within ``reach`` seconds of an update seen, merged; the
    whole day when they cover it (no quiet hours)."""
    pad = math.ceil(reach / 60)
    active = [False] * _DAY_MINUTES
    for minute in {t.hour * 60 + t.minute for t in local}:
        for m in range(minute - pad, minute + pad + 1):
            active[m % _DAY_MINUTES] = True
    if all(active):
        return ((0, _DAY_MINUTES),)
    windows: list[tuple[int, int]] = []
    m = 0
    while m < _DAY_MINUTES:
        if active[m]:
            start = m
            while m < _DAY_MINUTES and active[m]:
                m += 1
            windows.append((start, m))
        else:
            m += 1
    return tuple(windows)


def _weekdays(local: Sequence[dt.datetime], span: float) -> tuple[int, ...]:
    """The weekdays seen, once the history gave every weekday two chances (14 days)."""
    if span < 14 * _DAY - 3600:
        return tuple(range(7))
    return tuple(sorted({t.weekday() for t in local}))


def _time_of_day(local: Sequence[dt.datetime]) -> int:
    """The circular median of the local times of day: cut the day at the widest gap."""
    tods = sorted(t.hour * 3600 + t.minute * 60 + t.second for t in local)
    gaps = [
        ((tods[(i + 1) % len(tods)] - tods[i]) % int(_DAY) or int(_DAY), i)
        for i in range(len(tods))
    ]
    _, cut = max(gaps)
    start = tods[(cut + 1) % len(tods)]
    unwrapped = sorted((t - start) % int(_DAY) for t in tods)
    return round(start + statistics.median(unwrapped)) % int(_DAY)


def _calendar(
    local: Sequence[dt.datetime], median: float, span: float, timezone: str, samples: int
) -> Cadence:
    tod = _time_of_day(local)
    deviations = []
    for t in local:
        d = (t.hour * 3600 + t.minute * 60 + t.second - tod) % int(_DAY)
        deviations.append(float(d - _DAY if d >= _DAY / 2 else d))
    spread = _mad(deviations, statistics.median(deviations))
    period = max(1, round(median / _DAY))
    late = _late_range(deviations, spread)
    tolerance = max(late, _SPREADS * spread, 0.1 * period * _DAY)
    draft = Cadence(
        kind=CadenceKind.CALENDAR,
        interval=period * _DAY,
        spread=spread,
        tolerance=tolerance,
        timezone=timezone,
        samples=samples,
        time_of_day=tod,
    )
    if period != 1:
        return draft
    slots = [draft._slot(t) for t in local]
    first, last = slots[0], slots[-1]
    if (last - first).days < 13:
        return draft
    weekdays = tuple(sorted({d.weekday() for d in slots}))
    if len(weekdays) == 7 or math.isnan(spread):
        return draft
    return Cadence(**{**draft.__dict__, "weekdays": weekdays})
