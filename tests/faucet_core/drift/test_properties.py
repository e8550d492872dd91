"""detect_drift on any profiles the profiler can produce: it answers, never crashes, and
every number it reports is a number."""

from __future__ import annotations

import datetime as dt
import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, profile
from faucet_core.config import DriftMethod
from faucet_core.drift import detect_drift
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


def _check(runs: list[list[dict[str, Any]]], method: DriftMethod) -> None:
    profiles = [profile(r) for r in runs]
    config = ProfilingConfig(min_history=2, method=method)
    times = [MONDAY + dt.timedelta(days=d) for d in range(len(profiles))]
    current, baseline = profiles[-1], profiles[:-1]
    for kwargs in ({}, {"current_time": times[-1], "baseline_times": times[:-1]}):
        findings = detect_drift(current, baseline, config, **kwargs)  # type: ignore[arg-type]
        for f in findings:
            assert f.column in current.columns
            assert isinstance(f.message, str)
            assert f.message
            json.dumps(f.to_dict(), allow_nan=False)  # what the check and the store write
            assert math.isfinite(f.score) or f.score == math.inf


@BOUNDED
@given(st.lists(readings, min_size=3, max_size=16), st.sampled_from(list(DriftMethod)))
def test_readings_and_extremes_never_crash_the_detector(
    runs: list[list[dict[str, Any]]], method: DriftMethod
) -> None:
    _check(runs, method)


@BOUNDED
@given(st.lists(records, min_size=3, max_size=8))
def test_any_records_never_crash_the_detector(runs: list[list[dict[str, Any]]]) -> None:
    _check(runs, DriftMethod.ZSCORE)
