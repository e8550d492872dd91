"""First nulls in a column that never held one (``nulls_new_to_the_column``,
:mod:`faucet_core.drift.newnulls`)."""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import DriftMetric, DriftTest, detect_drift
from faucet_core.drift.detector import STAGES, run_detection
from faucet_core.drift.limits import tail_probability
from faucet_core.drift.newnulls import (
    NEW_NULL_TESTS,
    PRIOR_RATE,
    FirstNulls,
    first_null_history,
    new_null_findings,
)
from faucet_core.drift.series import NULL_RATE_FLOOR

CONFIG = ProfilingConfig()
ALPHA = tail_probability(CONFIG.method, CONFIG.effective_sensitivity) / NEW_NULL_TESTS


def _day(seed: int, *, rows: int = 3, nulls: int = 0, other_nulls: int = 0) -> TableProfile:
    """A light day: ``rows`` prices around 100 (the first ``nulls`` missing) and as many
    volumes (the first ``other_nulls`` missing)."""
    rng = np.random.default_rng(seed)
    prices: list[float | None] = rng.normal(100.0, 5.0, rows).round(2).tolist()
    volumes: list[float | None] = rng.normal(1e6, 1e5, rows).round(0).tolist()
    for i in range(nulls):
        prices[i] = None
    for i in range(other_nulls):
        volumes[i] = None
    return profile(pa.table({"price": pa.array(prices, pa.float64()), "volume": volumes}))


WINDOW = [_day(seed) for seed in range(20)]
"""Twenty light days without a null."""


def _nulls(findings: list) -> list:
    return [f for f in findings if f.metric is DriftMetric.NULL_RATE]


def test_a_light_days_first_null_is_a_finding() -> None:
    findings = _nulls(detect_drift(_day(99, nulls=1), WINDOW, CONFIG))
    assert [f.column for f in findings] == ["price"]
    (f,) = findings
    assert f.test is DriftTest.FLOOR
    assert f.value == pytest.approx(1 / 3)
    assert f.baseline_center == 0.0
    assert f.threshold == NULL_RATE_FLOOR
    assert "33.3% (1 of 3 records)" in f.message
    assert "no null in any of its 20 runs on record" in f.message


def test_the_series_test_alone_does_not_see_it() -> None:
    """Why the stage exists: one null of three is inside the null rate's sampling error."""
    stages = tuple(s for s in STAGES if s[0] != "nulls_new_to_the_column")
    detection = run_detection(_day(99, nulls=1), WINDOW, CONFIG, stages=stages)
    assert _nulls(detection.findings) == []


def test_a_null_in_an_older_run_makes_it_no_first() -> None:
    older = [_day(200 + s) for s in range(40)]
    older[7] = _day(300, nulls=1)
    assert _nulls(detect_drift(_day(99, nulls=1), WINDOW, CONFIG, older=older)) == []


def test_a_table_whose_columns_gained_first_nulls_before_is_left_to_the_series_test() -> None:
    """Another column of the table started holding nulls once: first nulls are a thing its
    columns do, and the price's first null is no finding."""
    older = [_day(200 + s) for s in range(40)]
    older[30:] = [_day(300 + s, other_nulls=1) for s in range(10)]
    window = [_day(s, other_nulls=1) for s in range(20)]
    assert _nulls(detect_drift(_day(99, nulls=1, other_nulls=1), window, CONFIG, older=older)) == []
    # without the volume's past first nulls, the same run is a finding
    clean = [_day(200 + s) for s in range(40)]
    found = detect_drift(_day(99, nulls=1), WINDOW, CONFIG, older=clean)
    assert [f.column for f in _nulls(found)] == ["price"]


def test_below_the_floor_is_no_finding() -> None:
    window = [_day(s, rows=200) for s in range(20)]
    assert _nulls(detect_drift(_day(99, rows=200, nulls=1), window, CONFIG)) == []  # 0.5 %
    assert [
        f.column for f in _nulls(detect_drift(_day(99, rows=200, nulls=2), window, CONFIG))
    ] == ["price"]


def test_a_higher_sensitivity_spends_less_and_stays_quiet() -> None:
    strict = ProfilingConfig(sensitivity=4.0)
    assert _nulls(detect_drift(_day(99, nulls=1), WINDOW, strict)) == []


def test_older_runs_are_read_only_for_a_candidate() -> None:
    calls: list[int] = []

    def older() -> list[TableProfile]:
        calls.append(1)
        return [_day(200 + s) for s in range(10)]

    detect_drift(_day(98), WINDOW, CONFIG, older=older)
    assert calls == []
    detect_drift(_day(99, nulls=1), WINDOW, CONFIG, older=older)
    assert calls == [1]


def test_the_history_counts_events_and_runs_at_risk() -> None:
    nulled = [_day(50, other_nulls=1), _day(51, other_nulls=1)]
    runs = [_day(s) for s in range(10)] + nulled + [_day(60 + s) for s in range(3)]
    history, clean = first_null_history(runs, 5)
    # runs 6..15 each follow five runs of a clean price; the volume's first nulls are one
    # event, its second run with nulls no other
    assert history == FirstNulls(events=1, at_risk=10)
    assert clean == {"price": 15}
    assert FirstNulls(0, 20).rate < ALPHA < FirstNulls(1, 385).rate
    assert FirstNulls(0, 0).rate == pytest.approx(PRIOR_RATE)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(min_value=1, max_value=60),
    nulls=st.integers(min_value=1, max_value=60),
    runs=st.integers(min_value=5, max_value=40),
    events=st.integers(min_value=0, max_value=3),
)
def test_findings_are_consistent_and_deterministic(
    rows: int, nulls: int, runs: int, events: int
) -> None:
    nulls = min(nulls, rows)
    history = [_day(s, rows=rows) for s in range(runs)]
    for k in range(events):
        history[runs - 1 - k] = _day(500 + k, rows=rows, other_nulls=1)
    current = _day(999, rows=rows, nulls=nulls)
    a = new_null_findings(current, history, ["price"], min_history=5, alpha=ALPHA)
    b = new_null_findings(current, history, ["price"], min_history=5, alpha=ALPHA)
    assert a == b
    history_events, _ = first_null_history(history, 5)
    assert bool(a) == (history_events.rate < ALPHA)
    for f in a:
        assert f.value == pytest.approx(nulls / rows)
        assert f.score == f.value >= f.threshold == NULL_RATE_FLOOR
        assert f.expected_low == 0.0 < f.expected_high == NULL_RATE_FLOOR
        assert f"({nulls:,} of {rows:,} records)" in f.message
        assert re.search(rf"any of its {runs:,} runs on record", f.message)
