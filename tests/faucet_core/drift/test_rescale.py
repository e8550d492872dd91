"""A rescale that only the type mix could find heads with the extreme it moved: whole
numbers divided by 1,000 on light runs and mostly-zero columns, where the level alone
is no evidence. The stage adds no alarm, and its figures agree with its message."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import DriftMetric, DriftTest, detect_drift
from faucet_core.drift.detector import STAGES, run_detection
from faucet_core.drift.numfmt import fmt_number
from faucet_core.drift.rescale import RESCALE_FACTOR, rescale_finding
from faucet_core.notify import NotifiedFinding, slack_text
from tests.faucet_core.notify.builders import notification

CONFIG = ProfilingConfig()
WITHOUT_RESCALE = tuple(s for s in STAGES if s[0] != "rescale")


def _run(values: list[int] | list[float], other: int = 0) -> TableProfile:
    return profile(pa.table({"n": values, "k": [other + i for i in range(len(values))]}))


def _counts(day: int, rows: int = 40) -> list[int]:
    """A mostly-zero count (copies of an email): 0 on 85 % of rows, 1 to 12 otherwise."""
    rng = random.Random(day)
    return [0 if rng.random() < 0.85 else rng.randint(1, 12) for _ in range(rows)]


COUNTS = [_run(_counts(day)) for day in range(20)]


def test_a_mostly_zero_count_divided_by_1000_heads_with_its_max() -> None:
    scaled = [v / 1000 for v in _counts(99)]
    # the level alone says nothing: a day of zeros is as low, and no mean or max test fires
    alone = run_detection(_run(scaled), COUNTS, CONFIG, stages=WITHOUT_RESCALE).findings
    assert [(f.column, f.metric) for f in alone] == [("n", DriftMetric.TYPE_MIX)]
    (finding,) = detect_drift(_run(scaled), COUNTS, CONFIG)
    assert (finding.column, finding.metric, finding.test) == ("n", DriftMetric.MAX, DriftTest.RATIO)
    assert [e.metric for e in finding.evidence] == [DriftMetric.TYPE_MIX]
    assert finding.value == max(scaled)
    assert finding.score > 100  # about 1,000 times below the baseline's median maximum
    assert "times smaller" in finding.message
    assert "whole numbers became fractional: a rescale" in finding.message


def test_one_record_a_day_divided_by_1000_heads_with_its_max() -> None:
    rng = random.Random(3)
    sizes = [int(500 * 10 ** rng.uniform(0, 3.5)) for _ in range(20)]  # 500 to ~1.6M people
    baseline = [_run([s]) for s in sizes]
    (finding,) = detect_drift(_run([sizes[7] / 1000]), baseline, CONFIG)
    assert (finding.metric, finding.test) == (DriftMetric.MAX, DriftTest.RATIO)
    assert finding.value < finding.expected_low  # below every baseline run's size


def test_fractions_turned_whole_and_larger_head_with_their_max() -> None:
    rng = random.Random(5)
    baseline = [_run([round(rng.uniform(1, 40), 2) for _ in range(30)]) for _ in range(20)]
    cents = [int(rng.uniform(1, 40) * 100) for _ in range(30)]  # dollars sent as cents
    (finding,) = detect_drift(_run(cents), baseline, CONFIG)
    assert finding.metric in (DriftMetric.MEAN, DriftMetric.MIN, DriftMetric.MAX)
    rescaled = [f for f in finding.findings if f.test is DriftTest.RATIO]
    assert all("fractional numbers became whole" in f.message for f in rescaled)


def test_a_cast_to_fractions_without_a_level_change_stays_a_type_mix() -> None:
    (finding,) = detect_drift(_run([float(v) for v in _counts(99)]), COUNTS, CONFIG)
    assert finding.metric is DriftMetric.TYPE_MIX
    assert finding.evidence == ()


def test_a_level_inside_the_baseline_runs_is_no_rescale() -> None:
    # a baseline that already held runs as small: the type changed, the level did not leave it
    low = [_run([v / 1000 for v in _counts(day)]) for day in range(3)]
    mixed = [*COUNTS[:17], *low]
    column, past = _run([v // 1 for v in _counts(99)]), [p.columns["n"] for p in mixed]
    assert rescale_finding("n", column.columns["n"], past, "integer") is None


def test_a_negative_column_is_judged_by_its_min() -> None:
    base = [_run([-v for v in _counts(day)]) for day in range(20)]
    (finding,) = detect_drift(_run([-v / 1000 for v in _counts(99)]), base, CONFIG)
    assert (finding.metric, finding.test) == (DriftMetric.MIN, DriftTest.RATIO)
    assert finding.value < 0


def test_a_notification_names_the_factor() -> None:
    (finding,) = detect_drift(_run([v / 1000 for v in _counts(99)]), COUNTS, CONFIG)
    text = slack_text(notification(NotifiedFinding.of(finding)))
    assert "times smaller" in text


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 10**6), min_size=1, max_size=6),
    st.integers(5, 12),
    st.sampled_from([1e-3, 1e-2, 0.5, 1.0, 100.0, 1e4]),
    st.integers(0, 2**16),
)
def test_the_rescale_adds_no_alarm_and_agrees_with_its_message(
    seed_values: list[int], runs: int, factor: float, seed: int
) -> None:
    rng = random.Random(seed)
    top = max(seed_values) + 1

    def draw(rows: int) -> list[int]:
        return [
            rng.choice(seed_values) if rng.random() < 0.5 else rng.randrange(top)
            for _ in range(rows)
        ]

    baseline = [_run(draw(rng.randint(1, 8))) for _ in range(runs)]
    now = _run([v * factor for v in draw(rng.randint(1, 8))])
    full = run_detection(now, baseline, CONFIG)
    assert run_detection(now, baseline, CONFIG).findings == full.findings  # deterministic
    without = run_detection(now, baseline, CONFIG, stages=WITHOUT_RESCALE)
    assert {f.column for f in full.findings} == {f.column for f in without.findings}
    for head in full.findings:
        for f in head.findings:
            if f.test is not DriftTest.RATIO:
                continue
            assert f.expected_low is not None
            assert f.expected_high is not None
            assert not f.expected_low <= f.value <= f.expected_high
            assert f.score > f.threshold == RESCALE_FACTOR
            assert fmt_number(f.value, f.statistic) in f.message
            assert fmt_number(f.baseline_center, f.statistic) in f.message
            ratio = abs(f.value / f.baseline_center)
            assert f.score == pytest.approx(max(ratio, 1 / ratio))
