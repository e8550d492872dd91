"""``detect_drift``: every column of a run against its rolling baseline."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from faucet_core.config import ProfilingConfig
from faucet_core.drift.labels import label_finding, label_value
from faucet_core.drift.model import DriftFinding, DriftMetric
from faucet_core.drift.psi import psi_finding
from faucet_core.drift.rootcause import one_per_column
from faucet_core.drift.seriestests import SeriesTest, judge_series, series_tests
from faucet_core.drift.typemix import type_mix
from faucet_core.drift.valuelist import is_calendar, is_churning, is_measurement, value_lists
from faucet_core.drift.values import new_values, vanished_values
from faucet_core.drift.weekly import run_times, weekday_of
from faucet_core.profile.model import ColumnProfile
from faucet_core.profile.table import TableProfile

__all__ = ["detect_drift"]

_METRIC_ORDER = {metric: index for index, metric in enumerate(DriftMetric)}


def detect_drift(
    current: TableProfile,
    baseline: Sequence[TableProfile],
    config: ProfilingConfig,
    *,
    current_time: dt.datetime | None = None,
    baseline_times: Sequence[dt.datetime] | None = None,
) -> list[DriftFinding]:
    """The drift findings of ``current`` against ``baseline`` (the rolling window of
    earlier runs, oldest first): at most one per column, in column order, headed by the
    column's most specific cause with its other drifted metrics as ``evidence``
    (:mod:`faucet_core.drift.rootcause`).

    Returns ``[]`` while the baseline holds fewer than ``config.min_history`` runs (the
    caller reports the run as warming up) and for a run that wrote no records. Only
    the newest ``config.window`` baseline runs are used. A column that the baseline
    holds in fewer than ``min_history`` runs is learned, not judged.

    ``current_time`` and ``baseline_times`` (one per baseline run) are when the runs
    were recorded; with them, a series with a weekly pattern is judged against the
    same weekday (:mod:`faucet_core.drift.weekly`). Pass both or neither; without
    them every run counts alike.
    """
    times = run_times(current_time, baseline_times, len(baseline))
    kept = [
        (p, None if times is None else times[1][i])
        for i, p in enumerate(baseline)
        if i >= len(baseline) - config.window and p.row_count > 0
    ]
    if len(baseline) < config.min_history or current.row_count == 0:
        return []
    findings: list[DriftFinding] = []
    tests: list[SeriesTest] = []
    for name, column in current.columns.items():
        held = [(p, t) for p, t in kept if name in p.columns]
        past = [(p.columns[name], p.params.top_values) for p, _ in held]
        weekdays = (
            None
            if times is None
            else (weekday_of(times[0]), [weekday_of(t) for _, t in held if t is not None])
        )
        if len(past) < config.min_history:
            continue
        columns = [c for c, _ in past]
        findings.extend(type_mix(name, column, columns, config.new_value_min_share))
        label = _run_label(name, column, columns, config.min_history)
        if label is not None:
            tests.extend(
                t
                for t in series_tests(name, column, columns, config.min_history, weekdays)
                if t.spec.metric is DriftMetric.NULL_RATE
            )
            findings.extend(label)
            continue
        tests.extend(series_tests(name, column, columns, config.min_history, weekdays))
        findings.extend(_value_findings(name, (column, current.params.top_values), past, config))
    findings.extend(judge_series(tests, config))
    order = {name: index for index, name in enumerate(current.columns)}
    findings.sort(key=lambda f: (order[f.column], _METRIC_ORDER[f.metric]))
    return one_per_column(findings)


def _run_label(
    name: str, column: ColumnProfile, past: Sequence[ColumnProfile], min_history: int
) -> list[DriftFinding] | None:
    """The findings of a run label (one value per run, see
    :mod:`faucet_core.drift.labels`), or None when the column is not one."""
    now = label_value(column)
    if now is None:
        return None
    before = [label_value(c) for c in past]
    if any(v is None for v in before):
        return None
    found = label_finding(name, now, before, min_history)
    return [] if found is None else [found]


def _value_findings(
    name: str,
    current: tuple[ColumnProfile, int],
    past: Sequence[tuple[ColumnProfile, int]],
    config: ProfilingConfig,
) -> list[DriftFinding]:
    lists = value_lists(current, past)
    if lists is None:
        return []
    now, before = lists
    if is_measurement(before):
        return []
    min_share = config.new_value_min_share
    findings = new_values(name, now, before, min_share)
    findings.extend(vanished_values(name, now, before, min_share))
    if not findings:
        psi = psi_finding(name, now, before, config.psi_threshold, min_share)
        if psi is not None:
            findings.append(psi)
    # Only stable categories are judged (checked last: most runs have nothing to drop).
    if findings and (is_calendar([now, before[-1]]) or is_churning(before, min_share)):
        return []
    return findings
