"""The series metrics: each fires on its fault and stays quiet on stable data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest

from faucet_core import ProfilingConfig, TableProfile
from faucet_core.config import DriftMethod
from faucet_core.drift import DriftFinding, DriftMetric, DriftScale, DriftTest, detect_drift
from tests.faucet_core.drift.builders import column, numeric, string, table

NOISE = (1.0, 1.02, 0.98, 1.01, 0.99, 1.0)
"""Six baseline runs of a statistic that wanders by +-2 %."""


def detect(
    current: TableProfile, baseline: Sequence[TableProfile], **config: object
) -> list[DriftFinding]:
    return detect_drift(current, baseline, ProfilingConfig.model_validate(config))


@dataclass(frozen=True)
class Case:
    make: Callable[[float], TableProfile]
    base: float
    stable: float
    fault: float
    metric: DriftMetric
    statistic: str


def _null_rate(v: float) -> TableProfile:
    return table(column(rows=10_000, nulls=round(v * 10_000)))


def _distinct(v: float) -> TableProfile:
    return table(column(distinct=round(v)))


def _numeric_stat(field: str) -> Callable[[float], TableProfile]:
    def make(v: float) -> TableProfile:
        stats = {"mean": 50.0, "lo": 1.0, "hi": 1000.0}
        stats[field] = v
        return table(
            column(
                distinct=900, num=numeric(stats["mean"], lo=stats["lo"], hi=stats["hi"], stddev=1.0)
            )
        )

    return make


def _len_mean(v: float) -> TableProfile:
    return table(column(distinct=900, text=string(v, len_max=40)))


def _len_max(v: float) -> TableProfile:
    return table(column(distinct=900, text=string(5.0, len_max=round(v))))


CASES = {
    "null_rate": Case(_null_rate, 0.01, 0.0125, 0.40, DriftMetric.NULL_RATE, "null_rate"),
    "distinct": Case(_distinct, 60, 63, 20, DriftMetric.DISTINCT, "distinct"),
    "mean": Case(_numeric_stat("mean"), 50.0, 51.0, 5000.0, DriftMetric.MEAN, "mean"),
    "min": Case(_numeric_stat("lo"), 1.0, 1.03, 100.0, DriftMetric.MIN, "min"),
    "max": Case(_numeric_stat("hi"), 1000.0, 1040.0, 100_000.0, DriftMetric.MAX, "max"),
    "len_mean": Case(_len_mean, 20.0, 20.5, 8.0, DriftMetric.STRING_LENGTH, "len_mean"),
    "len_max": Case(_len_max, 100.0, 104.0, 20.0, DriftMetric.STRING_LENGTH, "len_max"),
}


SAMPLED = frozenset({"null_rate", "mean", "len_mean"})
"""The statistics with a sampling model (:mod:`faucet_core.drift.noise`)."""


@pytest.mark.parametrize("method", list(DriftMethod), ids=lambda m: m.value)
@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_each_metric_fires_on_its_fault(case: Case, method: DriftMethod) -> None:
    baseline = [case.make(case.base * k) for k in NOISE]
    findings = detect(case.make(case.fault), baseline, method=method)
    assert [(f.column, f.metric, f.statistic) for f in findings] == [
        ("c", case.metric, case.statistic)
    ]
    (finding,) = findings
    assert finding.value == pytest.approx(case.fault, rel=1e-3)
    assert finding.score > finding.threshold >= finding.sensitivity
    assert not finding.expected_low <= finding.value <= finding.expected_high  # type: ignore[operator]
    # a statistic with a sampling model is judged like zscore under iqr below 10 runs
    sampled = case.statistic in SAMPLED
    expected = DriftTest.ZSCORE if sampled else DriftTest(method.value)
    assert finding.test is expected
    assert finding.baseline_runs == 6


@pytest.mark.parametrize("method", list(DriftMethod), ids=lambda m: m.value)
@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_each_metric_is_quiet_on_stable_data(case: Case, method: DriftMethod) -> None:
    baseline = [case.make(case.base * k) for k in NOISE]
    assert detect(case.make(case.stable), baseline, method=method) == []
    assert detect(case.make(case.base), baseline, method=method) == []


# -- floors and constant baselines --------------------------------------------------------
FLOORS = {
    # name: (constant baseline value, quiet value, reported value)
    "distinct-one-value": (_distinct, 20, 21, 22),
    "distinct-5pct": (_distinct, 100, 105, 106),
    "max-1pct": (_numeric_stat("hi"), 1000.0, 1009.0, 1011.0),
}
"""Statistics without a sampling model: a constant baseline is judged by the floor."""


@pytest.mark.parametrize(("make", "base", "quiet", "loud"), FLOORS.values(), ids=list(FLOORS))
def test_constant_baseline_reports_exactly_the_changes_above_the_floor(
    make: Callable[[float], TableProfile], base: float, quiet: float, loud: float
) -> None:
    baseline = [make(base)] * 6
    assert detect(make(quiet), baseline) == []
    (finding,) = detect(make(loud), baseline)
    assert finding.test is DriftTest.FLOOR
    assert finding.baseline_spread == 0.0
    assert finding.score == pytest.approx(abs(finding.value - finding.baseline_center))
    assert finding.score > finding.threshold == finding.floor


SAMPLED_CONSTANT = {
    # name: (constant baseline value, below the floor, within sampling, reported)
    "null_rate": (_null_rate, 0.0, 0.0095, None, 0.0105),
    "mean": (_numeric_stat("mean"), 50.0, 50.49, None, 50.51),
    "len_mean": (_len_mean, 20.0, 20.19, 21.0, 21.5),
}


@pytest.mark.parametrize(
    ("make", "base", "below_floor", "within", "loud"),
    SAMPLED_CONSTANT.values(),
    ids=list(SAMPLED_CONSTANT),
)
def test_a_constant_baseline_of_a_sampled_statistic_has_its_sampling_band(
    make: Callable[[float], TableProfile],
    base: float,
    below_floor: float,
    within: float | None,
    loud: float,
) -> None:
    baseline = [make(base)] * 6
    assert detect(make(below_floor), baseline) == []
    if within is not None:  # above the floor, but inside the run's own sampling error
        assert detect(make(within), baseline) == []
    (finding,) = detect(make(loud), baseline)
    assert finding.test is DriftTest.ZSCORE
    assert finding.baseline_spread == 0.0
    assert finding.expected_low < finding.baseline_center < finding.expected_high  # type: ignore[operator]
    assert finding.score > finding.threshold
    assert "sampling over 1" in finding.message


def test_constant_baseline_message() -> None:
    baseline = [_numeric_stat("hi")(1000.0)] * 6
    (finding,) = detect(_numeric_stat("hi")(1011.0), baseline)
    assert finding.message == (
        "c.max: max 1,011 vs constant baseline 1,000 — change 11, above the floor 10 "
        "(6 baseline runs)"
    )


def test_a_constant_null_rate_message_names_the_sampling_error() -> None:
    baseline = [_null_rate(0.0)] * 6
    (finding,) = detect(_null_rate(0.05), baseline)
    assert finding.message == (
        "c.null_rate: null_rate 5.0% vs baseline mean 0.0% — 41.8 sigma (sampling over "
        "10,000 records and 6 baseline runs' spread), above the 3.2 limit: 3 sigma widened "
        "for 2 tests"
    )


def test_below_the_floor_is_quiet_however_significant() -> None:
    # A null rate that never moved by more than 1e-5 moves by half a percentage point.
    baseline = [_null_rate(0.001 + k * 1e-5) for k in range(10)]
    assert detect(_null_rate(0.0055), baseline) == []
    assert [f.metric for f in detect(_null_rate(0.0115), baseline)] == [DriftMetric.NULL_RATE]


def test_extremes_floor_follows_the_column_spread() -> None:
    # min sat at 5.0 in a column spread over +-40: 5.1 is noise, a sentinel is not.
    def make(lo: float) -> TableProfile:
        return table(column(distinct=900, num=numeric(50.0, lo=lo, hi=400.0, stddev=40.0)))

    baseline = [make(5.0)] * 8
    assert detect(make(5.1), baseline) == []
    # A new lowest value within the column's spread: one run in nine holds the lowest of
    # all its records by chance (the extreme of its own draws), not a finding.
    assert detect(make(-1.0), baseline) == []
    (finding,) = detect(make(-999.0), baseline)
    assert (finding.metric, finding.floor) == (DriftMetric.MIN, pytest.approx(4.0))


# -- what the detector does about false alarms --------------------------------------------
def test_the_exact_zscore_message() -> None:
    nulls = [10, 12, 14, 10, 12, 14]  # of 10,000: mean 0.0012, stddev 0.000179
    baseline = [table(column("amount", rows=10_000, nulls=n)) for n in nulls]
    current = table(column("amount", rows=10_000, nulls=4_000))
    (finding,) = detect(current, baseline)
    assert finding.message == (
        "amount.null_rate: null_rate 40.0% vs baseline mean 0.12% — 120.4 sigma (sampling "
        "over 10,000 records and 6 baseline runs' spread), above the 3.2 limit: 3 sigma "
        "widened for 2 tests"
    )
    # on the arcsine scale: the runs spread by 0.0026, less than 10,000 records' sampling
    # error (0.0050), so the band is sampling's: 0.0050 x sqrt(1 + 1/6) = 0.0054
    assert finding.baseline_center == pytest.approx(0.0011944, rel=1e-4)
    assert finding.baseline_spread == pytest.approx(0.0025934, rel=1e-4)
    assert (finding.score, finding.threshold) == (
        pytest.approx(120.385, rel=1e-5),
        pytest.approx(3.2052, rel=1e-4),
    )
    assert finding.scale is DriftScale.ARCSINE


def test_the_exact_iqr_message() -> None:
    nulls = [10, 12, 14, 10, 12, 14, 11, 13, 12, 11]
    baseline = [table(column("amount", rows=10_000, nulls=n)) for n in nulls]
    current = table(column("amount", rows=10_000, nulls=4_000))
    (finding,) = detect(current, baseline, method="iqr")
    assert finding.message == (
        "amount.null_rate: null_rate 40.0% vs baseline median 0.12% — 91.7 IQR beyond the "
        "quartiles, above the 4.1 limit: the 1.5 IQR fence widened for 10 baseline runs and 2 "
        "tests"
    )
    # the quartiles' IQR on the arcsine scale (0.0025), and never narrower than 10,000
    # records' sampling error in IQRs (1.349 x 0.0050 x sqrt(1 + 1/10))
    assert finding.baseline_spread == pytest.approx(0.0025372, rel=1e-4)
    assert finding.test is DriftTest.IQR


def test_a_short_baseline_needs_a_larger_deviation() -> None:
    def make(mean: float) -> TableProfile:
        return table(column(distinct=900, num=numeric(mean, stddev=1.0)))

    wobble = [50.0, 50.4, 49.6, 50.2, 49.8]  # sample stddev 0.316
    current = make(50.0 + 8 * 0.316)  # |z| about 8
    assert detect(current, [make(v) for v in wobble]) == []
    (finding,) = detect(current, [make(v) for v in wobble * 4])
    assert finding.metric is DriftMetric.MEAN
    # the between-run spread at its upper confidence bound for 20 runs: 8 / 1.29
    assert 6.0 < finding.score < 6.5


def test_a_past_incident_does_not_widen_the_band() -> None:
    rates = [0.010, 0.012, 0.008, 0.011, 0.40, 0.009, 0.010, 0.012, 0.011, 0.009]
    baseline = [_null_rate(r) for r in rates]  # the 0.40 run joined under on_drift: warn
    (finding,) = detect(_null_rate(0.40), baseline)
    assert finding.baseline_runs == 9
    assert finding.baseline_center == pytest.approx(0.0102, abs=1e-4)
    assert "1 outlying run left out" in finding.message
    assert detect(_null_rate(0.0125), baseline) == []


def test_a_repeated_change_becomes_the_norm() -> None:
    rates = [0.010, 0.012, 0.008, 0.011, 0.009, 0.010, 0.012, 0.011, 0.40, 0.40]
    baseline = [_null_rate(r) for r in rates]
    assert detect(_null_rate(0.40), baseline) == []


def test_one_extreme_record_moves_max_not_mean() -> None:
    def make(mean: float, hi: float, stddev: float = 5.0) -> TableProfile:
        return table(column(distinct=900, num=numeric(mean, hi=hi, stddev=stddev, count=1000)))

    baseline = [make(50.0 * k, 100.0 * k) for k in NOISE]
    # one record of 100,000 among 1,000 near 50 moves the mean by 100 and the run's
    # standard deviation to about 3,160: its mean's own sampling error is 100
    findings = detect(make(50.0 + 100_000 / 1000, 100_000.0, stddev=3160.0), baseline)
    assert [f.metric for f in findings] == [DriftMetric.MAX]
    assert findings[0].scale is DriftScale.LOG


def test_high_cardinality_distinct_follows_the_volume() -> None:
    def make(rows: int, distinct: int) -> TableProfile:
        return table(
            column(
                "customer_id",
                rows=rows,
                distinct=distinct,
                high_cardinality=True,
                num=numeric(5000.0, lo=1.0, hi=9999.0, stddev=2000.0),
            )
        )

    volumes = [10_000, 10_400, 9_700, 10_100, 7_600, 7_300]  # a weekend in the window
    ratios = [0.60, 0.61, 0.59, 0.60, 0.61, 0.59]
    baseline = [make(n, round(r * n)) for n, r in zip(volumes, ratios, strict=True)]
    assert detect(make(6_500, 3_950), baseline) == []  # a quiet holiday: 35 % fewer orders
    (finding,) = detect(make(10_000, 25), baseline)
    assert finding.metric is DriftMetric.DISTINCT
    assert finding.value == 25
    assert finding.baseline_center == pytest.approx(6000, rel=0.01)
    assert finding.scale is DriftScale.LOG
    assert finding.message == (
        "customer_id.distinct: distinct 25 vs 5,999.4 expected for 10,000 non-null records — "
        "367.6 sigma on the ratio scale, above the 8.5 limit: 3 sigma widened for 6 baseline "
        "runs and 5 tests"
    )


def test_a_null_spike_is_not_a_distinct_finding_of_an_id_column() -> None:
    # The volume never varied, so the elasticity comes from how often ids repeat: never.
    def make(nulls: int) -> TableProfile:
        ids = round(0.99 * (10_000 - nulls))
        return table(
            column(
                "id",
                rows=10_000,
                nulls=nulls,
                distinct=ids,
                high_cardinality=True,
                num=numeric(5e5, lo=1.0, hi=1e6, stddev=2e5),
            )
        )

    baseline = [make(n) for n in (100, 120, 80, 110, 90, 100)]
    assert [f.metric for f in detect(make(4_000), baseline)] == [DriftMetric.NULL_RATE]


def test_values_near_the_float_limit_are_judged_without_overflow(tmp_path) -> None:
    # regression: squares of differences of values near 1.8e308 overflowed in record()
    from faucet_core import ProfileStore, ProfilingConfig, profile

    cfg = ProfilingConfig(min_history=2)
    runs = [
        [1e308, -1e308, 1.7e308, 0.0],
        [1.1e308, -1e308, 1.6e308, 0.0],
        [0.9e308, -1.1e308, 1.7e308, 1.0],
        [1e308, -1e308, 1.7e308, 0.0],
    ]
    with ProfileStore(f"sqlite:///{tmp_path / 'f.db'}") as store:
        outcomes = [
            store.record("big", profile([{"x": v} for v in values]), cfg, run_id=f"r{i}")
            for i, values in enumerate(runs)
        ]
    assert [o.status.value for o in outcomes[:2]] == ["warming", "warming"]
    assert outcomes[3].status.value in ("stable", "drifted")
    for finding in outcomes[3].findings:
        assert finding.to_dict()  # JSON-ready: no infinities
