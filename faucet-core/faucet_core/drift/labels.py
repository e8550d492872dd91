"""Run labels: columns that hold one value per run (its date, day, month, season, year).

A table loaded once a day often carries the day itself: ``year``, ``month``, ``day``,
``season``, a month name. Every row of a run holds the same value, and the value moves
with the run by design: judged by its level, the first run of a new month is a 100 %
new value and a change of a constant column; the day of the month is new every run.

A column is a run label when it holds exactly one distinct non-null value in the
current run and in every baseline run (recognised from the history, no setting), and at
least ``min_history`` of those runs held two records or more: in a table of one row a
day every column holds one value per run, and only a column whose values name the
runs' own dates (:func:`names_run_date`) is a label there. Its
level is not judged (no mean / min / max / string_length / distinct / new_value /
vanished_value / psi); its *step* is:

* a value no baseline run held is a new period: normal (the next month, the next day,
  day 1 after day 31), except a forward **jump** of a numeric label that advanced on
  every baseline run, by more than twice the largest step it took (day 12 after day 7);
  with the runs' times, a step no larger than twice the label's pace times the time
  since the last run is no jump (day 10 after day 7, three days later). A date written
  as a number (``20240501`` after ``20240430``) steps by days, not by its digits;
* a label that held the same value in every baseline run is a constant, not yet seen to
  move: a new value is a **switch**, reported as a new value, unless it reads as the next
  period (a number one above the last, or back to 0 or 1 as a month or hour wraps; a
  later ISO date or time; a month, weekday or season name after another). A tag going
  from ``web`` to ``app`` for good is reported; ``month`` going from 3 to 4 is not;
* the value of the last run again is normal (a month lasts many days), except when the
  label took a new value on every baseline run: it **stopped advancing**;
* a smaller value that an earlier run held, for a numeric label that took a new value
  on every baseline run and never revisited one, is a label **going back** (an old
  partition loaded again); labels that revisit values (a weekday, a working-day or
  holiday flag) or change only now and then (a month) may return.

Its null rate and type mix are judged as for any column.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from faucet_core.drift.messages import fmt_value
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.profile.model import ColumnProfile

__all__ = ["JUMP_FACTOR", "label_finding", "label_value", "names_run_date", "run_label_findings"]

JUMP_FACTOR = 2.0
"""A forward step more than this multiple of the largest baseline step is a jump."""


def label_value(column: ColumnProfile) -> Any | None:
    """The column's one value in this run, or None when it holds more (or none we can
    see: no listed values and not numeric)."""
    if column.distinct != 1 or column.row_count <= column.null_count:
        return None
    numbers = set(column.types) - {"null"} <= {"integer", "number"}
    if column.numeric is not None and column.numeric.min == column.numeric.max and numbers:
        value = float(column.numeric.min)
        return int(value) if value.is_integer() else value
    top = column.top_values
    if top and len(top) == 1 and not column.classified:
        return top[0].value
    return None


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True) if not isinstance(value, float) else repr(value)


def label_finding(
    name: str,
    current: Any,
    before: Sequence[Any],
    min_history: int,
    clock: tuple[dt.datetime, Sequence[dt.datetime]] | None = None,
) -> DriftFinding | None:
    """The finding on a run label's step, or None (see the module docstring); ``clock``
    the current run's time and each baseline run's, when known."""
    if clock is not None and names_run_date(current, before, clock):
        return None
    keys = [_key(v) for v in before]
    now = _key(current)
    changes = sum(1 for a, b in pairwise(keys) if a != b)
    every_run = changes == len(keys) - 1 and changes >= min_history - 1
    numeric = isinstance(current, (int, float)) and all(isinstance(v, (int, float)) for v in before)
    if now == keys[-1]:
        if every_run:
            return _finding(
                name,
                current,
                before,
                f"{name}.mean: label {fmt_value(current)} repeats the last run's; it took a "
                f"new value in each of the {len(before)} baseline runs (stopped advancing)",
                step=0.0,
            )
        return None
    if now in keys:
        backward = numeric and float(current) < float(before[-1])
        if not (every_run and backward) or _revisits(keys):
            return None
        return _finding(
            name,
            current,
            before,
            f"{name}.mean: label {fmt_value(current)} goes back to an earlier run's value; "
            f"the {len(before)} baseline runs never did",
            step=0.0,
        )
    if changes == 0 and len(keys) >= min_history and not _next_period(current, before[-1]):
        return _finding(
            name,
            current,
            before,
            f"{name}.new_value: value {fmt_value(current)} replaces {fmt_value(before[-1])}, "
            f"the one value of all {len(before)} baseline runs",
            step=0.0,
            as_new_value=True,
        )
    if not (numeric and every_run):
        return None
    # a date written as a number (20240131) steps by days, not by its digits: 0501 after 0430
    days = _date_numbers([*before, current])
    *points, this = [float(v) for v in [*before, current]] if days is None else days
    steps = [b - a for a, b in pairwise(points) if b > a]
    step = this - points[-1]
    largest = max(steps, default=0.0)
    unit = "" if days is None else " days"
    if clock is not None and _kept_pace(step, points, clock):
        return None
    if step > 0 and largest > 0 and step > JUMP_FACTOR * largest:
        return _finding(
            name,
            current,
            before,
            f"{name}.mean: label {fmt_value(current)} jumps {_shown(step, unit)} from the "
            f"last run's {fmt_value(before[-1])}; the baseline's steps were at most "
            f"{_shown(largest, unit)}",
            step=step,
        )
    return None


_CALENDAR_FIELDS: tuple[Callable[[dt.datetime], int], ...] = (
    lambda t: t.day,
    lambda t: t.month,
    lambda t: t.year,
    lambda t: t.timetuple().tm_yday,
    lambda t: t.weekday(),
    lambda t: t.isoweekday(),
    lambda t: t.year * 10_000 + t.month * 100 + t.day,
    lambda t: t.year * 100 + t.month,
)
"""Day of month, month, year, day of year, weekday (0-6 and 1-7) of a run's date, and the
date and month written as numbers (20240131, 202401), as warehouses' date keys are."""


def _shown(step: float, unit: str) -> str:
    """A step as the message shows it: whole days when the label is a date."""
    return f"{int(step)}{unit}" if unit else fmt_value(step)


def _date_numbers(values: Sequence[Any]) -> list[float] | None:
    """Each value as a day number (its date's ordinal) when every one is a date written
    as a number, yyyymmdd (20240131), else None."""
    days = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 10_000_101 <= v <= 99_991_231:
            return None
        try:
            days.append(float(dt.date(v // 10_000, v // 100 % 100, v % 100).toordinal()))
        except ValueError:
            return None
    return days


_DAY_OFFSETS = (1, 0, 2, -1)
"""Days between a run's recorded time and the date its label names (a nightly job
records yesterday's data), tried in this order."""


def names_run_date(
    current: Any, before: Sequence[Any], clock: tuple[dt.datetime, Sequence[dt.datetime]]
) -> bool:
    """The label names a field of the run's own date: in every baseline run it equals
    one calendar field of the run's recorded time (UTC) less a fixed number of days, and
    so does the current run's. Such a label repeats or goes back as the calendar does (a
    day of the month repeats a month later; runs that skip days skip its values), and
    matching its runs' times is the one step it should take; a reloaded old partition
    breaks the match and is judged by its step as before."""
    now, times = clock
    values = [*before, current]
    if len(times) != len(before) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        return False
    stamps = [t.astimezone(dt.timezone.utc) if t.tzinfo is not None else t for t in [*times, now]]
    for offset in _DAY_OFFSETS:
        dates = [t - dt.timedelta(days=offset) for t in stamps]
        for field in _CALENDAR_FIELDS:
            if all(field(d) == v for d, v in zip(dates, values, strict=True)):
                return True
    return False


def _kept_pace(
    step: float, before: Sequence[float], clock: tuple[dt.datetime, Sequence[dt.datetime]]
) -> bool:
    """A label that moved as far as the time since the last run: runs three days apart
    (two days without a load) advance a day label by three. The label's pace is its
    largest step per elapsed second over the baseline's consecutive runs."""
    now, times = clock
    if len(times) != len(before) or len(times) < 2:
        return False
    paces = []
    for (a, ta), (b, tb) in pairwise(zip(before, times, strict=True)):
        seconds = (tb - ta).total_seconds()
        if seconds > 0 and float(b) > float(a):
            paces.append((float(b) - float(a)) / seconds)
    elapsed = (now - times[-1]).total_seconds()
    if not paces or elapsed <= 0:
        return False
    return 0 < step <= JUMP_FACTOR * max(paces) * elapsed


_CALENDAR_NAMES = tuple(
    name.lower()
    for name in (
        *calendar.month_name[1:],
        *calendar.day_name,
        "spring",
        "summer",
        "autumn",
        "fall",
        "winter",
    )
)


def _calendar_word(text: str) -> bool:
    """A month, weekday or season name, or a prefix of one of three letters or more
    (``Sep``, ``Sept``, ``Thurs``)."""
    word = text.strip().lower().rstrip(".")
    return len(word) >= 3 and any(name.startswith(word) for name in _CALENDAR_NAMES)


def _next_period(current: Any, last: Any) -> bool:
    """Whether a constant label's new value reads as the next period, not a switch."""
    if isinstance(current, bool) or isinstance(last, bool):
        return False
    if isinstance(current, (int, float)) and isinstance(last, (int, float)):
        return current == last + 1 or (current in (0, 1) and current < last)
    if isinstance(current, str) and isinstance(last, str):
        if _calendar_word(current) and _calendar_word(last):
            return True
        then, now = _instant(last), _instant(current)
        return then is not None and now is not None and now > then
    return False


def _instant(text: str) -> dt.datetime | None:
    """An ISO date or date-time, as a naive UTC-less instant, or None."""
    try:
        value = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return value.replace(tzinfo=None)


def _revisits(keys: Sequence[str]) -> bool:
    """True when a value comes back after another one in between."""
    closed: set[str] = set()
    for a, b in pairwise(keys):
        if a != b:
            closed.add(a)
            if b in closed:
                return True
    return False


def _finding(
    name: str,
    current: Any,
    before: Sequence[Any],
    message: str,
    step: float,
    *,
    as_new_value: bool = False,
) -> DriftFinding:
    numeric = (
        isinstance(current, (int, float)) and not isinstance(current, bool) and not as_new_value
    )
    last = before[-1]
    return DriftFinding(
        column=name,
        metric=DriftMetric.MEAN if numeric else DriftMetric.NEW_VALUE,
        message=message if numeric else message.replace(f"{name}.mean:", f"{name}.new_value:"),
        value=float(current) if numeric else 1.0,
        baseline_center=float(last) if isinstance(last, (int, float)) else 0.0,
        baseline_spread=0.0,
        score=step,
        threshold=0.0,
        test=DriftTest.FLOOR if numeric else DriftTest.SHARE,
        baseline_runs=len(before),
        statistic="label",
        value_key=None if numeric else current,
        share=None if numeric else 1.0,
        baseline_share=None if numeric else 0.0,
    )


def run_label_findings(
    name: str,
    column: ColumnProfile,
    past: Sequence[ColumnProfile],
    min_history: int,
    clock: tuple[dt.datetime, Sequence[dt.datetime]] | None = None,
) -> list[DriftFinding] | None:
    """The findings of a run label (one value per run, see
    :mod:`faucet_core.drift.labels`), or None when the column is not one."""
    now = label_value(column)
    if now is None:
        return None
    before = [label_value(c) for c in past]
    if any(v is None for v in before):
        return None
    several = sum(1 for c in (*past, column) if c.row_count - c.null_count >= 2)
    if several < min_history:
        # one value per run is no evidence of a label when runs hold one record each (a
        # daily aggregate's every column does): a measurement is judged as one, unless
        # its values name the runs' own dates
        if clock is not None and names_run_date(now, before, clock):
            return []
        return None
    found = label_finding(name, now, before, min_history, clock)
    return [] if found is None else [found]
