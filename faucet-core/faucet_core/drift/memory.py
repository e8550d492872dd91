"""The runs before the window: a change the column already made, twice, is its own past.

The rolling window (``window``, 20 runs by default) is what a run is judged against: it
follows a table that grows or drifts slowly. It is also short. Twenty calm days do not
show that the wind blows hard now and then, twenty dry winter days that it snows, or a
month of one weather label that the station reported "Squall" last spring: a window
that never saw a column's seasonal or occasional values judges the first of them as
drift, on every table, every time they return.

A finding that survived every test is therefore read against the older runs
(``memory``, up to 365 runs before the window by default): when at least
:data:`SEEN_RUNS` of them were each at least as far out as the run, on the same side,
in **every** statistic of the column's finding at once (its head and its evidence), or
listed the same new value among their top values, the column has been here before and
the finding is cleared (counted as ``seen_before_the_window``). The figures of one such
run are a day like this one; two are a pattern, not one past incident.

What memory never clears:

* a rise of a null rate: nulls that return are a defect that returns;
* the table's volume (``row_count``) and an empty run: the volume has its own weekly
  model, and a run that wrote nothing is always reported;
* a finding with any part that has no single figure to compare (type mix, a vanished
  value, PSI, a run label), since its whole finding cannot be matched;
* anything on a column the older runs do not hold.

A rescale (x100, /1000) or text in a numeric column lands beyond every run the column
ever had, and a new category was never among its values; those stay findings. The cost
is a fault that repeats a state the column was in twice before (a sensor reading as low
as on its two darkest days); :mod:`benchmarks.detection` reports it per fault.
"""

from __future__ import annotations

from collections.abc import Sequence

from faucet_core.drift.model import DriftFinding, DriftMetric
from faucet_core.drift.series import SERIES
from faucet_core.profile.model import ColumnProfile
from faucet_core.profile.table import TableProfile

__all__ = ["SEEN_RUNS", "seen_before"]

SEEN_RUNS = 2
"""Older runs that must each have been as far out for a finding to be the column's past."""

_READERS = {spec.statistic: spec.read for spec in SERIES}
"""Statistic name -> how to read it off a column profile (the series tests' own)."""


def _as_far(part: DriftFinding, column: ColumnProfile) -> bool:
    """``column`` (an older run) was at least as far out as ``part`` is, on its side."""
    if part.metric is DriftMetric.NEW_VALUE:
        return any(t.value == part.value_key for t in column.top_values or ())
    if not part.metric.is_series or part.metric is DriftMetric.ROW_COUNT:
        return False
    if part.metric is DriftMetric.NULL_RATE and part.value > part.baseline_center:
        return False
    read = _READERS.get(part.statistic)
    value = None if read is None else read(column)
    if value is None:
        return False
    if part.value > part.baseline_center:
        return value >= part.value
    if part.value < part.baseline_center:
        return value <= part.value
    return False


def seen_before(finding: DriftFinding, older: Sequence[TableProfile]) -> bool:
    """At least :data:`SEEN_RUNS` of the ``older`` runs were each as far out as every part
    of ``finding`` (its head and evidence) at once (see the module docstring)."""
    if finding.table_level:
        return False
    parts = finding.findings
    seen = 0
    for run in older:
        column = run.columns.get(finding.column)
        if column is not None and all(_as_far(p, column) for p in parts):
            seen += 1
            if seen >= SEEN_RUNS:
                return True
    return False
