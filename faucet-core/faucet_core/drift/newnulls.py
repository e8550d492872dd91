"""Nulls in a column that never held one: a table-level test of first nulls.

The null-rate series test compares a run's null rate with the window's, with the run's
own sampling error. For a column that never held a null that comparison says little
on a light table: 0 nulls in twenty runs of one to four records each bounds the rate
only loosely, and a run whose one record is null (100 %) or whose five records hold
two (40 %) stays inside the sampling error. Yet a column that held no null in any run
on record rarely starts to: on the tune half of the benchmark corpus (82 real daily
tables, 63,782 quiet days, the window and up to 365 older runs on record) a quiet day
brought some column its first nulls on 35 days, 5.5 in 10,000.

So the run is judged once for the event "some column that held no null in any earlier
run (at least ``min_history`` of them) now holds nulls at the null-rate floor (1
percentage point) or more". The event's rate for this table is learned from its own
runs on record (the window and the detector's memory): ``E`` runs that brought one of
its columns first nulls among ``X`` runs that could have, shrunk toward the corpus rate
:data:`PRIOR_RATE` with the weight of :data:`PRIOR_RUNS` runs::

    rate = (E + PRIOR_RATE * PRIOR_RUNS) / (X + PRIOR_RUNS)

The test holds :data:`NEW_NULL_TESTS`-th of the run's false-alarm budget, as the
volume does (0.27 % / 4 at the default sensitivity 3.0). A rate below that share makes
each such column a ``null_rate`` finding (test ``floor``: the baseline is a constant 0,
and the change is above the floor). A table whose columns have gained first nulls
before (one such run on record is enough at the defaults) is left to the series test:
there, first nulls are a thing its columns do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.drift.series import NULL_RATE_FLOOR
from faucet_core.profile.table import TableProfile

__all__ = [
    "NEW_NULL_TESTS",
    "PRIOR_RATE",
    "PRIOR_RUNS",
    "FirstNulls",
    "first_null_history",
    "new_null_candidates",
    "new_null_findings",
]

NEW_NULL_TESTS = 4
"""First nulls are judged with a quarter of the run's budget (as one of four tests)."""

PRIOR_RATE = 5.5e-4
"""Runs that brought a column its first nulls, per run that could have, on the tune
half's quiet days (35 of 63,782)."""

PRIOR_RUNS = 1000.0
"""The weight of :data:`PRIOR_RATE`, in runs: a table's own record outweighs it after
about a thousand runs, and one past event of its own is enough to silence the test."""


@dataclass(frozen=True)
class FirstNulls:
    """What a table's runs on record say of first nulls."""

    events: int
    """Runs that brought a column its first nulls."""
    at_risk: int
    """Runs that held a column with no null in any earlier run (and enough of them)."""

    @property
    def rate(self) -> float:
        """The shrunk rate of first nulls per run at risk."""
        return (self.events + PRIOR_RATE * PRIOR_RUNS) / (self.at_risk + PRIOR_RUNS)


def _first_null(null_rate: float) -> bool:
    return null_rate >= NULL_RATE_FLOOR


def first_null_history(
    runs: Sequence[TableProfile], min_history: int
) -> tuple[FirstNulls, dict[str, int]]:
    """Scan ``runs`` (with records, oldest first) for first-null events; also return,
    for every column that never held a null, how many runs held it."""
    held: dict[str, int] = {}
    nulled: set[str] = set()
    events = at_risk = 0
    for run in runs:
        clean = [
            name for name in run.columns if name not in nulled and held.get(name, 0) >= min_history
        ]
        if clean:
            at_risk += 1
            if any(_first_null(run.columns[name].null_rate) for name in clean):
                events += 1
        for name, column in run.columns.items():
            held[name] = held.get(name, 0) + 1
            if column.null_count:
                nulled.add(name)
    return FirstNulls(events, at_risk), {k: v for k, v in held.items() if k not in nulled}


def new_null_candidates(current: TableProfile, window: Sequence[TableProfile]) -> list[str]:
    """Columns of ``current`` at the null-rate floor or more that held no null in any
    ``window`` run holding them: a cheap first look, before the older runs are read."""
    return [
        name
        for name, column in current.columns.items()
        if column.row_count
        and _first_null(column.null_rate)
        and not any(name in p.columns and p.columns[name].null_count for p in window)
    ]


def new_null_findings(
    current: TableProfile,
    runs: Sequence[TableProfile],
    candidates: Sequence[str],
    *,
    min_history: int,
    alpha: float,
) -> list[DriftFinding]:
    """The ``null_rate`` findings of ``candidates`` (columns of ``current``) that held
    no null in any of ``runs`` (every run on record with records, oldest first, at
    least ``min_history`` of them holding the column), when the table's rate of first
    nulls is below ``alpha`` (the test's share of the run's budget)."""
    history, clean = first_null_history(runs, min_history)
    firsts = [name for name in candidates if clean.get(name, 0) >= min_history]
    if not firsts or history.rate >= alpha:
        return []
    return [_finding(name, current, clean[name], history, alpha) for name in firsts]


def _one_in(rate: float) -> str:
    return fmt_number(float(round(1.0 / rate))) if rate > 0 else "never"


def _finding(
    name: str, current: TableProfile, runs: int, history: FirstNulls, alpha: float
) -> DriftFinding:
    column = current.columns[name]
    rate = column.null_rate
    own = (
        f"none in its {fmt_number(float(history.at_risk))} runs that could have"
        if history.events == 0
        else f"{history.events} of its {fmt_number(float(history.at_risk))} runs"
    )
    message = (
        f"{name}.null_rate: null_rate {fmt_rate(rate)} ({fmt_number(float(column.null_count))} "
        f"of {fmt_number(float(column.row_count))} records) in a column with no null in "
        f"any of its {fmt_number(float(runs))} runs on record; this table's columns gain "
        f"first nulls on about 1 run in {_one_in(history.rate)} ({own}), rarer than the 1 "
        f"in {_one_in(alpha)} its test may alarm on — above the floor "
        f"{fmt_rate(NULL_RATE_FLOOR)}"
    )
    return DriftFinding(
        column=name,
        metric=DriftMetric.NULL_RATE,
        message=message,
        value=rate,
        baseline_center=0.0,
        baseline_spread=0.0,
        score=rate,
        threshold=NULL_RATE_FLOOR,
        test=DriftTest.FLOOR,
        baseline_runs=runs,
        statistic="null_rate",
        floor=NULL_RATE_FLOOR,
        expected_low=0.0,
        expected_high=NULL_RATE_FLOOR,
    )
