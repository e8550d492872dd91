"""A column found by its extremes has its mean judged as one test: a shift of every value
heads with the mean, and no run gains a finding on a column that had none."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift.detector import STAGES, run_detection
from faucet_core.drift.model import DriftMetric
from faucet_core.drift.shift import means_of_moved_columns

CONFIG = ProfilingConfig()


def _day(seed: int, shift: float = 0.0, rows: int = 200) -> TableProfile:
    """Depths from two layers whose mix changes from day to day: the mean wanders, the
    shallowest and deepest readings hardly do; eight other columns share the budget."""
    rng = random.Random(seed)
    share = rng.uniform(0.3, 0.7)
    records = []
    for _ in range(rows):
        depth = rng.gauss(10, 1) if rng.random() < share else rng.gauss(30, 1)
        record = {"depth": round(depth + shift, 2)}
        record.update({f"c{k}": rng.gauss(0, 1) for k in range(8)})
        records.append(record)
    return profile(records)


BASELINE = [_day(seed) for seed in range(20)]


def test_a_shift_of_every_value_heads_with_the_mean() -> None:
    found = run_detection(_day(99, shift=10), BASELINE, CONFIG).findings
    assert [(f.column, f.metric) for f in found] == [("depth", DriftMetric.MEAN)]
    head = found[0]
    assert {e.metric for e in head.evidence} == {DriftMetric.MIN, DriftMetric.MAX}
    assert head.score > head.threshold
    assert "judged as one test, its max and min having found the column" in head.message
    assert "1 test" in head.message


def test_a_mean_within_its_band_as_one_test_stays_out() -> None:
    found = run_detection(_day(99, shift=6), BASELINE, CONFIG).findings
    assert [(f.column, f.metric) for f in found] == [("depth", DriftMetric.MIN)]
    assert DriftMetric.MEAN not in {e.metric for e in found[0].evidence}


def test_a_mean_that_moved_against_the_extremes_is_not_added() -> None:
    names = [name for name, _ in STAGES]
    through_budget = STAGES[: names.index("budget") + 1]
    d = run_detection(_day(99, shift=10), BASELINE, CONFIG, stages=through_budget)
    extremes = [f for f in d.findings if f.metric in (DriftMetric.MIN, DriftMetric.MAX)]
    assert extremes
    assert len(means_of_moved_columns(d.tests, extremes, CONFIG, 1.0)) == 1
    # the same extremes read as having fallen: the mean rose, so it is not their shift
    fallen = [
        replace(f, value=f.baseline_center - abs(f.value - f.baseline_center)) for f in extremes
    ]
    assert means_of_moved_columns(d.tests, fallen, CONFIG, 1.0) == []
    # extremes that parted (min down, max up) are a wider spread, not a shift
    parted = [
        replace(f, value=f.baseline_center - 1.0) if f.metric is DriftMetric.MIN else f
        for f in extremes
    ]
    assert means_of_moved_columns(d.tests, parted, CONFIG, 1.0) == []


@pytest.mark.parametrize("shift", [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, -10.0])
def test_no_run_gains_a_column_with_a_finding(shift: float) -> None:
    without = tuple(s for s in STAGES if s[0] != "means_of_moved_columns")
    assert len(without) == len(STAGES) - 1
    for seed in range(100, 106):
        day = _day(seed, shift=shift)
        found = run_detection(day, BASELINE, CONFIG).findings
        before = run_detection(day, BASELINE, CONFIG, stages=without).findings
        assert {f.column for f in found} == {f.column for f in before}


def test_the_docs_example_is_this_runs_message() -> None:
    doc = (Path(__file__).resolve().parents[3] / "docs" / "drift.md").read_text(encoding="utf-8")
    found = run_detection(_day(99, shift=10), BASELINE, CONFIG).findings
    assert f"```text\n{found[0].message}\n```" in doc
