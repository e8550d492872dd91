"""A column's listed top values, keyed for comparison across runs, and what they say
about the column: is it a calendar column, do its frequent values churn?"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from faucet_core.profile.model import ColumnProfile, TopValue

__all__ = [
    "CHURN_MIN_EVENTS",
    "CHURN_RATE",
    "EDGE_MARGIN",
    "ValueKey",
    "ValueList",
    "calendar_format",
    "calendar_formats",
    "churn_events",
    "is_calendar",
    "is_churning",
    "is_measurement",
    "new_share_needed",
    "value_key",
    "value_list",
    "value_lists",
]

EDGE_MARGIN = 2.0
"""A value absent from a full top-k list may have sat just below its cut-off: a value
counts as new only at this multiple of a baseline list's cut-off, and as vanished only
when it held this multiple of every list's cut-off."""
CHURN_RATE = 0.2
CHURN_MIN_EVENTS = 2
"""A column whose frequent values turn over (a new frequent value in at least this share
of the baseline's runs, and at least this many times) is not a stable category."""

_TIME = r"([T ]\d{1,2}(:\d{2}(:\d{2}(\.\d+)?)?)?(\s?[AaPp]\.?[Mm]\.?)?(Z|[+-]\d{2}(:?\d{2})?)?)?"
_CALENDAR_FORMATS = (
    ("iso", re.compile(r"^\d{4}-\d{2}(-\d{2})?" + _TIME + "$")),
    ("year/month/day", re.compile(r"^\d{4}/\d{1,2}/\d{1,2}" + _TIME + "$")),
    ("month/day/year", re.compile(r"^\d{1,2}/\d{1,2}/\d{2}(\d{2})?" + _TIME + "$")),
    ("day.month.year", re.compile(r"^\d{1,2}\.\d{1,2}\.\d{2}(\d{2})?" + _TIME + "$")),
)
"""Date and timestamp text as files write it: ISO 8601, and the slashed and dotted forms
of spreadsheets and exports (10/3/2016 0:00, 03.10.2016), each with an optional time."""


def calendar_format(value: Any) -> str | None:
    """The name of the date format ``value`` is written in (see
    :data:`_CALENDAR_FORMATS`), or None for anything else."""
    if not isinstance(value, str) or not value[:1].isdigit():
        return None
    return next((name for name, pattern in _CALENDAR_FORMATS if pattern.match(value)), None)


@dataclass(frozen=True)
class ValueList:
    """One run's listed values of one column."""

    top: tuple[TopValue, ...]
    keys: list[ValueKey]
    """The value key (see :func:`value_key`) of each listed value, in list order."""
    shares: dict[ValueKey, float]
    """Value key -> the value's share of the run's records."""
    rows: int
    non_null: int
    truncated: bool
    """The list holds top_values entries, so unlisted values may exist."""
    cutoff: float
    """The share below which an unlisted value may sit (0 for a complete list)."""

    def value(self, key: ValueKey) -> Any:
        """The JSON value listed under ``key``."""
        return self.top[self.keys.index(key)].value

    def non_null_share(self, key: ValueKey) -> float:
        """The value's share of the run's non-null records (0 if not listed)."""
        return self.shares.get(key, 0.0) * self.rows / self.non_null if self.non_null else 0.0


ValueKey = Hashable
_SCALARS = frozenset({int, float, bool, type(None)})
"""Non-string scalars: keyed with their type, so 1, 1.0 and true stay apart (strings are
their own key; no tuple equals a string)."""


def value_key(value: Any) -> ValueKey:
    """A key equal for equal JSON values: 1, 1.0 and true stay apart."""
    if type(value) is str:
        return value
    if type(value) in _SCALARS:
        return (type(value), value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def value_list(column: ColumnProfile, top_values: int) -> ValueList | None:
    """The listed values of ``column``, or None if it lists none (high-cardinality,
    classified, or top_values disabled)."""
    if column.top_values is None or column.classified or column.high_cardinality:
        return None
    top = column.top_values
    keys = [t.value if type(t.value) is str else value_key(t.value) for t in top]
    shares = [t.share for t in top]
    truncated = 0 < top_values <= len(top)
    return ValueList(
        top=top,
        keys=keys,
        shares=dict(zip(keys, shares, strict=True)),
        rows=column.row_count,
        non_null=column.row_count - column.null_count,
        truncated=truncated,
        cutoff=min(shares) if truncated and shares else 0.0,
    )


def value_lists(
    current: tuple[ColumnProfile, int], past: Sequence[tuple[ColumnProfile, int]]
) -> tuple[ValueList, list[ValueList]] | None:
    """The value lists of the current run and of every baseline run, each given as
    (column, the run's top_values setting); None when any of them lists no values or a
    run classified the column."""
    if current[0].classified or any(c.classified for c, _ in past):
        return None
    now = value_list(*current)
    if now is None:
        return None
    lists = [value_list(c, k) for c, k in past]
    if any(lst is None for lst in lists):
        return None
    return now, [lst for lst in lists if lst is not None]


def is_calendar(lists: Sequence[ValueList]) -> bool:
    """True when most of the values listed (by share) in these runs are dates or
    timestamps (:func:`calendar_format`): a calendar column moves forward by design."""
    dated = total = 0.0
    for lst in lists:
        for top in lst.top:
            total += top.share
            if calendar_format(top.value) is not None:
                dated += top.share
    return total > 0 and dated >= 0.5 * total


def calendar_formats(lst: ValueList) -> frozenset[str]:
    """The date formats a run's listed values are written in."""
    return frozenset(f for f in (calendar_format(t.value) for t in lst.top) if f is not None)


def new_share_needed(min_share: float, earlier: Sequence[ValueList]) -> float:
    """The share a never-listed value must reach to count as new against ``earlier``."""
    edge = max((lst.cutoff for lst in earlier), default=0.0)
    return max(min_share, EDGE_MARGIN * edge)


def churn_events(lists: Sequence[ValueList], min_share: float) -> int:
    """How many baseline runs brought a frequent value no earlier baseline run listed."""
    events = 0
    seen: set[ValueKey] = set()
    edge = 0.0
    for index, lst in enumerate(lists):
        if index:
            needed = max(min_share, EDGE_MARGIN * edge)
            if any(k not in seen and s >= needed for k, s in lst.shares.items()):
                events += 1
        seen.update(lst.shares)
        edge = max(edge, lst.cutoff)
    return events


def is_churning(lists: Sequence[ValueList], min_share: float) -> bool:
    """The baseline's frequent values turn over: not a stable category."""
    events = churn_events(lists, min_share)
    return events >= CHURN_MIN_EVENTS and events >= CHURN_RATE * (len(lists) - 1)


MEASURE_TURNOVER = 2.0
"""A numeric column whose baseline lists, together, hold this many times the values of
one list is a measurement (temperatures, counts of riders), not a code."""


def is_measurement(lists: Sequence[ValueList]) -> bool:
    """Numbers that are readings, not codes: fractional values (temperatures, wind
    speeds), or integers whose listed values turn over from run to run (a small table's
    counts of riders repeat by chance); a repeated reading is no new category. Integer
    codes (HTTP statuses, ratings) list the same few values in every run."""
    if not lists:
        return False
    numeric = all(
        not isinstance(t.value, (str, bool)) and isinstance(t.value, (int, float))
        for lst in lists
        for t in lst.top
    )
    if not numeric:
        return False
    if any(
        isinstance(t.value, float) and not t.value.is_integer() for lst in lists for t in lst.top
    ):
        return True  # fractional readings are measurements, never codes
    union: set[ValueKey] = set()
    for lst in lists:
        union.update(lst.keys)
    per_list = sum(len(lst.keys) for lst in lists) / len(lists)
    return per_list > 0 and len(union) >= MEASURE_TURNOVER * per_list
