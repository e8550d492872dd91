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
from collections.abc import Sequence

from faucet_core.errors import ConfigError

__all__ = ["run_times"]


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
