"""Distinct counts against the run's volume: the elasticity."""

from __future__ import annotations

import math

import pytest

from faucet_core.drift.volume import distinct_elasticity, repeat_elasticity
from tests.faucet_core.drift.builders import column


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
