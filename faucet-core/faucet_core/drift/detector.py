"""``detect_drift``: a run's profile against its rolling baseline, as an ordered list of
named stages.

:data:`STAGES` is the whole pipeline, in order; each stage reads and extends one
:class:`Detection` (the run, its kept baseline, the per-column histories computed once,
the tests gathered, the findings so far, and how often each rule cleared a finding).
:func:`run_detection` returns that record, :func:`detect_drift` its findings.

1. ``history``: the baseline kept (the newest ``window`` runs with records) and, per
   column, its past profiles and weekdays, once;
2. ``volume``: the run's row count against the baseline's (an empty run always);
   ``count_never_changed``: a count that every run on record (the window and the
   memory) wrote alike, changed by at least the floor (:mod:`faucet_core.drift.rows`);
3. ``type_mix``: JSON types the baseline never held at that share;
4. ``run_labels``: columns with one value per run are judged by their step;
5. ``series_tests``: every (column, statistic) pair with a baseline series;
6. ``value_tests``: new, vanished and shifted values of the stable categories;
7. ``budget``: the run's false-alarm budget shared among every test of 5 and 6, then
   the series judged;
8. ``nulls_new_to_the_column``: nulls in a column that held none in any run on record
   (the window and the memory), judged once for the run against the table's own rate
   of first nulls (:mod:`faucet_core.drift.newnulls`);
   ``means_of_moved_columns``: the mean of a column its min or max found, judged as
   one test (:mod:`faucet_core.drift.shift`);
   ``lengths_follow_the_mix``: string lengths of a column whose values were all seen
   before move only with the mix, which the value tests judge;
   ``lengths_follow_the_calendar``: string lengths of dates written as text, in an
   unchanged format, move with the calendar;
9. ``counts_follow_the_values``: the distinct count of a column whose every value is
   listed, in the run and the baseline, is what the value tests judge value by value;
10. ``rescale``: a column whose numbers changed JSON type (whole to fractional) with no
    finding on its level gets its extreme when a rescale moved it beyond every baseline
    run by a factor of ten or more;
11. ``root_cause``: one finding per column, headed by its most specific cause;
12. ``seen_before_the_window``: a column finding that at least two runs older than the
    window (up to ``memory`` of them) matched in every part is the column's own past
    (:mod:`faucet_core.drift.memory`); the older runs are read only when there is a
    finding to match.

The rules that clear a candidate finding (a normal weekday, a calm day of readings, an
extreme of fewer draws, ...) are counted under their names in ``Detection.cleared``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from faucet_core.config import ProfilingConfig
from faucet_core.drift.categories import stable_category, value_findings
from faucet_core.drift.labels import run_label_findings
from faucet_core.drift.limits import tail_probability
from faucet_core.drift.memory import seen_before
from faucet_core.drift.model import DriftFinding, DriftMetric
from faucet_core.drift.newnulls import NEW_NULL_TESTS, new_null_candidates, new_null_findings
from faucet_core.drift.rescale import LEVEL_METRICS, NUMERIC_TYPES, rescale_finding
from faucet_core.drift.rootcause import one_per_column
from faucet_core.drift.rows import (
    VOLUME_TESTS,
    constant_count_finding,
    empty_run_finding,
    is_row_position,
    row_count_test,
)
from faucet_core.drift.seriestests import SeriesTest, judge_series, series_tests, table_tail
from faucet_core.drift.shift import means_of_moved_columns
from faucet_core.drift.spread import spread_factor, spread_rescaled
from faucet_core.drift.tail import TailEvidence
from faucet_core.drift.typemix import type_mix
from faucet_core.drift.valuelist import (
    ValueList,
    calendar_formats,
    is_calendar,
    value_lists,
)
from faucet_core.drift.weekly import run_times, weekday_of
from faucet_core.profile.model import ColumnProfile
from faucet_core.profile.table import TableProfile

__all__ = ["STAGES", "ColumnHistory", "Detection", "detect_drift", "run_detection"]

_METRIC_ORDER = {metric: index for index, metric in enumerate(DriftMetric)}


@dataclass(frozen=True)
class ColumnHistory:
    """One column of the run with the baseline runs that hold it."""

    name: str
    column: ColumnProfile
    past: list[ColumnProfile]
    top_values: list[int]
    """Each baseline run's top_values setting (aligned with ``past``)."""
    weekdays: tuple[int, list[int]] | None


@dataclass
class Detection:
    """What one run's detection read, gathered and found."""

    current: TableProfile
    config: ProfilingConfig
    baseline: list[TableProfile]
    times: tuple[dt.datetime, list[dt.datetime | None]] | None
    kept: list[tuple[TableProfile, dt.datetime | None]] = field(default_factory=list)
    columns: list[ColumnHistory] = field(default_factory=list)
    tests: list[SeriesTest] = field(default_factory=list)
    value_candidates: list[tuple[ColumnHistory, ValueList, list[ValueList]]] = field(
        default_factory=list
    )
    findings: list[DriftFinding] = field(default_factory=list)
    cleared: Counter[str] = field(default_factory=Counter)
    """Rule name -> candidate findings it cleared in this run."""
    tail: TailEvidence | None = None
    """What the baseline's own runs said of the table's tail (stage ``budget``)."""
    done: bool = False
    """Set by a stage that settled the run (too short a baseline, an empty run)."""
    older: Older | None = None
    """The runs before the window (stage ``seen_before_the_window``)."""

    @property
    def budget_tests(self) -> int:
        """The tests sharing the run's column budget: series tests and value families."""
        return len(self.tests) + len(self.value_candidates)

    def share_of_budget(self, tests: int) -> float:
        """One test's false-alarm probability when ``tests`` share the run's budget."""
        tail = tail_probability(self.config.method, self.config.effective_sensitivity)
        return tail / max(tests, 1)


Stage = Callable[[Detection], None]

Older = Sequence[TableProfile] | Callable[[], Sequence[TableProfile]]
"""The runs before the window, oldest first, or a function that reads them (called only
when a finding needs them)."""


def _history(d: Detection) -> None:
    times = d.times
    d.kept = [
        (p, None if times is None else times[1][i])
        for i, p in enumerate(d.baseline)
        if i >= len(d.baseline) - d.config.window and p.row_count > 0
    ]
    if d.current.row_count == 0:
        return
    if len(d.baseline) < d.config.min_history:
        d.done = True
        return
    for name, column in d.current.columns.items():
        held = [(p, t) for p, t in d.kept if name in p.columns]
        if len(held) < d.config.min_history:
            continue  # new this run: learned, not judged
        weekdays = (
            None
            if times is None
            else (weekday_of(times[0]), [weekday_of(t) for _, t in held if t is not None])
        )
        d.columns.append(
            ColumnHistory(
                name,
                column,
                [p.columns[name] for p, _ in held],
                [p.params.top_values for p, _ in held],
                weekdays,
            )
        )


def _volume(d: Detection) -> None:
    if d.current.row_count == 0:
        empty = empty_run_finding(d.current, [p for p, _ in d.kept])
        if empty is not None:
            d.findings.append(empty)
        d.done = True  # nothing else to judge in a run with no records
        return
    test = row_count_test(d.current, d.kept, d.times, d.config.min_history)
    if test is not None:
        d.findings.extend(judge_series([test], d.config, VOLUME_TESTS, d.cleared))


def _count_never_changed(d: Detection) -> None:
    """A record count that every run on record wrote alike, now changed by at least the
    floor; the older runs are read only when the window's count was constant."""
    if any(f.metric is DriftMetric.ROW_COUNT for f in d.findings):
        return
    window = [p for p, _ in d.kept]
    if constant_count_finding(d.current, window, d.config.min_history) is None:
        return
    runs = [p for p in _older_runs(d) if p.row_count > 0] + window
    finding = constant_count_finding(d.current, runs, d.config.min_history)
    if finding is not None:
        d.findings.append(finding)


def _type_mix(d: Detection) -> None:
    for h in d.columns:
        d.findings.extend(type_mix(h.name, h.column, h.past, d.config.new_value_min_share))


def _run_labels(d: Detection) -> None:
    """Run labels are judged by their step; of their series only the null rate stays."""
    rest = []
    for h in d.columns:
        clock = None
        if d.times is not None:
            held = [t for p, t in d.kept if h.name in p.columns]
            known = [t for t in held if t is not None]
            if len(known) == len(held):
                clock = (d.times[0], known)
        label = run_label_findings(h.name, h.column, h.past, d.config.min_history, clock)
        if label is None:
            rest.append(h)
            continue
        d.findings.extend(label)
        d.tests.extend(
            t
            for t in series_tests(h.name, h.column, h.past, d.config.min_history, h.weekdays)
            if t.spec.metric is DriftMetric.NULL_RATE
        )
    d.columns = rest


_POSITION_METRICS = frozenset(
    {DriftMetric.MEAN, DriftMetric.MIN, DriftMetric.MAX, DriftMetric.DISTINCT}
)


def _series_tests(d: Detection) -> None:
    for h in d.columns:
        tests = series_tests(h.name, h.column, h.past, d.config.min_history, h.weekdays)
        if is_row_position(h.column) and all(is_row_position(c) for c in h.past):
            # a row position follows the row count, which the volume test judges
            tests = [t for t in tests if t.spec.metric not in _POSITION_METRICS]
        d.tests.extend(tests)


def _value_tests(d: Detection) -> None:
    for h in d.columns:
        lists = value_lists(
            (h.column, d.current.params.top_values), list(zip(h.past, h.top_values, strict=True))
        )
        if lists is not None:
            d.value_candidates.append((h, lists[0], lists[1]))


def _budget(d: Detection) -> None:
    count = d.budget_tests
    d.tail = table_tail(d.tests)
    scale = d.tail.scale
    d.findings.extend(judge_series(d.tests, d.config, count, d.cleared, scale))
    for h, now, before in d.value_candidates:
        d.findings.extend(value_findings(h.name, now, before, d.config, count, d.cleared))


def _means_of_moved_columns(d: Detection) -> None:
    scale = d.tail.scale if d.tail is not None else 1.0
    d.findings.extend(means_of_moved_columns(d.tests, d.findings, d.config, scale))


def _lengths_follow_the_mix(d: Detection) -> None:
    """A column whose run lists all its values can change its string lengths only through
    its mix of values, when the value tests judge that mix: every value was listed in the
    baseline before, or the column is a stable category, whose new values the value tests
    judged (a light day's one record of a rare category is as long as that category). Its
    length findings are cleared, unless a value finding of the column keeps them as its
    evidence."""
    lengths = {f.column for f in d.findings if f.metric is DriftMetric.STRING_LENGTH}
    min_share = d.config.new_value_min_share
    settled = {
        h.name
        for h, now, before in d.value_candidates
        if h.name in lengths
        and not now.truncated
        and (
            set(now.shares) <= {k for lst in before for k in lst.shares}
            or stable_category(now, before, min_share)
        )
    }
    _clear_metric(d, DriftMetric.STRING_LENGTH, settled, "lengths_follow_the_mix")


def _lengths_follow_the_calendar(d: Detection) -> None:
    """A column of dates or timestamps written as text, in the same formats in the run as
    in the newest baseline run, changes its string lengths as the calendar does (10/9 is
    one character shorter than 10/10; a timestamp drops its leading zero at 9:00): its
    length findings are cleared, unless a value finding of the column keeps them as its
    evidence. A change of format (ISO text that arrives as 3/10/2016) is still judged."""
    dated = {
        h.name
        for h, now, before in d.value_candidates
        if before
        and is_calendar([now, before[-1]])
        and calendar_formats(now) == calendar_formats(before[-1])
    }
    _clear_metric(d, DriftMetric.STRING_LENGTH, dated, "lengths_follow_the_calendar")


def _counts_follow_the_values(d: Detection) -> None:
    """A column whose run and every baseline run list all of their values holds as many
    distinct values as its lists do, and the value tests judge each of those values (a
    new one by the column's rate of new values, a missing one by its share): its
    distinct findings add nothing and are cleared, unless a value finding of the column
    keeps them as its evidence."""
    listed = {
        h.name
        for h, now, before in d.value_candidates
        if not now.truncated and not any(lst.truncated for lst in before)
    }
    _clear_metric(d, DriftMetric.DISTINCT, listed, "counts_follow_the_values")


def _clear_metric(d: Detection, metric: DriftMetric, columns: set[str], rule: str) -> None:
    """Clear the ``metric`` findings of ``columns`` under ``rule``, except on a column
    with a finding of another metric, which keeps them as its evidence."""
    others = {f.column for f in d.findings if f.metric is not metric}
    kept = []
    for f in d.findings:
        if f.metric is metric and f.column in columns - others:
            d.cleared[rule] += 1
        else:
            kept.append(f)
    d.findings = kept


def _rescale(d: Detection) -> None:
    """A column whose numbers changed JSON type and whose mean and extremes no test
    found gets its rescaled extreme, when there is one (:mod:`faucet_core.drift.rescale`)."""
    scaled = {f.column for f in d.findings if f.metric in LEVEL_METRICS}
    retyped = {
        f.column: str(f.value_key)
        for f in d.findings
        if f.metric is DriftMetric.TYPE_MIX and f.value_key in NUMERIC_TYPES
    }
    alpha = d.share_of_budget(d.budget_tests)
    for h in d.columns:
        if h.name in scaled:
            continue
        found = None
        if h.name in retyped:
            found = rescale_finding(h.name, h.column, h.past, retyped[h.name])
        elif spread_rescaled(h.column, h.past, alpha):
            factor = spread_factor(h.column, h.past)
            found = rescale_finding(h.name, h.column, h.past, None, spread=factor)
        if found is not None:
            d.findings.append(found)


def _root_cause(d: Detection) -> None:
    order = {name: index + 1 for index, name in enumerate(d.current.columns)}
    d.findings.sort(key=lambda f: (order.get(f.column, 0), _METRIC_ORDER[f.metric]))
    d.findings = one_per_column(d.findings)


def _older_runs(d: Detection) -> list[TableProfile]:
    """The runs before the window that ``memory`` keeps, read on first use (once)."""
    if d.older is None or d.config.memory <= 0:
        return []
    if callable(d.older):
        d.older = list(d.older())
    return list(d.older)[-d.config.memory :]


def _nulls_new_to_the_column(d: Detection) -> None:
    """Nulls in a column that held none in any run on record, judged once for the run
    against the table's own rate of first nulls (:mod:`faucet_core.drift.newnulls`)."""
    found = {f.column for f in d.findings if f.metric is DriftMetric.NULL_RATE}
    window = [p for p, _ in d.kept]
    candidates = [c for c in new_null_candidates(d.current, window) if c not in found]
    if not candidates:
        return
    runs = [p for p in _older_runs(d) if p.row_count > 0] + window
    alpha = d.share_of_budget(NEW_NULL_TESTS)
    d.findings.extend(
        new_null_findings(
            d.current, runs, candidates, min_history=d.config.min_history, alpha=alpha
        )
    )


def _seen_before_the_window(d: Detection) -> None:
    """Clear the column findings that older runs matched (:mod:`faucet_core.drift.memory`)."""
    if not d.findings:
        return
    older = _older_runs(d)
    if not older:
        return
    kept = []
    for f in d.findings:
        if seen_before(f, older):
            d.cleared["seen_before_the_window"] += 1
        else:
            kept.append(f)
    d.findings = kept


STAGES: tuple[tuple[str, Stage], ...] = (
    ("history", _history),
    ("volume", _volume),
    ("count_never_changed", _count_never_changed),
    ("type_mix", _type_mix),
    ("run_labels", _run_labels),
    ("series_tests", _series_tests),
    ("value_tests", _value_tests),
    ("budget", _budget),
    ("nulls_new_to_the_column", _nulls_new_to_the_column),
    ("means_of_moved_columns", _means_of_moved_columns),
    ("lengths_follow_the_mix", _lengths_follow_the_mix),
    ("lengths_follow_the_calendar", _lengths_follow_the_calendar),
    ("counts_follow_the_values", _counts_follow_the_values),
    ("rescale", _rescale),
    ("root_cause", _root_cause),
    ("seen_before_the_window", _seen_before_the_window),
)
"""The detection pipeline, in order (see the module docstring)."""


def run_detection(
    current: TableProfile,
    baseline: Sequence[TableProfile],
    config: ProfilingConfig,
    *,
    current_time: dt.datetime | None = None,
    baseline_times: Sequence[dt.datetime] | None = None,
    older: Older | None = None,
    stages: Sequence[tuple[str, Stage]] = STAGES,
) -> Detection:
    """Run ``stages`` over one run and return what they gathered (see
    :func:`detect_drift` for the arguments)."""
    times = run_times(current_time, baseline_times, len(baseline))
    d = Detection(
        current=current,
        config=config,
        baseline=list(baseline),
        times=None if times is None else (times[0], list(times[1])),
        older=older,
    )
    for name, stage in stages:
        stage(d)
        if d.done and name != "root_cause":
            _root_cause(d)
            break
    return d


def detect_drift(
    current: TableProfile,
    baseline: Sequence[TableProfile],
    config: ProfilingConfig,
    *,
    current_time: dt.datetime | None = None,
    baseline_times: Sequence[dt.datetime] | None = None,
    older: Older | None = None,
) -> list[DriftFinding]:
    """The drift findings of ``current`` against ``baseline`` (the rolling window of
    earlier runs, oldest first): at most one per column, in column order, headed by the
    column's most specific cause with its other drifted metrics as ``evidence``
    (:mod:`faucet_core.drift.rootcause`); a table-level ``row_count`` finding (column
    ``""``) first when the run's volume left its band.

    A run that wrote no records after a baseline with records is always a finding
    (``row_count``), even while the baseline is warming up. Otherwise returns ``[]``
    while the baseline holds fewer than ``config.min_history`` runs (the caller reports
    the run as warming up). Only the newest ``config.window`` baseline runs are used. A
    column that the baseline holds in fewer than ``min_history`` runs is learned, not
    judged.

    ``current_time`` and ``baseline_times`` (one per baseline run) are when the runs
    were recorded; with them, a series with a weekly pattern is judged against the
    same weekday (:mod:`faucet_core.drift.weekly`). Pass both or neither; without
    them every run counts alike.

    ``older`` are the runs before the window (oldest first; the newest ``config.memory``
    of them are read), or a function returning them, called only when the run has a
    finding or a column's first nulls: a column finding that two of them matched in
    every part is cleared (:mod:`faucet_core.drift.memory`), and a column with a null
    in one of them holds no first nulls (:mod:`faucet_core.drift.newnulls`). Without
    them nothing is cleared this way, and the window alone is the record.
    """
    return run_detection(
        current,
        baseline,
        config,
        current_time=current_time,
        baseline_times=baseline_times,
        older=older,
    ).findings
