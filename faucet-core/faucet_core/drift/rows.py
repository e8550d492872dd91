"""Volume: the run's row count as a table-level statistic.

A delivery that lost 40 % of its records, or wrote none, changes no column's shape; it
changes the table's volume. The row count is judged like a series statistic, on the
ratio scale (a count's noise is multiplicative), against its own weekday when the runs'
times show a weekly pattern (a Saturday's lighter load is normal, and a Tuesday as light
as a Saturday is not), above a floor of 20 % of the baseline's level (a holiday weekend's
15 % is routine; a 40 % loss is not). It has no sampling law of its own (a table's
records are what was delivered, not a sample), so its band comes from the baseline's
run-to-run spread; and as one statistic that every table has, it gets a fixed share of
the run's false-alarm budget (it is judged as one of :data:`VOLUME_TESTS` tests),
however many columns the table has. A run with no records after a baseline with
records is always a finding.

A baseline whose runs all wrote the same number of records is judged on the floor alone,
and a change of one record is never above a floor of one record: a panel of two rows a day
that delivered one would pass. So a count that left a record of runs that never changed it
(the window and the detector's memory, at least ``min_history`` runs) is judged apart: a
change of at least the floor (20 % of the count, and at least one record) is a finding. On
the tune half of the benchmark corpus, quiet days whose runs on record (at least 20) all
held one count changed it on 1 day of 47,008: a count a table has never changed is not one
it changes by chance.

Findings carry the column ``""`` (the table) and the metric ``row_count``.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence

from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.numfmt import fmt_number
from faucet_core.drift.series import ROW_COUNT
from faucet_core.drift.seriestests import SeriesTest
from faucet_core.drift.weekly import weekday_of
from faucet_core.profile.model import ColumnProfile
from faucet_core.profile.table import TableProfile

__all__ = [
    "TABLE",
    "VOLUME_TESTS",
    "constant_count_finding",
    "empty_run_finding",
    "is_row_position",
    "row_count_test",
    "table_column",
]

TABLE = ""
"""The column name of a table-level finding."""
VOLUME_TESTS = 4
"""The row count is judged with a quarter of the run's budget (as one of four tests)."""


def table_column(profile: TableProfile) -> ColumnProfile:
    """The table as a column profile that holds only its row count."""
    return ColumnProfile(
        name=TABLE,
        row_count=profile.row_count,
        null_count=0,
        types={},
        distinct=0,
        numeric=None,
        string=None,
        top_values=None,
        high_cardinality=False,
    )


def row_count_test(
    current: TableProfile,
    kept: Sequence[tuple[TableProfile, dt.datetime | None]],
    times: tuple[dt.datetime, Sequence[dt.datetime | None]] | None,
    min_history: int,
) -> SeriesTest | None:
    """The row-count test of a run with records, or None with too short a baseline."""
    past = [table_column(p) for p, _ in kept]
    if len(past) < min_history:
        return None
    value = ROW_COUNT.read(table_column(current))
    if value is None:
        return None
    today: int | None = None
    days: tuple[int, ...] = ()
    if times is not None and all(t is not None for _, t in kept):
        today = weekday_of(times[0])
        days = tuple(weekday_of(t) for _, t in kept if t is not None)
    return SeriesTest(
        TABLE,
        table_column(current),
        past,
        ROW_COUNT,
        value,
        [float(c.row_count) for c in past],
        floor=lambda center: ROW_COUNT.floor(center, 0.0),
        step=ROW_COUNT.step,
        today=today,
        days=days,
    )


def empty_run_finding(current: TableProfile, kept: Sequence[TableProfile]) -> DriftFinding | None:
    """The finding of a run that wrote no records after runs that wrote some."""
    counts = [p.row_count for p in kept if p.row_count > 0]
    if current.row_count != 0 or not counts:
        return None
    mean = math.fsum(counts) / len(counts)
    runs = len(counts)
    message = (
        f"row_count: the run wrote no records; each of {runs} baseline "
        f"run{'' if runs == 1 else 's'} wrote some ({fmt_number(min(counts))} to "
        f"{fmt_number(max(counts))})"
    )
    return DriftFinding(
        column=TABLE,
        metric=DriftMetric.ROW_COUNT,
        message=message,
        value=0.0,
        baseline_center=mean,
        baseline_spread=0.0,
        score=mean,
        threshold=0.0,
        test=DriftTest.FLOOR,
        baseline_runs=runs,
        statistic="rows",
        floor=0.0,
        expected_low=float(min(counts)),
        expected_high=float(max(counts)),
    )


def constant_count_finding(
    current: TableProfile, runs: Sequence[TableProfile], min_history: int
) -> DriftFinding | None:
    """The finding of a run whose record count differs by at least the row-count floor
    from the one count every run of ``runs`` (the runs on record with records, at least
    ``min_history``) wrote; None otherwise."""
    counts = {p.row_count for p in runs}
    if len(runs) < min_history or len(counts) != 1 or current.row_count == 0:
        return None
    (count,) = counts
    floor = ROW_COUNT.floor(float(count), 0.0)
    change = abs(current.row_count - count)
    if change < floor:
        return None
    n = len(runs)
    message = (
        f"row_count: rows {fmt_number(float(current.row_count))} where each of its "
        f"{fmt_number(float(n))} runs on record wrote {fmt_number(float(count))}, a count "
        f"it never changed — change {fmt_number(float(change))}, at or above the floor "
        f"{fmt_number(floor)}"
    )
    return DriftFinding(
        column=TABLE,
        metric=DriftMetric.ROW_COUNT,
        message=message,
        value=float(current.row_count),
        baseline_center=float(count),
        baseline_spread=0.0,
        score=float(change),
        threshold=floor,
        test=DriftTest.FLOOR,
        baseline_runs=n,
        statistic="rows",
        floor=floor,
        expected_low=float(count),
        expected_high=float(count),
    )


def is_row_position(column: ColumnProfile) -> bool:
    """A column that numbers the run's rows (a ``reset_index()`` position: 0 .. n - 1 or
    1 .. n, no nulls): its mean, extremes and distinct count are the row count's, which
    the volume test judges; judged as a measurement it alarms whenever volume moves."""
    n = column.numeric
    if n is None or column.null_count or n.count != column.row_count or n.count < 2:
        return False
    if n.min not in (0.0, 1.0) or n.max - n.min + 1 != n.count:
        return False
    return abs(n.mean - (n.min + n.max) / 2) <= 1e-9 * max(abs(n.max), 1.0)
