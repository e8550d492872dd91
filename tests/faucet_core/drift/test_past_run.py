"""A light run's statistic no farther out than one of the baseline's own runs
(seriestests' ``matched_by_a_past_run``), on real profiles. A column of one record a
day from a long-tailed distribution (people affected by a data breach, a film's list of
languages) shows its tail in the baseline's runs: a day that repeats one of them is
chance by its rank alone. A value past every run the baseline holds stays a finding, and
so does a repeat on a column of many records a run, where a far run is an incident."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift.clearing import FEW_DRAWS
from faucet_core.drift.detector import run_detection
from faucet_core.drift.model import DriftMetric

CONFIG = ProfilingConfig()
RULE = "matched_by_a_past_run"


def _day(affected: list[int]) -> TableProfile:
    return profile([{"affected": a, "kind": "hacking"} for a in affected])


def _light_baseline(tail: int) -> list[TableProfile]:
    """20 days of one breach each, about 5,000 people affected, one of them ``tail``."""
    rng = random.Random(11)
    days = [[round(rng.uniform(3_000, 7_000))] for _ in range(20)]
    days[8] = [tail]
    return [_day(d) for d in days]


def _mean_findings(current: TableProfile, baseline: list[TableProfile]) -> list[str]:
    found = run_detection(current, baseline, CONFIG).findings
    return [f.message for f in found if f.column == "affected" and f.metric is DriftMetric.MEAN]


def test_a_light_day_that_repeats_a_baseline_runs_tail_is_chance() -> None:
    baseline = _light_baseline(tail=1_200_000)
    current = _day([800_000])
    detection = run_detection(current, baseline, CONFIG)
    assert [f for f in detection.findings if f.metric is DriftMetric.MEAN] == []
    assert detection.cleared[RULE] >= 1


def test_the_same_day_without_such_a_run_in_the_baseline_is_a_finding() -> None:
    """The rule is what clears the day above: with the tail run at 50,000, 800,000 is
    past every run and the mean's band finds it."""
    baseline = _light_baseline(tail=50_000)
    assert _mean_findings(_day([800_000]), baseline)
    assert run_detection(_day([800_000]), baseline, CONFIG).cleared.get(RULE, 0) == 0


def test_a_scale_change_goes_past_every_run_and_stays_a_finding() -> None:
    baseline = _light_baseline(tail=1_200_000)
    messages = _mean_findings(_day([5_000 * 1_000]), baseline)
    assert messages
    assert "mean 5,000,000" in messages[0]


def test_a_column_of_many_records_a_run_keeps_its_past_incident_out() -> None:
    """On runs of 200 records a mean that far out was an incident, not the tail: its
    repeat is judged against the other runs and found."""
    rng = random.Random(5)
    days = [[round(rng.uniform(3_000, 7_000)) for _ in range(200)] for _ in range(20)]
    days[8] = [v * 3 for v in days[8]]
    baseline = [_day(d) for d in days]
    current = _day([round(rng.uniform(3_000, 7_000)) * 3 for _ in range(200)])
    assert _mean_findings(current, baseline)
    assert FEW_DRAWS < 200


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    below=st.floats(0.05, 1.0),
)
def test_a_light_value_inside_the_baselines_own_runs_is_never_a_mean_finding(
    seed: int, below: float
) -> None:
    """Whatever the baseline's long tail, one record no farther out than its farthest
    run is never a finding on the mean."""
    rng = random.Random(seed)
    values = [round(rng.paretovariate(1.2) * 1_000) for _ in range(20)]
    baseline = [_day([v]) for v in values]
    top = max(values)
    median = sorted(values)[10]
    current = _day([max(median, round(median + below * (top - median)))])
    assert _mean_findings(current, baseline) == []
