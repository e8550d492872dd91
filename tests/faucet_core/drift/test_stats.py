"""The pure-Python statistics and the limits built on them."""

from __future__ import annotations

import math

import pytest

from faucet_core.config import DriftMethod
from faucet_core.drift.limits import iqr_degrees_of_freedom, series_limit, tail_probability
from faucet_core.drift.stats import (
    gumbel_upper_quantile,
    normal_quantile,
    normal_tail,
    quantile,
    student_t_quantile,
)


@pytest.mark.parametrize(
    ("upper_tail", "df", "expected"),
    [
        (0.025, 1.0, 12.7062),
        (0.025, 4.0, 2.7764),
        (0.005, 10.0, 3.1693),
        (0.0005, 4.0, 8.6103),
        (0.05, 30.0, 1.6973),
        (0.25, 1.0, 1.0),
    ],
    ids=["df1-97.5", "df4-97.5", "df10-99.5", "df4-99.95", "df30-95", "cauchy-quartile"],
)
def test_student_t_quantile_matches_tables(upper_tail: float, df: float, expected: float) -> None:
    assert student_t_quantile(upper_tail, df) == pytest.approx(expected, abs=1e-4)


def test_student_t_approaches_the_normal() -> None:
    assert student_t_quantile(0.00135, 1e6) == pytest.approx(normal_quantile(0.00135), rel=1e-4)


@pytest.mark.parametrize(
    ("upper_tail", "expected"),
    [(0.025, 1.959964), (0.00135, 3.0), (0.5, 0.0)],
    ids=["97.5", "3-sigma", "median"],
)
def test_normal_quantile(upper_tail: float, expected: float) -> None:
    assert normal_quantile(upper_tail) == pytest.approx(expected, abs=1e-4)


def test_normal_tail_is_two_sided() -> None:
    assert normal_tail(3.0) == pytest.approx(0.0026998, rel=1e-4)
    assert normal_tail(-3.0) == normal_tail(3.0)


def test_gumbel_quantile_is_standardized() -> None:
    # The Gumbel median sits below its mean: ln(ln 2) below the mode, in sigma units.
    median = (-math.log(math.log(2.0)) - 0.5772156649) * math.sqrt(6) / math.pi
    assert gumbel_upper_quantile(0.5) == pytest.approx(median)
    # (-ln(-ln(1 - 1e-4)) - Euler's gamma) * sqrt(6) / pi
    assert gumbel_upper_quantile(1e-4) == pytest.approx(6.7312, abs=1e-4)


@pytest.mark.parametrize("bad", [0.0, 0.6, -1.0], ids=["zero", "above-half", "negative"])
def test_quantile_functions_refuse_bad_tails(bad: float) -> None:
    with pytest.raises(ValueError, match="upper_tail"):
        student_t_quantile(bad, 3.0)
    with pytest.raises(ValueError, match="upper_tail"):
        normal_quantile(bad)


def test_sample_quantile_interpolates_like_numpy() -> None:
    values = [1.0, 2.0, 4.0, 8.0, 16.0]
    assert [quantile(values, q) for q in (0.0, 0.25, 0.5, 0.75, 1.0)] == [1, 2, 4, 8, 16]
    assert quantile([1.0, 2.0], 0.25) == 1.25
    with pytest.raises(ValueError, match="no values"):
        quantile([], 0.5)


def test_sensitivity_keeps_its_meaning_as_a_tail_probability() -> None:
    assert tail_probability(DriftMethod.ZSCORE, 3.0) == pytest.approx(0.0027, abs=1e-5)
    # Q3 + 1.5 IQR is 2.698 sigma for normal data.
    assert tail_probability(DriftMethod.IQR, 1.5) == pytest.approx(normal_tail(2.698), rel=1e-3)


@pytest.mark.parametrize("method", list(DriftMethod), ids=lambda m: m.value)
def test_limit_narrows_with_history_and_widens_with_tests(method: DriftMethod) -> None:
    sensitivity = 3.0 if method is DriftMethod.ZSCORE else 1.5
    by_runs = [series_limit(method, sensitivity, n, 40) for n in (6, 10, 20, 100)]
    assert by_runs == sorted(by_runs, reverse=True)
    by_tests = [series_limit(method, sensitivity, 20, m) for m in (1, 10, 100, 1000)]
    assert by_tests == sorted(by_tests)
    assert min(by_runs + by_tests) >= sensitivity


def test_zscore_limit_is_the_prediction_interval() -> None:
    # One test against 5 runs: t(4 df) at the 3-sigma tail, times sqrt(1 + 1/5).
    expected = student_t_quantile(normal_tail(3.0) / 2, 4.0) * math.sqrt(1.2)
    assert series_limit(DriftMethod.ZSCORE, 3.0, 5, 1) == pytest.approx(expected)
    assert series_limit(DriftMethod.ZSCORE, 3.0, 10_000, 1) == pytest.approx(3.0, abs=0.01)


def test_extremes_get_a_wider_limit() -> None:
    plain = series_limit(DriftMethod.ZSCORE, 3.0, 20, 40)
    extreme = series_limit(DriftMethod.ZSCORE, 3.0, 20, 40, extreme=True)
    assert 1.5 * plain < extreme < 2.5 * plain


def test_iqr_degrees_of_freedom_grow_with_history() -> None:
    assert iqr_degrees_of_freedom(5) < iqr_degrees_of_freedom(20) < iqr_degrees_of_freedom(100)
    assert iqr_degrees_of_freedom(100) < 99
