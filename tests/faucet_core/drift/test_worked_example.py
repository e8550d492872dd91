"""The worked example of docs/drift.md, computed by the real code: every number the doc
prints is checked here."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from faucet_core import ProfilingConfig
from faucet_core.config import DriftMethod
from faucet_core.drift import detect_drift
from faucet_core.drift.limits import budget_limit, tail_probability
from faucet_core.drift.noise import BETWEEN_CONFIDENCE, Sampling, between_run_upper
from faucet_core.drift.shortform import short_form
from faucet_core.drift.stats import chi2_lower_quantile
from faucet_core.profile import TableProfile
from tests.faucet_core.drift.builders import column, numeric, table

DOC = (Path(__file__).resolve().parents[3] / "docs" / "drift.md").read_text(encoding="utf-8")
NULLS = [100, 120, 110, 90, 130, 100, 120, 110, 100, 120]
TESTS = 5  # null_rate, distinct, mean, min, max of one numeric column


def _run(nulls: int) -> TableProfile:
    return table(column("amount", rows=10_000, nulls=nulls, distinct=500, num=numeric()))


BASELINE = [_run(n) for n in NULLS]


def test_the_steps_of_the_band() -> None:
    ys = [math.asin(math.sqrt(n / 10_000)) for n in NULLS]
    mean = math.fsum(ys) / len(ys)
    variance = math.fsum((y - mean) ** 2 for y in ys) / (len(ys) - 1)
    assert (f"{mean:.4f}", f"{math.sin(mean) ** 2:.2%}", f"{math.sqrt(variance):.4f}") == (
        "0.1049",
        "1.10%",
        "0.0060",
    )
    sampling = 0.25 / 10_000
    assert f"{math.sqrt(sampling):.4f}" == "0.0050"
    chi2 = chi2_lower_quantile(BETWEEN_CONFIDENCE, 9.0)
    assert f"{chi2:.2f}" == "3.33"
    between = between_run_upper(variance, sampling, 9.0)
    assert between == pytest.approx((variance - sampling) * 9 / chi2)
    assert (f"{variance - sampling:.6f}", f"{between:.6f}") == ("0.000011", "0.000030")
    sigma = math.sqrt(Sampling(sampling, sampling).predictive(10, between))
    assert f"{sigma:.4f}" == "0.0078"
    tail = tail_probability(DriftMethod.ZSCORE, 3.0)
    assert (f"{tail:.2%}", f"{tail / TESTS:.3%}", f"{tail / TESTS / 2:.3%}") == (
        "0.27%",
        "0.054%",
        "0.027%",
    )
    limit = budget_limit(DriftMethod.ZSCORE, 3.0, TESTS)
    assert f"{limit:.2f}" == "3.46"
    z = (math.asin(math.sqrt(0.025)) - mean) / sigma
    assert f"{z:.1f}" == "6.9"
    for text in (
        "0.0060² - 0.0050² = 0.000011",
        "0.000011 × 9 / 3.33 = 0.000030",
        "a sigma of **0.0078**",
        "the normal quantile **3.46**",
        "0.0078 = **6.9 sigma**",
    ):
        assert text in DOC


def test_the_finding_and_its_short_form_are_the_docs() -> None:
    (finding,) = detect_drift(_run(250), BASELINE, ProfilingConfig())
    message = (
        "amount.null_rate: null_rate 2.5% vs baseline mean 1.1% — 6.9 sigma (sampling over "
        "10,000 records and 10 baseline runs' spread), above the 3.5 limit: 3 sigma widened "
        "for 5 tests"
    )
    assert finding.message == message
    assert f"\n{message}\n" in DOC
    assert f"{finding.baseline_center:.2%}" == "1.10%"
    assert (f"{finding.score:.1f}", f"{finding.threshold:.2f}") == ("6.9", "3.46")
    short = short_form(finding)
    assert short == "amount null rate 2.5% (expected at most 2.1%)"
    assert f"`{short}`" in DOC


def test_below_the_floor_however_significant_and_within_the_limit_are_no_finding() -> None:
    assert detect_drift(_run(200), BASELINE, ProfilingConfig()) == []  # 4.8 sigma, 0.9 pt
    assert detect_drift(_run(160), BASELINE, ProfilingConfig()) == []  # 2.8 sigma
