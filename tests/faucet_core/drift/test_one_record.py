"""A run of one record is one draw of the column's values (``one_record_among_the_pool``)."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import clearing
from faucet_core.drift.detector import run_detection
from faucet_core.drift.pool import Pool, one_draw_chance, pool_of

CONFIG = ProfilingConfig()
RULE = "one_record_among_the_pool"


def _ratings(years: list[int]) -> TableProfile:
    """A day of film ratings: the rated film's release year, and a constant source."""
    return profile(pa.table({"year": years, "source": ["web"] * len(years)}))


def _years(seed: int, count: int) -> list[int]:
    """Release years skewed to the past: most films recent, a long tail of old ones."""
    rng = random.Random(seed)
    return [2000 - int(rng.expovariate(1 / 12.0)) for _ in range(count)]


SIZES = [1, 2, 60, 150, 300]
"""Ratings a day, in turn: light days of one or two, ordinary days of many."""
DAYS = [_years(seed, SIZES[seed % len(SIZES)]) for seed in range(20)]
BASELINE = [_ratings(years) for years in DAYS]
POOLED = sorted(y for years in DAYS for y in years)


def _year_findings(current: TableProfile) -> list:
    return [f for f in run_detection(current, BASELINE, CONFIG).findings if f.column == "year"]


def test_one_old_film_on_a_light_day_is_a_draw_of_the_pooled_years() -> None:
    old = POOLED[1]  # the second oldest of 2,052 pooled ratings: inside the pool
    detection = run_detection(_ratings([old]), BASELINE, CONFIG)
    assert [f for f in detection.findings if f.column == "year"] == []
    assert detection.cleared[RULE] >= 1


def test_without_the_rule_the_same_day_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    # the band of run means of many ratings puts one old film far out: the rule clears it
    rules = tuple((n, r) for n, r in clearing.CLEARING_RULES if n != RULE)
    monkeypatch.setattr(clearing, "CLEARING_RULES", rules)
    assert _year_findings(_ratings([POOLED[1]]))


def test_one_record_past_every_pooled_number_stays_judged() -> None:
    # a release year divided by 1,000 lands below every pooled year
    detection = run_detection(_ratings([2]), BASELINE, CONFIG)
    assert "year" in {f.column for f in detection.findings}
    assert detection.cleared[RULE] == 0


def test_a_run_of_two_records_is_not_one_draw() -> None:
    detection = run_detection(_ratings([POOLED[1], POOLED[0]]), BASELINE, CONFIG)
    assert detection.cleared[RULE] == 0


def _pool(values: list[float]) -> Pool:
    ordered = np.sort(np.asarray(values, dtype=np.float64))
    return Pool(ordered, np.arange(1, ordered.size + 1, dtype=np.float64), 0.0)


def test_the_chance_is_the_rank_of_one_more_draw_on_its_side() -> None:
    pool = _pool([float(v) for v in range(1, 100)])  # 1 .. 99
    # 3 numbers at or below 3: (3 + 1) / (99 + 1), either side
    assert one_draw_chance(pool, 99, 3.0) == pytest.approx(2 * 4 / 100)
    assert one_draw_chance(pool, 99, 97.0) == pytest.approx(2 * 4 / 100)
    assert one_draw_chance(pool, 99, 50.0) == 1.0
    assert one_draw_chance(pool, 99, 0.5) is None  # past every pooled number
    assert one_draw_chance(pool, 99, 150.0) is None
    assert one_draw_chance(pool, 0, 50.0) is None


def test_the_pool_is_read_from_the_runs_sketches() -> None:
    pooled = pool_of([p.columns["year"] for p in BASELINE])
    assert pooled is not None
    pool, total = pooled
    assert total == len(POOLED) == 2_052
    assert float(pool.values[0]) == POOLED[0]
    assert float(pool.values[-1]) == POOLED[-1]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=60),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
)
def test_the_chance_is_a_probability_that_falls_outward(
    values: list[float], at: float, further: float
) -> None:
    pool = _pool(values)
    high = float(pool.values[-1])
    median = float(np.median(pool.values))
    inner = median + at * (high - median)
    outer = min(high, inner + further * (high - inner))
    a, b = one_draw_chance(pool, len(values), inner), one_draw_chance(pool, len(values), outer)
    assert a is not None
    assert b is not None
    assert 0.0 < b <= a <= 1.0
