"""The worked example of docs/drift.md, computed by the real code: every number the doc
prints is checked here."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from faucet_core import ProfilingConfig
from faucet_core.config import DriftMethod
from faucet_core.drift import detect_drift
from faucet_core.drift.limits import series_limit, tail_probability
from faucet_core.drift.shortform import short_form
from faucet_core.drift.stats import normal_quantile, student_t_quantile
from faucet_core.profile import TableProfile
from tests.faucet_core.drift.builders import column, numeric, table

DOC = (Path(__file__).resolve().parents[3] / "docs" / "drift.md").read_text(encoding="utf-8")
NULLS = [100, 120, 110, 90, 130, 100, 120, 110, 100, 120]
TESTS = 5  # null_rate, distinct, mean, min, max of one numeric column


def _run(nulls: int) -> TableProfile:
    return table(column("amount", rows=10_000, nulls=nulls, distinct=500, num=numeric()))


BASELINE = [_run(n) for n in NULLS]


def test_the_steps_of_the_limit() -> None:
    tail = tail_probability(DriftMethod.ZSCORE, 3.0)
    assert f"{tail:.2%}" == "0.27%"
    per_test = tail / TESTS
    assert f"{per_test:.3%}" == "0.054%"
    assert f"{per_test / 2:.3%}" == "0.027%"
    t = student_t_quantile(per_test / 2, 9.0)
    assert f"{t:.2f}" == "5.23"
    assert f"{normal_quantile(per_test / 2):.2f}" == "3.46"
    assert f"{math.sqrt(1 + 1 / 10):.3f}" == "1.049"
    limit = series_limit(DriftMethod.ZSCORE, 3.0, 10, TESTS)
    assert limit == pytest.approx(t * math.sqrt(1.1))
    assert f"{limit:.2f}" == "5.49"
    assert f"{series_limit(DriftMethod.ZSCORE, 3.0, 10, 1):.2f}" == "4.29"
    assert f"{series_limit(DriftMethod.ZSCORE, 3.0, 200, TESTS):.2f}" == "3.53"
    for text in ("0.27 % / 5 = 0.054 %", "0.027 % on each side", ": 5.23 (the normal", "3.46)"):
        assert text in DOC
    assert "5.23 × sqrt(1 + 1/10) = 5.23 × 1.049 = **5.49**" in DOC
    assert "With a single test it would be 4.29; with 200 runs and 5 tests, 3.53." in DOC


def test_the_finding_and_its_short_form_are_the_docs() -> None:
    (finding,) = detect_drift(_run(250), BASELINE, ProfilingConfig())
    message = (
        "amount.null_rate: null_rate 2.5% vs baseline mean 1.1% — 11.2 sigma, above the 5.5 "
        "limit: 3 sigma widened for 10 baseline runs and 5 tests"
    )
    assert finding.message == message
    assert f"\n{message}\n" in DOC
    assert f"{finding.baseline_center:.2%}" == "1.10%"
    assert f"{finding.baseline_spread * 100:.3f}" == "0.125"
    assert (f"{finding.score:.1f}", f"{finding.threshold:.2f}") == ("11.2", "5.49")
    short = short_form(finding)
    assert short == "amount null rate 2.5% (expected at most 2.1%)"
    assert f"`{short}`" in DOC


def test_beyond_three_sigma_but_within_the_limit_is_no_finding() -> None:
    assert detect_drift(_run(160), BASELINE, ProfilingConfig()) == []
    mean = sum(NULLS) / len(NULLS) / 10_000
    spread = (sum((n / 10_000 - mean) ** 2 for n in NULLS) / (len(NULLS) - 1)) ** 0.5
    assert f"{(0.016 - mean) / spread:.1f}" == "4.0"
    assert "(1.6 %, 4.0 sigma)" in DOC
