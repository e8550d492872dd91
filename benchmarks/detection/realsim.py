"""Replay a real daily table one run per day and judge every run from day ``min_history``.

As the store keeps it under ``on_drift: warn`` (the default): every run joins the
baseline, the newest ``window`` runs are used. A run is recorded at 02:00 UTC the day
after its data's date (a nightly job), and those times go to ``detect_drift`` as the
store passes its runs' ``recorded_at``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

from literal import literal_detect
from realdata import load
from simulate import IQR, ZSCORE, Finding

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import DriftFinding, detect_drift

DETECTORS = ("faucet zscore", "faucet iqr", "literal zscore")


@dataclass
class RealResult:
    name: str
    source: str
    date_columns: frozenset[str]
    events: dict[dt.date, tuple[str, bool]]
    runs: dict[str, list[tuple[dt.date, list[Finding]]]] = field(default_factory=dict)
    messages: dict[dt.date, list[str]] = field(default_factory=dict)
    """faucet zscore's messages on every judged day."""
    rows: int = 0


def recorded_at(day: dt.date) -> dt.datetime:
    """A nightly job: 02:00 UTC the day after the data's date."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(2, 0), dt.timezone.utc)


def _faucet(
    config: ProfilingConfig,
    current: TableProfile,
    baseline: Sequence[TableProfile],
    now: dt.datetime,
    times: Sequence[dt.datetime],
) -> list[DriftFinding]:
    return detect_drift(current, baseline, config, current_time=now, baseline_times=times)


def replay(name: str) -> RealResult:
    table = load(name)
    result = RealResult(
        table.name,
        table.source,
        table.date_columns,
        {d: (e.reason, e.severe) for d, e in table.events.items()},
    )
    dates = [d for d, _ in table.days]
    profiles = [profile(t) for _, t in table.days]
    result.rows = sum(t.num_rows for _, t in table.days)
    times = [recorded_at(d) for d in dates]
    window = ZSCORE.window
    for label in DETECTORS:
        result.runs[label] = []
    for i in range(ZSCORE.min_history, len(profiles)):
        lo = max(0, i - window)
        base, base_times = profiles[lo:i], times[lo:i]
        z = _faucet(ZSCORE, profiles[i], base, times[i], base_times)
        result.messages[dates[i]] = [f.message for f in z]
        result.runs["faucet zscore"].append((dates[i], [(f.column, f.metric.value) for f in z]))
        q = _faucet(IQR, profiles[i], base, times[i], base_times)
        result.runs["faucet iqr"].append((dates[i], [(f.column, f.metric.value) for f in q]))
        result.runs["literal zscore"].append((dates[i], literal_detect(profiles[i], base, ZSCORE)))
    return result
