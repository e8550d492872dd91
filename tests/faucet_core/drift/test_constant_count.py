"""A record count that every run on record wrote alike (``count_never_changed``,
:func:`faucet_core.drift.rows.constant_count_finding`): a panel of two rows a day that
delivers one is a finding, though a change of one record never exceeds the floor of one."""

from __future__ import annotations

import math
import re

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import DriftMetric, DriftTest, detect_drift
from faucet_core.drift.detector import STAGES, run_detection
from faucet_core.drift.rows import TABLE, constant_count_finding

CONFIG = ProfilingConfig()


def _day(seed: int, rows: int) -> TableProfile:
    """``rows`` markets' prices of one day (a panel: one row per market)."""
    rng = np.random.default_rng(seed)
    return profile(
        pa.table(
            {
                "market": [f"m{i}" for i in range(rows)],
                "price": rng.normal(100.0, 5.0, rows).round(2),
            }
        )
    )


def _row_findings(current: TableProfile, window: list[TableProfile], **kw: object) -> list:
    return [f for f in detect_drift(current, window, CONFIG, **kw) if f.column == TABLE]  # type: ignore[arg-type]


def test_a_panel_of_two_that_delivered_one_is_a_finding() -> None:
    window = [_day(s, 2) for s in range(20)]
    (finding,) = _row_findings(_day(99, 1), window)
    assert finding.metric is DriftMetric.ROW_COUNT
    assert finding.test is DriftTest.FLOOR
    assert (finding.value, finding.baseline_center, finding.floor) == (1.0, 2.0, 1.0)
    assert finding.message == (
        "row_count: rows 1 where each of its 20 runs on record wrote 2, a count it never "
        "changed — change 1, at or above the floor 1"
    )
    # the same panel one member larger, too
    assert _row_findings(_day(98, 3), window)


def test_an_older_run_with_another_count_leaves_it_to_the_band() -> None:
    """The memory is part of the record: a count the table changed before the window is
    one it changes."""
    window = [_day(s, 2) for s in range(20)]
    older = [_day(100 + s, 2) for s in range(30)] + [_day(200, 3)] + [_day(300, 2)]
    assert not _row_findings(_day(99, 1), window, older=older)
    assert _row_findings(_day(99, 1), window, older=[_day(100 + s, 2) for s in range(30)])


def test_older_runs_are_read_only_when_the_window_never_changed_the_count() -> None:
    calls: list[int] = []

    def older() -> list[TableProfile]:
        calls.append(1)
        return [_day(100 + s, 2) for s in range(5)]

    varying = [_day(s, 2 + s % 2) for s in range(20)]
    run_detection(_day(99, 5), varying, CONFIG, older=older, stages=STAGES[:3])
    assert calls == []
    window = [_day(s, 2) for s in range(20)]
    detection = run_detection(_day(99, 1), window, CONFIG, older=older, stages=STAGES[:3])
    assert calls == [1]
    assert [f.column for f in detection.findings] == [TABLE]


def test_a_change_under_the_floor_or_a_short_record_is_not_judged_here() -> None:
    window = [_day(s, 24) for s in range(20)]
    assert not _row_findings(_day(99, 23), window)  # 4 % of 24: under the floor of 4.8
    short = [_day(s, 2) for s in range(CONFIG.min_history - 1)]
    assert constant_count_finding(_day(99, 1), short, CONFIG.min_history) is None


def test_a_large_change_is_found_once_by_the_volume_test() -> None:
    window = [_day(s, 4) for s in range(20)]
    findings = _row_findings(_day(99, 2), window)
    assert len(findings) == 1
    assert "constant baseline" in findings[0].message


_NUMBERS = re.compile(
    r"rows (\d+) where each of its (\d+) runs on record wrote (\d+).*"
    r"change (\d+), at or above the floor ([\d.]+)$"
)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 40), now=st.integers(1, 80), runs=st.integers(3, 40))
def test_the_rule_and_its_message_agree(count: int, now: int, runs: int) -> None:
    """Found exactly when the change reaches max(20 % of the count, 1 record), with the
    figures of the message those of the finding."""
    record = [_day(s, count) for s in range(runs)]
    finding = constant_count_finding(_day(7, now), record, CONFIG.min_history)
    floor = max(0.2 * count, 1.0)
    assert (finding is not None) == (abs(now - count) >= floor and runs >= CONFIG.min_history)
    if finding is None:
        return
    match = _NUMBERS.search(finding.message)
    assert match is not None, finding.message
    rows, n, wrote, change, shown_floor = match.groups()
    assert (int(rows), int(n), int(wrote)) == (now, runs, count)
    assert int(change) == abs(now - count) == finding.score
    assert math.isclose(float(shown_floor), finding.floor, rel_tol=1e-3)
    assert finding.expected_low == finding.expected_high == count
