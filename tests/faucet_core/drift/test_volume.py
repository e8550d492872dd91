"""Distinct counts against the run's volume: the elasticity."""

from __future__ import annotations

import math

import pytest

from faucet_core import ColumnProfile, NumericStats
from faucet_core.drift.volume import (
    distinct_elasticity,
    presence_noise,
    repeat_elasticity,
    spread_elasticity,
)
from tests.faucet_core.drift.builders import column, numeric


@pytest.mark.parametrize(
    ("ratio", "expected"),
    [(1.0, 1.0), (0.0, 0.0), (0.632121, 0.581977), (0.001, 0.0)],
    ids=["ids", "empty", "one-draw-per-value", "enum"],
)
def test_repeat_elasticity(ratio: float, expected: float) -> None:
    # n = K draws: distinct / n = 1 - 1/e, elasticity 1 / (e - 1)
    assert repeat_elasticity(ratio) == pytest.approx(expected, abs=1e-5)


def test_repeat_elasticity_falls_as_values_repeat() -> None:
    values = [repeat_elasticity(r) for r in (0.99, 0.9, 0.7, 0.5, 0.2)]
    assert values == sorted(values, reverse=True)
    assert all(0 < v < 1 for v in values)


@pytest.mark.parametrize("b", [1.0, 0.7, 0.0], ids=["ids", "customers", "enum"])
def test_elasticity_is_learned_from_a_varying_volume(b: float) -> None:
    volumes = [10_000, 7_500, 9_800, 12_000, 6_900, 10_400]
    past = [column(rows=n, distinct=max(1, round(5 * n**b))) for n in volumes]
    assert distinct_elasticity(past[0], past) == pytest.approx(b, abs=0.01)


def test_elasticity_stays_within_zero_and_one() -> None:
    volumes = [10_000, 7_500, 9_800, 12_000, 6_900]
    growing = [column(rows=n, distinct=round(n**1.5 / 100)) for n in volumes]
    shrinking = [column(rows=n, distinct=round(1e6 / n)) for n in volumes]
    assert distinct_elasticity(growing[0], growing) == 1.0
    assert distinct_elasticity(shrinking[0], shrinking) == 0.0


def test_a_steady_volume_falls_back_to_how_often_values_repeat() -> None:
    past = [column(rows=10_000, distinct=7_800)] * 5
    assert distinct_elasticity(past[0], past) == pytest.approx(repeat_elasticity(0.78))
    assert 0.7 < repeat_elasticity(0.78) < 0.8
    assert math.isclose(distinct_elasticity(past[0], []), 0.0)


def _reading(distinct: int, stddev: float, *, lo: float = 0.31) -> ColumnProfile:
    stats = NumericStats(
        min=lo, max=lo + 4 * stddev, mean=lo + 2 * stddev, stddev=stddev, p50=lo + 2 * stddev,
        p95=lo + 3.5 * stddev, count=24,
    )  # fmt: skip
    return column("temp", rows=24, distinct=distinct, num=stats)


def test_spread_elasticity_is_what_volume_leaves_for_readings() -> None:
    past = [_reading(12, 0.1)] * 5
    b = distinct_elasticity(past[0], past)
    assert 0 < b < 1
    assert spread_elasticity(_reading(3, 0.02), past, b) == pytest.approx(1 - b)
    # values that never repeat do not depend on their spread
    assert spread_elasticity(_reading(3, 0.02), past, 1.0) == 0.0


def test_spread_elasticity_is_zero_for_integers_and_for_no_spread() -> None:
    counts = [column("riders", rows=24, distinct=12, num=numeric(30.0, lo=0.0, hi=90.0))] * 5
    assert spread_elasticity(counts[0], counts, 0.4) == 0.0  # integers: not readings
    past = [_reading(12, 0.1)] * 5
    assert spread_elasticity(_reading(1, 0.0), past, 0.4) == 0.0  # a constant run
    assert spread_elasticity(_reading(3, 0.02), [*past, _reading(1, 0.0)], 0.4) == 0.0


def test_presence_noise_is_the_root_of_the_values_absent() -> None:
    assert presence_noise(56.0, [58, 60, 59]) == pytest.approx(2.0)
    assert presence_noise(61.0, [58, 60, 59]) == 0.0  # more than ever seen: no chance spread
    assert presence_noise(10.0, []) == 0.0
