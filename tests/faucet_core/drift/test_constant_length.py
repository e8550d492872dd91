"""Text lengths off a baseline whose every text had one length (seriestests'
``constant_length_left_by_chance``, faucet_core.drift.draws.beyond_length_chance), on
real profiles: a mean length has no sampling spread to judge a constant length by, so
how many texts left it is judged. The first longer time of a runner's log of one run a
day is chance; a format every text of a full run takes is a finding."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift.detector import run_detection
from faucet_core.drift.draws import beyond_length_chance
from faucet_core.drift.model import DriftMetric

CONFIG = ProfilingConfig()


def _run(seed: int, times: list[str]) -> TableProfile:
    rng = random.Random(seed)
    return profile([{"time": t, "miles": rng.gauss(6.0, 1.0)} for t in times])


def _clock(rng: random.Random, hours: int) -> str:
    return f"{hours:02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}"


def _log(days: int, rows: int) -> list[TableProfile]:
    """Days of ``rows`` runs each, every time written hh:mm:ss (8 characters)."""
    rng = random.Random(7)
    return [_run(d, [_clock(rng, rng.randrange(1, 4)) for _ in range(rows)]) for d in range(days)]


def _length_findings(current: TableProfile, baseline: list[TableProfile]) -> list[str]:
    found = run_detection(current, baseline, CONFIG).findings
    return [f.message for f in found if f.column == "time"]


def test_one_longer_text_after_a_constant_length_is_chance() -> None:
    baseline = _log(20, 1)
    longer = _run(99, ["100:05:12"])  # 9 characters
    detection = run_detection(longer, baseline, CONFIG)
    assert [f for f in detection.findings if f.column == "time"] == []
    assert detection.cleared["constant_length_left_by_chance"] >= 1
    chance = beyond_length_chance(
        longer.columns["time"], [b.columns["time"] for b in baseline], 8.0, high=True
    )
    assert chance == pytest.approx(1 / 21)


def test_a_format_every_text_of_a_full_run_takes_is_a_finding() -> None:
    baseline = _log(20, 200)
    rng = random.Random(3)
    shorter = _run(99, [_clock(rng, 2)[3:] for _ in range(200)])  # mm:ss, 5 characters
    messages = _length_findings(shorter, baseline)
    assert messages
    assert "len_mean 5" in messages[0]
    detection = run_detection(shorter, baseline, CONFIG)
    assert detection.cleared.get("constant_length_left_by_chance", 0) == 0
    assert {f.metric for f in detection.findings if f.column == "time"} == {
        DriftMetric.STRING_LENGTH
    }


def test_a_baseline_of_several_lengths_is_not_this_rules_to_judge() -> None:
    rng = random.Random(5)
    baseline = [_run(d, [_clock(rng, 1)[rng.randrange(2) :]]) for d in range(20)]  # 7 or 8
    past = [b.columns["time"] for b in baseline]
    # the counts are bounds: every baseline text beyond 7 characters is marked
    chance = beyond_length_chance(_run(99, ["100:05:12"]).columns["time"], past, 7.0, high=True)
    assert chance is not None
    assert chance > 1 / 21


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(min_value=1, max_value=6),
    days=st.integers(min_value=5, max_value=20),
    longer=st.integers(min_value=0, max_value=6),
)
def test_the_chance_falls_with_the_texts_that_left_and_with_the_baseline(
    rows: int, days: int, longer: int
) -> None:
    longer = min(longer, rows)
    baseline = _log(days, rows)
    past = [b.columns["time"] for b in baseline]
    rng = random.Random(1)
    times = ["100:00:00"] * longer + [_clock(rng, 1) for _ in range(rows - longer)]
    current = _run(1, times).columns["time"]
    chance = beyond_length_chance(current, past, 8.0, high=True)
    assert chance is not None
    assert 0.0 <= chance <= 1.0
    if longer == 0 and current.top_values:
        assert chance == 1.0
    more = beyond_length_chance(current, past + past, 8.0, high=True)
    assert more is not None
    assert more <= chance
