"""What a watcher told where to look catches: a reference for each fault's recall.

A detector judges every column and statistic of a run and must hold its false alarms
across all of them. The watcher here is given far more: the fault's column, the one
statistic the fault moves and its direction, and a threshold calibrated on the table's
own quiet judged days (their 99th percentile, so it alarms on 1 quiet day in 100 with
the whole budget spent on that one test). It catches a trial when the edited run's
score is above that threshold. A trial it misses is one that quiet days of that table
already match on the very statistic the fault moves. It is a reference, not a bound:
faucet can catch what it misses where faucet's sampling model or another statistic
(a type, an extreme) knows more than the watcher's one score.

The score of a run, against the same baseline window the detector uses (larger: more
like the fault); a share is measured in its binomial standard errors for the run's
records on the arcsine scale, 2 sqrt(n) (asin sqrt p - asin sqrt p0):

* ``null_40``: the numeric column's null share against the window's pooled one;
* ``x100`` / ``div1000``: log of the run's mean absolute value of the numeric column
  over the window's median of it (up for x100, down for div1000);
* ``shift_3sigma`` / ``shift_3sd_values``: the run's mean of the numeric column less the
  window's median of daily means, in the window's standard deviation of daily means
  (at least 1 % of the center's size, as the fault's own floor);
* ``new_category``: the largest share of a categorical value no window run held,
  against 0;
* ``vanished_category``: the window's second most common value (pooled counts, ties by
  value as the fault breaks them): its pooled share against the run's;
* ``text_in_numeric``: 1 when the numeric column arrives as text, else 0;
* ``row_loss_40``: minus the log of the run's rows over the median of the window's
  runs on its weekday (all window runs when fewer than two share it);
* ``empty_run``: minus the run's rows.
"""

from __future__ import annotations

import datetime as dt
import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc
from lookalikes import value_counts

__all__ = ["WATCHER_QUANTILE", "DayStats", "day_stats", "fault_score", "thresholds"]

WATCHER_QUANTILE = 0.99
"""The watcher alarms above this quantile of the table's quiet-day scores."""


@dataclass(frozen=True)
class DayStats:
    """What the scores read from one run's table."""

    day: dt.date
    rows: int
    null_share: float | None
    mean_abs: float | None
    mean: float | None
    not_number: float | None
    values: Counter[str] | None


def _parse(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """A numeric column edited into text: its numbers, the rest null."""
    values = []
    for v in column.to_pylist():
        try:
            values.append(None if v is None else float(v))
        except ValueError:
            values.append(None)
    return pa.chunked_array([pa.array(values, pa.float64())])


def day_stats(
    day: dt.date, table: pa.Table, numeric: str | None, categorical: str | None
) -> DayStats:
    null_share = mean_abs = mean = not_number = None
    if numeric is not None and table.num_rows:
        raw = table[numeric]
        text = pa.types.is_string(raw.type) or pa.types.is_large_string(raw.type)
        nums = _parse(raw) if text else pc.cast(raw, pa.float64())
        null_share = raw.null_count / table.num_rows
        not_number = 1.0 if text and len(raw) > raw.null_count else 0.0
        finite = nums.drop_null()
        if len(finite):
            mean_abs = pc.mean(pc.abs(finite)).as_py()
            mean = pc.mean(finite).as_py()
    values = value_counts(table, categorical) if categorical is not None else None
    return DayStats(day, table.num_rows, null_share, mean_abs, mean, not_number, values)


def _median(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None and math.isfinite(v)]
    return statistics.median(present) if present else None


def _log_ratio(now: float | None, before: float | None) -> float | None:
    if now is None or before is None or now <= 0 or before <= 0:
        return None
    return math.log(now / before)


def _shift(now: DayStats, window: Sequence[DayStats]) -> float | None:
    means = [w.mean for w in window if w.mean is not None]
    if now.mean is None or not means:
        return None
    center = statistics.median(means)
    sd = statistics.stdev(means) if len(means) > 1 else 0.0
    scale = max(sd, 0.01 * abs(center)) or 1.0
    return (now.mean - center) / scale


def _apart(share: float, baseline: float, rows: int) -> float:
    """How far a share of ``rows`` records sits above ``baseline``, in its binomial
    standard errors on the arcsine scale (2 sqrt(n) (asin sqrt p - asin sqrt p0))."""
    now = math.asin(math.sqrt(min(max(share, 0.0), 1.0)))
    before = math.asin(math.sqrt(min(max(baseline, 0.0), 1.0)))
    return 2.0 * math.sqrt(rows) * (now - before)


def _new(now: DayStats, window: Sequence[DayStats]) -> float | None:
    if now.values is None or now.rows == 0:
        return None
    seen: set[str] = set()
    for w in window:
        seen.update(w.values or ())
    top = max((n / now.rows for v, n in now.values.items() if v not in seen), default=0.0)
    return _apart(top, 0.0, now.rows)


def _vanished(now: DayStats, window: Sequence[DayStats]) -> float | None:
    if now.values is None or now.rows == 0:
        return None
    pooled: Counter[str] = Counter()
    for w in window:
        pooled.update(w.values or Counter())
    # the same tie-break as the fault (corpusfaults._top_two): count, then value
    ranked = sorted(pooled.items(), key=lambda p: (-p[1], p[0]))
    if len(ranked) < 2:
        return None
    second, count = ranked[1]
    before = count / max(sum(w.rows for w in window), 1)
    return _apart(before, now.values.get(second, 0) / now.rows, now.rows)


def _rows(now: DayStats, window: Sequence[DayStats]) -> float | None:
    same = [w.rows for w in window if w.day.weekday() == now.day.weekday()]
    rows = same if len(same) >= 2 else [w.rows for w in window]
    median = statistics.median(rows) if rows else 0
    if median <= 0:
        return None
    return -math.log(max(now.rows, 0.5) / median)


def _null(now: DayStats, window: Sequence[DayStats]) -> float | None:
    shares = [(w.null_share, w.rows) for w in window if w.null_share is not None]
    if now.null_share is None or not shares:
        return None
    before = math.fsum(s * n for s, n in shares) / max(sum(n for _, n in shares), 1)
    return _apart(now.null_share, before, now.rows)


def _scale(sign: float) -> Callable[[DayStats, Sequence[DayStats]], float | None]:
    def score(now: DayStats, window: Sequence[DayStats]) -> float | None:
        ratio = _log_ratio(now.mean_abs, _median([w.mean_abs for w in window]))
        return None if ratio is None else sign * ratio

    return score


_SCORES: dict[str, Callable[[DayStats, Sequence[DayStats]], float | None]] = {
    "null_40": _null,
    "x100": _scale(1.0),
    "div1000": _scale(-1.0),
    "new_category": _new,
    "vanished_category": _vanished,
    "text_in_numeric": lambda now, window: now.not_number,
    "shift_3sigma": _shift,
    "shift_3sd_values": _shift,
    "row_loss_40": _rows,
    "empty_run": lambda now, window: float(-now.rows),
}


def fault_score(fault: str, now: DayStats, window: Sequence[DayStats]) -> float | None:
    """The run's score for ``fault`` against ``window`` (None: the score is undefined,
    e.g. no numeric value that day)."""
    return _SCORES[fault](now, window)


def thresholds(
    stats: Sequence[DayStats],
    quiet: Sequence[int],
    *,
    window: int,
) -> dict[str, float]:
    """fault -> the :data:`WATCHER_QUANTILE` of the quiet judged days' scores (indexes
    ``quiet`` into ``stats``); a fault without a score on any quiet day is left out."""
    found: dict[str, float] = {}
    for fault in _SCORES:
        scores = sorted(
            s
            for i in quiet
            if (s := fault_score(fault, stats[i], stats[max(0, i - window) : i])) is not None
        )
        if scores:
            # the smallest score that at most 1 % of the quiet days exceed
            k = min(len(scores) - 1, math.ceil(WATCHER_QUANTILE * len(scores)) - 1)
            found[fault] = scores[k]
    return found
