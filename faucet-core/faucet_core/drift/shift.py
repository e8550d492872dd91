"""A column already found by its extremes: has its mean moved too?

The run's budget (:mod:`faucet_core.drift.limits`) splits the table's chance of a false
alarm over every test, so each test is judged at a far limit (4-5 sigma for a wide table).
When every value of a column moves by the same amount, its min or max often leaves its
band first: a state's smallest daily count or a sensor's night-time floor varies much less
from run to run than the column's mean. The column is then found, headed by its extreme,
and the mean that moved with it, the number a person would look at, is left out unless it
passed the far limit on its own.

Once a column is found, the budget is spent on it; its mean is then judged as a single
test (the step inside a rejected family of a closed testing procedure): at the run's
sensitivity without the split, in the direction its extremes moved, and subject to the
same clearing rules. A mean beyond that is a finding too and, by the root-cause order,
heads the column with the extremes as evidence. No run gains a finding on a column that
had none, so the rate of alarmed runs is unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from faucet_core.config import ProfilingConfig
from faucet_core.drift.clearing import RuleContext, clearing_rule
from faucet_core.drift.model import DriftFinding, DriftMetric
from faucet_core.drift.seriestests import SeriesTest, finding_of, judge_test

__all__ = ["means_of_moved_columns"]

_EXTREMES = frozenset({DriftMetric.MIN, DriftMetric.MAX})


def _direction(finding: DriftFinding) -> int:
    """+1 above the baseline's center, -1 below, 0 on it."""
    return (finding.value > finding.baseline_center) - (finding.value < finding.baseline_center)


def means_of_moved_columns(
    tests: Sequence[SeriesTest],
    findings: Sequence[DriftFinding],
    config: ProfilingConfig,
    tail: float,
) -> list[DriftFinding]:
    """The mean findings of columns whose min or max (not both ways) is among ``findings``
    and whose mean is not, each mean judged as one test (every limit widened by the table's
    ``tail``, as the budget's were)."""
    moved: dict[str, set[int]] = {}
    for finding in findings:
        if finding.metric in _EXTREMES:
            moved.setdefault(finding.column, set()).add(_direction(finding))
    has_mean = {f.column for f in findings if f.metric is DriftMetric.MEAN}
    context = RuleContext(config, 1, tail)
    found: list[DriftFinding] = []
    for test in tests:
        directions = moved.get(test.column, set())
        if test.spec.metric is not DriftMetric.MEAN or test.column in has_mean:
            continue
        if len(directions) != 1:  # not found by an extreme, or its extremes parted
            continue
        band = judge_test(test, test.value, test.series, config, 1, None, tail)
        if not band.drifted:
            continue
        finding = finding_of(test, band, 1)
        if _direction(finding) not in directions or clearing_rule(test, band, context):
            continue
        found.append(
            replace(
                finding,
                message=f"{finding.message}; judged as one test, its "
                f"{' and '.join(sorted(m.value for m in _moved_extremes(findings, test.column)))} "
                "having found the column",
            )
        )
    return found


def _moved_extremes(findings: Sequence[DriftFinding], column: str) -> set[DriftMetric]:
    return {f.metric for f in findings if f.column == column and f.metric in _EXTREMES}
