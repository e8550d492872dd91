"""detect_drift as a whole: warming up, the window, new columns, real profiles."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import DriftFinding, DriftMetric, DriftTest, detect_drift
from tests.faucet_core.drift.builders import category, column, numeric, table


def detect(
    current: TableProfile, baseline: Sequence[TableProfile], **config: object
) -> list[DriftFinding]:
    return detect_drift(current, baseline, ProfilingConfig.model_validate(config))


def _nulls(rate: float, *names: str) -> TableProfile:
    return table(*(column(n, rows=10_000, nulls=round(rate * 10_000)) for n in names or ("c",)))


BASE = [_nulls(r) for r in (0.010, 0.012, 0.008, 0.011, 0.009, 0.010, 0.012, 0.011)]


@pytest.mark.parametrize(
    ("runs", "min_history", "warming"),
    [(4, 5, True), (5, 5, False), (2, 3, True), (3, 3, False)],
    ids=["4-of-5", "5-of-5", "2-of-3", "3-of-3"],
)
def test_warming_up_returns_nothing(runs: int, min_history: int, warming: bool) -> None:
    findings = detect(_nulls(0.5), BASE[:runs], min_history=min_history)
    assert (findings == []) is warming


def test_only_the_newest_window_runs_count() -> None:
    old = [_nulls(0.5)] * 10  # an old regime, outside a window of 8
    (finding,) = detect(_nulls(0.5), old + BASE, window=8)
    assert finding.baseline_runs == 8
    # the mean of the 8 runs on the arcsine scale, where null rates are judged
    assert finding.baseline_center == pytest.approx(0.0103322, abs=1e-7)


def test_a_new_column_is_learned_not_flagged() -> None:
    current = table(column("c", rows=10_000, nulls=100), column("fresh", rows=10_000, nulls=9_000))
    assert detect(current, BASE) == []
    # present in 4 of 8 runs: still learning with min_history 5
    half = BASE[:4] + [table(*BASE[i].columns.values(), current["fresh"]) for i in range(4, 8)]
    assert detect(current, half) == []


def test_a_removed_column_is_schema_drifts_business() -> None:
    baseline = [_nulls(0.01, "c", "gone")] * 6
    assert detect(_nulls(0.01, "c"), baseline) == []


def test_an_empty_run_is_a_volume_finding_and_nothing_else() -> None:
    empty = table(column("c", rows=0, distinct=0))
    (finding,) = detect(empty, BASE)
    assert (finding.column, finding.metric, finding.key) == ("", DriftMetric.ROW_COUNT, "row_count")
    assert finding.table_level
    assert finding.message == (
        "row_count: the run wrote no records; each of 8 baseline runs wrote some (10,000 to 10,000)"
    )
    # even while the baseline warms up, and with a single earlier run
    assert [f.metric for f in detect(empty, BASE[:1])] == [DriftMetric.ROW_COUNT]
    # an empty run after empty runs only is not news
    assert detect(empty, [empty] * 6) == []
    # and empty runs in the baseline are passed over
    (finding,) = detect(_nulls(0.5), [*BASE[:5], empty])
    assert finding.baseline_runs == 5


def test_one_finding_per_column_in_column_order() -> None:
    def run(amount_nulls: int, region: dict[str, float]) -> TableProfile:
        regions = category(region)["region"]
        amounts = column("amount", rows=10_000, nulls=amount_nulls, distinct=500, num=numeric())
        return table(regions, amounts)

    shares = {"eu": 0.5, "us": 0.5}
    baseline = [run(n, shares) for n in (100, 120, 80, 110, 90, 100)]
    findings = detect(run(4_000, {"eu": 0.5, "latam": 0.5}), baseline)
    assert [(f.column, f.metric) for f in findings] == [
        ("region", DriftMetric.NEW_VALUE),
        ("amount", DriftMetric.NULL_RATE),
    ]
    # "us" made way for "latam": one cause, the vanishing kept as evidence
    assert [(e.column, e.metric) for e in findings[0].evidence] == [
        ("region", DriftMetric.VANISHED_VALUE)
    ]
    assert findings[1].evidence == ()


def test_sensitivity_is_the_users_knob() -> None:
    def make(mean: float) -> TableProfile:
        return table(column(distinct=900, num=numeric(mean, stddev=1.0)))

    baseline = [make(v) for v in [50.0, 50.4, 49.6, 50.2, 49.8] * 4]
    current = make(50.0 + 8 * 0.3)
    assert [f.metric for f in detect(current, baseline)] == [DriftMetric.MEAN]
    assert detect(current, baseline, sensitivity=6.5) == []


def test_iqr_on_a_short_baseline_judges_like_zscore() -> None:
    # Quartiles of few runs are too uncertain: the z with the tail of Tukey's 1.5 is used
    # (below 10 runs for a statistic with a sampling model, as a null rate has).
    for runs in (BASE[:5], BASE + BASE[:1]):
        (finding,) = detect(_nulls(0.5), runs, method="iqr")
        assert finding.test is DriftTest.ZSCORE
        assert finding.sensitivity == pytest.approx(2.698, abs=1e-3)
        assert " sigma (sampling over 10,000 records and " in finding.message
        assert ": 2.698 sigma widened for 2 tests" in finding.message
    (finding,) = detect(_nulls(0.5), BASE + BASE[:2], method="iqr")
    assert finding.test is DriftTest.IQR
    assert finding.sensitivity == 1.5


# -- real profiles ------------------------------------------------------------------------
def _day(seed: int, *, null_rate: float = 0.01, extra_region: str | None = None) -> TableProfile:
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    for i in range(3_000):
        region = rng.choices(["eu", "us", "apac"], weights=[5, 3, 2])[0]
        if extra_region is not None and rng.random() < 0.125:
            region = extra_region
        records.append(
            {
                "id": seed * 10_000 + i,
                "amount": None if rng.random() < null_rate else round(rng.lognormvariate(3, 1), 2),
                "region": region,
                "note": "x" * rng.randint(5, 40),
            }
        )
    return profile(records)


@pytest.fixture(scope="module")
def history() -> list[TableProfile]:
    return [_day(seed) for seed in range(8)]


def test_real_stable_days_are_quiet(history: list[TableProfile]) -> None:
    for day in range(5, 8):
        assert detect(history[day], history[:day]) == []


def test_real_faults_are_named(history: list[TableProfile]) -> None:
    current = _day(8, null_rate=0.4, extra_region="latam")
    findings = detect(current, history)
    # "latam" is longer than the usual values: region's mean length moves with it, and is
    # the new value's evidence, not a finding of its own. Its longest value, one
    # character past a baseline always 4 long, is within chance for a run of 3,000 after
    # 24,000 records (one run in nine holds the longest), so it is no evidence.
    assert [(f.column, f.metric) for f in findings] == [
        ("amount", DriftMetric.NULL_RATE),
        ("region", DriftMetric.NEW_VALUE),
    ]
    region = findings[1]
    assert region.message.startswith('region.new_value: value "latam" is 1')
    assert [(e.metric, e.statistic) for e in region.evidence] == [
        (DriftMetric.STRING_LENGTH, "len_mean"),
    ]
