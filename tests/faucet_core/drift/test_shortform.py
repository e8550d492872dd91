"""Short forms of findings (the one-line check description) and the one number format."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, profile
from faucet_core.config import DriftMethod
from faucet_core.drift import DriftFinding, detect_drift
from faucet_core.drift.messages import limit_phrase
from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.drift.shortform import evidence_clause, short_form
from faucet_core.profile import TableProfile
from tests.faucet_core.drift.builders import column, string, table
from tests.faucet_core.notify.builders import mean_shift, psi, type_mix

CFG = ProfilingConfig()
REGIONS = ("eu", "us", "apac", "us")


def _day(
    i: int,
    *,
    nulls: float = 0.01,
    latam: float = 0.0,
    regions: tuple[str, ...] = REGIONS,
    n: int = 1000,
) -> pa.Table:
    k_null = int(n * (nulls + 0.002 * (i % 3)))
    amounts = [None if k < k_null else float(20 + (k * 13 + i * 7) % 200) for k in range(n)]
    k_latam = int(n * latam)
    region = ["latam" if k < k_latam else regions[k % len(regions)] for k in range(n)]
    return pa.table({"amount": amounts, "region": region})


BASELINE = [profile(_day(i), CFG) for i in range(10)]


def _findings(current: TableProfile) -> list[DriftFinding]:
    return detect_drift(current, BASELINE, CFG)


def test_a_null_rate_and_a_new_value_with_its_evidence() -> None:
    null_rate, region = _findings(profile(_day(10, nulls=0.4, latam=0.125), CFG))
    assert short_form(null_rate) == "amount null rate 40.2% (expected at most 2.8%)"
    assert short_form(region) == (
        'region has a new value "latam" (12.5% of rows), string lengths moved too'
    )
    assert evidence_clause(null_rate) == ""


def test_a_classified_column_shows_no_value() -> None:
    (region,) = _findings(profile(_day(10, latam=0.125), CFG))
    assert short_form(region, classified=True) == (
        "region has a new value (12.5% of rows; value withheld, classified), "
        "string lengths moved too"
    )
    mean = replace(mean_shift("salary"), column="salary")
    assert short_form(mean, classified=True) == "salary mean rose above its expected range"
    assert short_form(mean) == "salary mean 912.5 (expected at most 74.8)"
    low = replace(mean, value=10.0)
    assert short_form(low, classified=True) == "salary mean fell below its expected range"
    assert short_form(low) == "salary mean 10 (expected at least 40.25)"


def test_a_vanished_value() -> None:
    (region,) = _findings(profile(_day(10, regions=("eu", "us")), CFG))
    assert short_form(region) == (
        'region lost "apac" (at least 25.0% of rows before), string lengths moved too'
    )
    assert short_form(region, classified=True) == (
        "region lost a value (withheld, classified) (at least 25.0% of rows before), "
        "string lengths moved too"
    )


def test_a_type_mix_names_the_type_and_its_share() -> None:
    assert short_form(type_mix("amount")) == "amount has 30.0% string values (at most 0.0% before)"


def test_psi_names_its_score_and_limit() -> None:
    assert short_form(psi("channel")) == "channel value mix shifted (PSI 0.41, limit 0.2)"


def test_several_other_metrics_are_named_once_each() -> None:
    head = mean_shift("amount")
    others = (
        replace(head, metric=head.metric.MAX, statistic="max"),
        replace(head, metric=head.metric.MIN, statistic="min"),
        replace(head, metric=head.metric.MAX, statistic="max"),
    )
    finding = replace(head, evidence=others)
    assert evidence_clause(finding) == "maximum and minimum moved too"


@pytest.mark.parametrize(
    ("value", "statistic", "text"),
    [
        (3827, "", "3,827"),
        (3847.0, "", "3,847"),
        (16870.4, "", "16,870.4"),
        (999.99, "", "1,000.0"),
        (12.3456, "", "12.35"),
        (0.0012345, "", "0.001234"),
        (0.00001234, "", "1.234e-05"),
        (2.5e16, "", "2.5e+16"),
        (-1234567.0, "", "-1,234,567"),
        (-0.0, "", "0"),
        (float("nan"), "", "nan"),
        (0.4, "null_rate", "40.0%"),
        (0.0012, "null_rate", "0.12%"),
        (0.0, "null_rate", "0.0%"),
    ],
)
def test_one_number_format(value: float, statistic: str, text: str) -> None:
    assert fmt_number(value, statistic) == text


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e14, max_value=1e14))
def test_a_formatted_number_has_no_space_and_no_exponent_in_the_usual_range(value: float) -> None:
    text = fmt_number(value)
    assert " " not in text
    if value == 0 or abs(value) >= 1e-4:
        assert "e" not in text, text
        assert float(text.replace(",", "")) == pytest.approx(value, rel=1e-3, abs=0.05)


def test_fmt_rate_keeps_small_rates_visible() -> None:
    assert [fmt_rate(v) for v in (1.0, 0.5, 0.01, 0.0099, 0.0)] == [
        "100.0%",
        "50.0%",
        "1.0%",
        "0.99%",
        "0.0%",
    ]


@pytest.mark.parametrize(
    ("method", "kwargs", "text"),
    [
        (
            DriftMethod.ZSCORE,
            {"score": 15.47, "limit": 6.73, "sensitivity": 3.0, "runs": 10, "tests": 22},
            "15.5 sigma, above the 6.7 limit: 3 sigma widened for 10 baseline runs and 22 tests",
        ),
        (
            DriftMethod.ZSCORE,
            {"score": 6.74, "limit": 6.73, "sensitivity": 3.0, "runs": 10, "tests": 22},
            "6.74 sigma, above the 6.73 limit: 3 sigma widened for 10 baseline runs and 22 tests",
        ),
        (
            DriftMethod.ZSCORE,
            {"score": 4.2, "limit": 3.0, "sensitivity": 3.0, "runs": 300, "tests": 1},
            "4.2 sigma, above the 3.0 limit (3 sigma; 300 baseline runs and 1 test)",
        ),
        (
            DriftMethod.IQR,
            {"score": 9.0, "limit": 7.89, "sensitivity": 1.5, "runs": 10, "tests": 22},
            "9.0 IQR beyond the quartiles, above the 7.9 limit: the 1.5 IQR fence widened for "
            "10 baseline runs and 22 tests",
        ),
        (
            DriftMethod.ZSCORE,
            {
                "score": 20.0,
                "limit": 12.46,
                "sensitivity": 3.0,
                "runs": 10,
                "tests": 22,
                "extreme": True,
                "ratios": True,
            },
            "20.0 sigma on the ratio scale, above the 12.5 limit: 3 sigma widened for 10 "
            "baseline runs, 22 tests and an extreme's longer tail",
        ),
    ],
)
def test_the_limit_is_named_once(method: DriftMethod, kwargs: dict[str, Any], text: str) -> None:
    assert limit_phrase(method, **kwargs) == text


def test_a_constant_baseline_shows_its_value_not_a_band() -> None:
    # a code always 19 characters long: "expected at least 18.81" is no number a run can have
    def codes(length: float) -> TableProfile:
        return table(column("code", distinct=900, text=string(length, len_max=round(length))))

    baseline = [codes(19.0)] * 6
    (finding,) = detect_drift(codes(12.0), baseline, CFG)
    assert short_form(finding).startswith("code longest string 12 (always 19 before)")
