"""A rescale seen in the values' spread (:mod:`faucet_core.drift.spread`, stage ``rescale``)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ColumnProfile, ProfilingConfig, profile
from faucet_core.drift import DriftMetric, DriftTest, detect_drift
from faucet_core.drift.spread import SPREAD_MIN_VALUES, spread_factor, spread_rescaled

CONFIG = ProfilingConfig()
ALPHA = 0.0027 / 20


def _lat(seed: int, *, rows: int = 7, scale: float = 1.0, center: float = 0.0) -> pa.Table:
    """A light day of earthquake latitudes, spread on both sides of the equator."""
    rng = np.random.default_rng(seed)
    lats = (rng.normal(center, 30.0, rows) * scale).tolist()
    return pa.table({"lat": lats})


def _col(table: pa.Table) -> ColumnProfile:
    return profile(table).columns["lat"]


WINDOW = [profile(_lat(seed)) for seed in range(20)]
PAST = [p.columns["lat"] for p in WINDOW]


def test_a_latitude_divided_by_1000_is_a_rescale_its_mean_does_not_show() -> None:
    current = profile(_lat(99, scale=0.001))
    assert abs(current.columns["lat"].numeric.mean) < 0.1  # inside the runs' means
    findings = [f for f in detect_drift(current, WINDOW, CONFIG) if f.column == "lat"]
    assert len(findings) == 1
    (f,) = findings
    assert f.metric in {DriftMetric.MIN, DriftMetric.MAX}
    assert f.test is DriftTest.RATIO
    assert "times narrower: a rescale" in f.message
    assert f.score > 100


def test_a_quiet_day_and_a_smaller_change_are_not() -> None:
    assert not spread_rescaled(_col(_lat(99)), PAST, ALPHA)
    assert not spread_rescaled(_col(_lat(99, scale=0.2)), PAST, ALPHA)  # five times: no rescale
    assert spread_rescaled(_col(_lat(99, scale=0.001)), PAST, ALPHA)


def test_a_rise_is_left_to_the_level_tests() -> None:
    """x100 moves the level beyond every run; the spread judges falls only."""
    assert not spread_rescaled(_col(_lat(99, scale=100.0)), PAST, ALPHA)


def test_a_baseline_run_without_spread_makes_a_fall_unremarkable() -> None:
    past = [*PAST[:-1], _col(pa.table({"lat": [5.0] * 7}))]
    assert not spread_rescaled(_col(_lat(99, scale=0.001)), past, ALPHA)


def test_too_few_numbers_say_nothing() -> None:
    few = _col(_lat(99, rows=SPREAD_MIN_VALUES - 1, scale=0.001))
    assert spread_factor(few, PAST) is None
    assert not spread_rescaled(few, PAST, ALPHA)


def test_readings_that_move_together_count_as_fewer_draws() -> None:
    """Hourly readings of a day stay together: each day's 24 readings sit around its own
    level with a small spread, so the runs' means vary far more than 24 independent
    draws allow. A day ten times calmer than the calmest is then no rescale, while the
    same figures from independent draws would be."""
    rng = np.random.default_rng(7)
    days = []
    for seed in range(20):
        level = rng.normal(100.0, 20.0)
        spread = 0.6 + 0.1 * seed
        days.append(
            _col(
                pa.table(
                    {"lat": (level + np.random.default_rng(seed).normal(0, spread, 24)).tolist()}
                )
            )
        )
    calm = _col(pa.table({"lat": (90.0 + np.random.default_rng(99).normal(0, 0.04, 24)).tolist()}))
    assert spread_factor(calm, days) < 0.1
    assert not spread_rescaled(calm, days, ALPHA)
    independent = [
        _col(
            pa.table(
                {"lat": np.random.default_rng(seed).normal(100.0, 0.6 + 0.1 * seed, 24).tolist()}
            )
        )
        for seed in range(20)
    ]
    assert spread_rescaled(calm, independent, ALPHA)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10_000),
    scale=st.sampled_from([1e-4, 1e-3, 0.01, 0.05, 0.5, 1.0]),
    unit=st.sampled_from([0.01, 1.0, 1000.0]),
)
def test_the_test_does_not_depend_on_the_unit_and_is_deterministic(
    seed: int, scale: float, unit: float
) -> None:
    """Every run in other units (all multiplied by the same factor) gets the same answer."""
    past = [_col(_lat(s, rows=12)) for s in range(seed, seed + 15)]
    now = _col(_lat(seed + 99, rows=12, scale=scale))
    answer = spread_rescaled(now, past, ALPHA)
    assert answer == spread_rescaled(now, past, ALPHA)
    past_u = [_col(_lat(s, rows=12, scale=unit)) for s in range(seed, seed + 15)]
    now_u = _col(_lat(seed + 99, rows=12, scale=scale * unit))
    assert spread_rescaled(now_u, past_u, ALPHA) == answer
    factor, factor_u = spread_factor(now, past), spread_factor(now_u, past_u)
    assert factor is not None
    assert factor_u == pytest.approx(factor, rel=1e-3)
    if scale >= 0.5:
        assert not answer


def test_a_fall_must_be_a_rescale_however_certain() -> None:
    """On days of 500 records a spread five times narrower is far beyond chance, and it is
    a calmer day or a filter, not a unit: only a factor of ten or more is a rescale."""
    past = [_col(_lat(seed, rows=500)) for seed in range(20)]
    assert not spread_rescaled(_col(_lat(99, rows=500, scale=0.2)), past, ALPHA)
    assert spread_rescaled(_col(_lat(99, rows=500, scale=0.05)), past, ALPHA)
