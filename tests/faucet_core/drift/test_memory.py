"""The runs before the window (``seen_before_the_window``, :mod:`faucet_core.drift.memory`)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import detect_drift
from faucet_core.drift.detector import run_detection
from faucet_core.drift.memory import SEEN_RUNS, seen_before

CONFIG = ProfilingConfig()
RULE = "seen_before_the_window"


def _day(seed: int, *, wind: float = 10.0, nulls: int = 0, label: str = "calm") -> TableProfile:
    """A day of 24 hourly readings: a wind speed around ``wind`` (its first ``nulls``
    readings missing) and a weather label."""
    rng = np.random.default_rng(seed)
    speeds = rng.normal(wind, 2.0, 24).round(1).tolist()
    for i in range(nulls):
        speeds[i] = None
    return profile(pa.table({"wind": speeds, "weather": [label] * 24}))


WINDOW = [_day(seed) for seed in range(20)]
"""Twenty calm days: the rolling window."""


def _wind(findings: list) -> list:
    return [f for f in findings if f.column == "wind"]


def test_a_windy_day_is_a_finding_against_calm_days_alone() -> None:
    assert _wind(detect_drift(_day(99, wind=80.0), WINDOW, CONFIG)) != []


def test_two_windy_days_before_the_window_make_it_the_columns_own_past() -> None:
    older = [_day(100 + s) for s in range(30)]
    older[3], older[17] = _day(200, wind=85.0), _day(201, wind=90.0)
    detection = run_detection(_day(99, wind=80.0), WINDOW, CONFIG, older=older)
    assert _wind(detection.findings) == []
    assert detection.cleared[RULE] == 1


def test_one_windy_day_before_the_window_is_not_enough() -> None:
    older = [_day(100 + s) for s in range(30)]
    older[3] = _day(200, wind=85.0)
    assert SEEN_RUNS == 2
    assert _wind(detect_drift(_day(99, wind=80.0), WINDOW, CONFIG, older=older)) != []


def test_older_days_not_as_far_out_do_not_clear() -> None:
    older = [_day(100 + s, wind=40.0) for s in range(30)]  # windy, but not as windy
    assert _wind(detect_drift(_day(99, wind=80.0), WINDOW, CONFIG, older=older)) != []


def test_memory_zero_turns_it_off() -> None:
    older = [_day(200 + s, wind=85.0) for s in range(5)]
    config = ProfilingConfig(memory=0)
    assert _wind(detect_drift(_day(99, wind=80.0), WINDOW, config, older=older)) != []


def test_only_the_newest_memory_runs_are_read() -> None:
    windy = [_day(200 + s, wind=85.0) for s in range(2)]
    calm = [_day(300 + s) for s in range(10)]
    config = ProfilingConfig(memory=10)
    assert _wind(detect_drift(_day(99, wind=80.0), WINDOW, config, older=windy + calm)) != []
    assert _wind(detect_drift(_day(99, wind=80.0), WINDOW, config, older=calm + windy)) == []


def test_a_null_rate_that_rises_is_never_the_columns_past() -> None:
    older = [_day(200 + s, nulls=12) for s in range(5)]
    found = _wind(detect_drift(_day(99, nulls=12), WINDOW, CONFIG, older=older))
    assert [f.metric.value for f in found] == ["null_rate"]


def _labels(seed: int, squalls: int) -> TableProfile:
    """A calm day's wind, its last ``squalls`` hours labelled "squall"."""
    speeds = np.random.default_rng(seed).normal(10.0, 2.0, 24).round(1).tolist()
    labels = ["calm"] * (24 - squalls) + ["squall"] * squalls
    return profile(pa.table({"wind": speeds, "weather": labels}))


def test_a_label_two_older_runs_listed_is_not_new() -> None:
    current = _labels(99, 10)
    assert [f.column for f in detect_drift(current, WINDOW, CONFIG)] == ["weather"]
    squally = [_labels(600, 12), _labels(601, 11)]
    older = [squally[0], _day(400), squally[1]]
    assert detect_drift(current, WINDOW, CONFIG, older=older) == []
    once = detect_drift(current, WINDOW, CONFIG, older=squally[:1])
    assert [f.column for f in once] == ["weather"]


def test_an_empty_run_is_reported_whatever_the_memory_holds() -> None:
    empty = profile(
        pa.table({"wind": pa.array([], pa.float64()), "weather": pa.array([], pa.string())})
    )
    found = detect_drift(empty, WINDOW, CONFIG, older=[empty, empty, empty])
    assert [f.metric.value for f in found] == ["row_count"]


def test_the_older_runs_are_read_only_when_there_is_a_finding() -> None:
    calls: list[int] = []

    def older() -> list[TableProfile]:
        calls.append(1)
        return [_day(200 + s, wind=85.0) for s in range(2)]

    assert detect_drift(_day(50), WINDOW, CONFIG, older=older) == []
    assert calls == []
    assert _wind(detect_drift(_day(99, wind=80.0), WINDOW, CONFIG, older=older)) == []
    assert calls == [1]


def test_a_table_level_finding_is_never_seen_before() -> None:
    light = profile(pa.table({"wind": [10.0] * 5, "weather": ["calm"] * 5}))
    found = detect_drift(light, WINDOW, CONFIG, older=[light] * 5)
    volume = [f for f in found if f.table_level]
    assert volume
    assert not seen_before(volume[0], [light] * 5)


@settings(max_examples=25, deadline=None)
@given(
    wind=st.floats(min_value=0.0, max_value=200.0),
    older_winds=st.lists(st.floats(min_value=0.0, max_value=200.0), max_size=6),
    nulls=st.integers(min_value=0, max_value=24),
)
def test_memory_only_ever_clears_and_is_deterministic(
    wind: float, older_winds: list[float], nulls: int
) -> None:
    current = _day(7, wind=wind, nulls=nulls)
    older = [_day(500 + i, wind=w) for i, w in enumerate(older_winds)]
    without = detect_drift(current, WINDOW, CONFIG)
    with_memory = detect_drift(current, WINDOW, CONFIG, older=older)
    # a first null's finding counts the runs on record, older ones too: compare by what
    # was found, not by its words
    found = {(f.column, f.metric, f.value) for f in with_memory}
    assert found <= {(f.column, f.metric, f.value) for f in without}
    assert with_memory == detect_drift(current, WINDOW, CONFIG, older=list(older))
    # what memory cleared, it cleared because two older runs matched the whole finding
    for f in without:
        if (f.column, f.metric, f.value) not in found:
            assert seen_before(f, older)
