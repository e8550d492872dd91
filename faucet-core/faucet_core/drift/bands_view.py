"""The bands the detector judges a run's series against, for views that draw them.

A stored finding carries the band of the metric that drifted (``expected_low`` ..
``expected_high``); a metric that did not drift leaves no band behind. A chart that
explains a finding (or its absence) needs the band of every drawn series, so
:func:`series_bands` returns it for one run and its baseline, by running the detector's
own stages up to the tests (:data:`~faucet_core.drift.detector.STAGES`: history, run
labels, series tests, value tests) and judging each series test with the detector's own
judge, at the run's budget (every series and value test of the run shares it) and with
its limits widened by the table's own tail (:func:`~faucet_core.drift.seriestests.
table_tail`), as the budget stage does — the same band
:func:`~faucet_core.drift.detect_drift` compares the value with, not a copy of it.

What the band is not: the rules that clear a candidate finding afterwards (the same
weekday, an extreme the baseline has seen or the run's own draws explain, a calm day of
readings) are not applied, so a value can sit outside its band without a finding;
``SeriesBand.outside`` says the band alone would have flagged it. The row count is
judged against its weekday when the history follows the week, as the detector judges it.

Pure: no I/O.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from faucet_core.config import ProfilingConfig
from faucet_core.drift.band import Band
from faucet_core.drift.detector import STAGES, run_detection
from faucet_core.drift.model import DriftMetric
from faucet_core.drift.rows import TABLE, VOLUME_TESTS, row_count_test
from faucet_core.drift.series import SeriesTest, judge_test
from faucet_core.drift.seriestests import table_tail
from faucet_core.profile.table import TableProfile

__all__ = ["TEST_STAGES", "SeriesBand", "series_bands"]

TEST_STAGES = ("history", "run_labels", "series_tests", "value_tests")
"""The detector's stages that gather a run's tests (and their count) without judging."""


@dataclass(frozen=True)
class SeriesBand:
    """The band one series of one run was judged against, on the metric's own scale."""

    column: str
    """The column, or ``""`` for the table's row count."""
    metric: DriftMetric
    statistic: str
    """``null_rate``, ``mean``, ``len_mean``, ``len_max``, ``rows``..."""
    value: float
    """The run's value as a user reads it (a distinct count, not its volume ratio)."""
    low: float
    high: float
    center: float
    outside: bool
    """The band alone flags the value (a clearing rule may still have kept it quiet)."""
    baseline_runs: int


def _band(test: SeriesTest, band: Band) -> SeriesBand:
    value, band = test.shown(band)
    return SeriesBand(
        column=test.column,
        metric=test.spec.metric,
        statistic=test.spec.statistic,
        value=value,
        low=band.low,
        high=band.high,
        center=band.center,
        outside=band.drifted,
        baseline_runs=band.runs,
    )


def series_bands(
    current: TableProfile,
    baseline: Sequence[TableProfile],
    config: ProfilingConfig,
    *,
    current_time: dt.datetime | None = None,
    baseline_times: Sequence[dt.datetime] | None = None,
    columns: Collection[str] | None = None,
) -> dict[tuple[str, str], SeriesBand]:
    """The bands of ``current``'s series against ``baseline`` (oldest first, as
    :func:`~faucet_core.drift.detect_drift` takes it), keyed by (column, statistic), the
    row count under ``("", "rows")``; ``columns`` limits the columns judged (the budget
    is still the whole run's). Empty while the baseline is warming up."""
    stages = tuple((name, stage) for name, stage in STAGES if name in TEST_STAGES)
    d = run_detection(
        current,
        baseline,
        config,
        current_time=current_time,
        baseline_times=baseline_times,
        stages=stages,
    )
    out: dict[tuple[str, str], SeriesBand] = {}
    if d.done or current.row_count == 0:
        return out
    wanted = None if columns is None else set(columns)
    tests = d.budget_tests
    tail = table_tail(d.tests).scale  # as the budget stage widens every series limit
    for test in d.tests:
        if wanted is not None and test.column not in wanted:
            continue
        band = judge_test(test, test.value, test.series, config, tests, None, tail)
        out[(test.column, test.spec.statistic)] = _band(test, band)
    # the volume stage judges the row count alone, without the table's tail
    volume = row_count_test(d.current, d.kept, d.times, config.min_history)
    if volume is not None and (wanted is None or TABLE in wanted):
        band = judge_test(volume, volume.value, volume.series, config, VOLUME_TESTS, None)
        week = volume.week(volume.read_mask)
        if week is not None:
            band = judge_test(volume, volume.value, volume.series, config, VOLUME_TESTS, week)
        out[(TABLE, volume.spec.statistic)] = _band(volume, band)
    return out
