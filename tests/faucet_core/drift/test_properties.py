"""detect_drift on any profiles the profiler can produce: it answers, never crashes, and
every number it reports is a number."""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Collection
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, profile
from faucet_core.config import DriftMethod
from faucet_core.drift import DriftFinding, detect_drift
from tests.faucet_core.profile.strategies import records

BOUNDED = settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MONDAY = dt.datetime(2025, 1, 6, 2, 0, tzinfo=dt.timezone.utc)

readings = st.lists(
    st.fixed_dictionaries(
        {
            "t": st.one_of(st.none(), st.integers(0, 60).map(lambda v: v / 50)),
            "n": st.integers(-3, 3),
            "x": st.floats(allow_nan=True, allow_infinity=True, width=32),
        }
    ),
    min_size=0,
    max_size=30,
)
"""Few-valued readings (a resolution of 0.02, nulls), small integers and any floats: the
shapes the distinct-count and extreme rules look at."""


def _sound(f: DriftFinding, columns: Collection[str]) -> bool:
    """A finding names a profiled column (or the table), says something, and is strict
    JSON (what the check and the store write)."""
    json.dumps(f.to_dict(), allow_nan=False)
    return (f.column in columns or f.table_level) and bool(f.message) and not math.isnan(f.score)


def _findings(runs: list[list[dict[str, Any]]], method: DriftMethod) -> list[list[DriftFinding]]:
    """detect_drift on the last run against the others, without and with the runs' times."""
    profiles = [profile(r) for r in runs]
    config = ProfilingConfig(min_history=2, method=method)
    times = [MONDAY + dt.timedelta(days=d) for d in range(len(profiles))]
    current, baseline = profiles[-1], profiles[:-1]
    return [
        detect_drift(current, baseline, config),
        detect_drift(current, baseline, config, current_time=times[-1], baseline_times=times[:-1]),
    ]


@BOUNDED
@given(st.lists(readings, min_size=3, max_size=16), st.sampled_from(list(DriftMethod)))
def test_readings_and_extremes_never_crash_the_detector(
    runs: list[list[dict[str, Any]]], method: DriftMethod
) -> None:
    columns = set(profile(runs[-1]).columns)
    for found in _findings(runs, method):
        assert all(_sound(f, columns) for f in found)


@BOUNDED
@given(st.lists(records, min_size=3, max_size=8))
def test_any_records_never_crash_the_detector(runs: list[list[dict[str, Any]]]) -> None:
    columns = set(profile(runs[-1]).columns)
    for found in _findings(runs, DriftMethod.ZSCORE):
        assert all(_sound(f, columns) for f in found)
