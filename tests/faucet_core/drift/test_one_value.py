"""A column that (almost) always holds one value (faucet_core.drift.draws.point_mass and
off_value_score; seriestests' ``constant_left_by_chance``), on real profiles: the first
windy or rainy day of a table of one row a day is chance, and so is a wet day's rain
among the wet days' rain; a column that moved as a whole, a far sentinel and every
record x100 are findings."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import detect_drift
from faucet_core.drift.detector import run_detection
from faucet_core.drift.draws import off_value_score, point_mass

CONFIG = ProfilingConfig()


def _day(seed: int, **values: float) -> TableProfile:
    """One row a day: a ridership that varies, and the given columns."""
    rng = random.Random(seed)
    return profile([{"riders": rng.gauss(5000.0, 300.0), **values}])


def _columns(current: TableProfile, baseline: list[TableProfile]) -> set[str]:
    return {f.column for f in detect_drift(current, baseline, CONFIG)}


def _rain(seed: int, wet: list[float], rows: int = 1) -> TableProfile:
    rng = random.Random(seed)
    values = [0.0] * (rows - len(wet)) + wet
    return profile([{"rain": v, "temp": rng.gauss(15.0, 3.0)} for v in values])


def test_point_mass_reads_the_value_most_records_hold_and_the_counts_beyond() -> None:
    baseline = [_rain(s, [0.3] if s in (3, 9) else []) for s in range(20)]
    mass = point_mass([p.columns["rain"] for p in baseline])
    assert mass is not None
    value, share, above, below = mass
    assert value == 0.0
    assert share == pytest.approx(18 / 20)
    assert (above, below) == (2, 0)


def test_off_value_score_is_the_log_distance_in_the_off_values_spread() -> None:
    wet = [0.05, 0.1, 0.2, 0.4, 0.8]
    baseline = [_rain(s, [wet[s // 4]] if s % 4 == 0 else []) for s in range(20)]
    past = [p.columns["rain"] for p in baseline]
    logs = [math.log(v) for v in wet]
    mean = sum(logs) / 5
    sd = math.sqrt(sum((v - mean) ** 2 for v in logs) / 4)
    score = off_value_score(past, 0.0, 40.0, high=True)
    assert score == pytest.approx((math.log(40.0) - mean) / sd)
    assert off_value_score(past, 0.0, 0.0, high=True) is None  # not off the value
    # fewer than two numbers off it: nothing to measure a size against
    dry = [_rain(s, [0.2] if s == 4 else []) for s in range(20)]
    assert off_value_score([p.columns["rain"] for p in dry], 0.0, 5.0, high=True) is None


def test_the_first_windy_day_of_a_one_row_table_is_chance() -> None:
    baseline = [_day(s, gust=0.0, home_game=0.0) for s in range(20)]
    windy = _day(99, gust=24.75, home_game=1.0)
    detection = run_detection(windy, baseline, CONFIG)
    assert {f.column for f in detection.findings} & {"gust", "home_game"} == set()
    assert detection.cleared["constant_left_by_chance"] >= 2


def test_a_column_of_many_records_that_moved_as_a_whole_is_a_finding() -> None:
    baseline = [_rain(s, [], rows=24) for s in range(20)]
    moved = _rain(99, [7.0] * 24, rows=24)
    assert "rain" in _columns(moved, baseline)
    # one wet hour among 480 dry ones: chance
    one = _rain(99, [7.0], rows=24)
    assert "rain" not in _columns(one, baseline)


def test_a_wet_day_after_few_wet_days_is_chance() -> None:
    # two wet days of twenty: too few to tell how much rain a wet day brings
    baseline = [_rain(s, [0.01] if s in (5, 12) else []) for s in range(20)]
    assert "rain" not in _columns(_rain(99, [0.8]), baseline)


def test_a_wet_days_rain_is_judged_against_the_wet_days_rain() -> None:
    rng = random.Random(7)
    baseline = [
        _rain(s, [round(math.exp(rng.gauss(math.log(0.2), 0.8)), 2)] if s % 3 == 0 else [])
        for s in range(20)
    ]
    assert "rain" not in _columns(_rain(99, [0.9]), baseline)
    # a hundred times a wet day's usual rain is out of reach
    assert "rain" in _columns(_rain(99, [0.2 * 100 * 100]), baseline)


def test_a_far_sentinel_among_a_few_codes_stays_a_finding() -> None:
    # a code 0 in most records, 1-4 in some: 9999 is not a code
    rng = random.Random(3)

    def codes(seed: int, extra: list[float]) -> TableProfile:
        r = random.Random(seed)
        values = [0.0] * 40 + [float(r.randint(1, 4)) for _ in range(3)] + extra
        return profile([{"code": v, "x": rng.random()} for v in values])

    baseline = [codes(s, []) for s in range(20)]
    assert "code" not in _columns(codes(99, [4.0]), baseline)
    assert "code" in _columns(codes(99, [9999.0]), baseline)


@settings(max_examples=40, deadline=None)
@given(
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
)
def test_one_record_off_a_constant_one_row_column_is_never_a_finding(
    constant: float, value: float
) -> None:
    """By exchangeability one record beyond 20 identical ones has a chance of 1 in 21,
    far above any test's share of a run's budget, however far it lies."""
    baseline = [_day(s, flag=constant) for s in range(20)]
    assert "flag" not in _columns(_day(99, flag=value), baseline)


def test_a_one_row_tables_reading_divided_by_1000_is_a_finding_at_the_normal_limit() -> None:
    """A run of one number is no extreme of many draws: its max is judged at the normal
    limit on the ratio scale, where a reading /1000 is far out, and its message does not
    widen the limit for an extreme's tail."""
    rng = random.Random(11)
    # weekday and weekend riders: a wide, two-level spread on the linear scale
    riders = [rng.gauss(15.0 if d % 7 < 5 else 7.0, 0.6) for d in range(21)]
    baseline = [profile([{"riders": r}]) for r in riders[:20]]
    divided = profile([{"riders": riders[20] / 1000}])
    findings = [f for f in detect_drift(divided, baseline, CONFIG) if f.column == "riders"]
    assert findings, "a reading /1000 of a one-row table is a finding"
    judged = [findings[0], *findings[0].evidence]
    (top,) = [f for f in judged if f.metric.value == "max"]
    assert "extreme's longer tail" not in top.message
    assert top.threshold < 10.0
