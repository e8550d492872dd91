"""Weekly seasonality: judge a series against the same weekday when its history shows
a weekly pattern.

A daily table's volume, mix and delays often follow the week: Saturdays 25 % lighter,
weekend riders twice the weekday's. Judged against the mean of every baseline run, a
normal Saturday sits far below it. With the runs' recorded times, each series metric
is tested for a weekday effect (a one-way analysis of variance on the judged scale);
only when the weekday explains the series beyond chance (F test, p < 0.001, with at
least two baseline runs of the current run's weekday and two full weeks of runs) is
the run judged against its own weekday's mean, with the spread of the runs around
their weekdays' means, widened for the fewer degrees of freedom and the fewer runs
behind one weekday's mean. No knob: the history decides.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass

from faucet_core.drift.stats import f_sf, student_t_quantile
from faucet_core.errors import ConfigError

__all__ = ["WEEKLY_MIN_RUNS", "WEEKLY_P", "Weekdays", "run_times", "same_weekday", "weekday_of"]


def run_times(
    current: dt.datetime | None, baseline: Sequence[dt.datetime] | None, runs: int
) -> tuple[dt.datetime, list[dt.datetime]] | None:
    """The recorded times, checked: both or neither, one per baseline run."""
    if current is None and baseline is None:
        return None
    if current is None or baseline is None:
        raise ConfigError(
            "detect_drift: current_time and baseline_times go together; "
            "pass both (the runs' recorded times) or neither"
        )
    times = list(baseline)
    if len(times) != runs:
        raise ConfigError(
            f"detect_drift: baseline_times holds {len(times)} times for {runs} baseline "
            "runs; pass one recorded time per baseline run, oldest first"
        )
    return current, times


WEEKLY_MIN_RUNS = 14
"""Two full weeks of daily runs before a weekday effect is looked for."""
WEEKDAY_MIN_RUNS = 2
"""Baseline runs of the current run's weekday needed to estimate its mean."""
WEEKLY_P = 0.001
"""The F test's p-value below which the weekday explains the series."""


def weekday_of(time: dt.datetime) -> int:
    """Monday 0 .. Sunday 6, in UTC (a nightly job's runs keep their weekday apart)."""
    if time.tzinfo is not None:
        time = time.astimezone(dt.timezone.utc)
    return time.weekday()


@dataclass(frozen=True)
class Weekdays:
    """The weekday of the current run and of each baseline value (aligned with it)."""

    today: int
    days: tuple[int, ...]


def same_weekday(ys: Sequence[float], week: Weekdays, alpha: float) -> list[float] | None:
    """``ys`` (the baseline on the judged scale) re-centered on the current weekday,
    or None when the weekday does not explain the series.

    Each value becomes the current weekday's mean plus its residual from its own
    weekday's mean, times a factor that turns the plain prediction interval the caller
    applies (t with n - 1 degrees of freedom, sqrt(1 + 1/n)) into the one-way model's
    (t with n - k, sqrt(1 + 1/n_day)), ``alpha`` being the test's two-sided tail.
    """
    n = len(ys)
    if n < WEEKLY_MIN_RUNS or len(week.days) != n:
        return None
    groups: dict[int, list[float]] = {}
    for y, d in zip(ys, week.days, strict=True):
        groups.setdefault(d, []).append(y)
    k = len(groups)
    n_day = len(groups.get(week.today, ()))
    if k < 2 or n_day < WEEKDAY_MIN_RUNS or n - k < 2:
        return None
    means = {d: math.fsum(v) / len(v) for d, v in groups.items()}
    grand = math.fsum(ys) / n
    between = math.fsum(len(v) * (means[d] - grand) ** 2 for d, v in groups.items())
    within = math.fsum((y - means[d]) ** 2 for y, d in zip(ys, week.days, strict=True))
    if between <= 1e-12 * max(within, 1e-300):
        return None
    today = means[week.today]
    if within == 0.0:  # the weekday is the whole story: a constant baseline at today's
        return [today] * n
    p = f_sf((between / (k - 1)) / (within / (n - k)), k - 1, n - k)
    if p >= WEEKLY_P:
        return None
    t_ratio = student_t_quantile(alpha / 2.0, float(n - k)) / student_t_quantile(
        alpha / 2.0, float(n - 1)
    )
    widen = t_ratio * math.sqrt((n - 1) / (n - k) * (1.0 + 1.0 / n_day) / (1.0 + 1.0 / n))
    return [today + widen * (y - means[d]) for y, d in zip(ys, week.days, strict=True)]
