"""One finding per column and run: the most specific cause, the rest as its evidence.

A single change to a column often moves several of its metrics at once: a new region
code also moves the column's string lengths; a truncated text moves its lengths and its
distinct count. Reporting each as a finding turns one root cause into several alerts.
Here the findings of a column collapse into one, headed by the most specific cause:

1. ``type_mix`` (values arrive as another JSON type),
2. ``new_value``, then ``vanished_value`` (the column's categories changed),
3. ``null_rate``,
4. then the metric that crossed its limit by the widest margin (score over threshold).

Ties within a rank go to the larger margin too (e.g. the most prominent of several new
values). Every other finding of the column is kept, whole, as the head's ``evidence``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from faucet_core.drift.model import DriftFinding, DriftMetric

__all__ = ["ROOT_CAUSE_ORDER", "one_per_column"]

ROOT_CAUSE_ORDER = (
    DriftMetric.TYPE_MIX,
    DriftMetric.NEW_VALUE,
    DriftMetric.VANISHED_VALUE,
    DriftMetric.NULL_RATE,
)
"""The metrics that head a column's finding before any other, most specific first."""

_RANK = {metric: rank for rank, metric in enumerate(ROOT_CAUSE_ORDER)}


def _margin(finding: DriftFinding) -> float:
    """How far beyond its limit a finding is (1.0 = on the limit)."""
    if finding.threshold > 0:
        return finding.score / finding.threshold
    return finding.score


def _rank(finding: DriftFinding) -> tuple[int, float]:
    return (_RANK.get(finding.metric, len(ROOT_CAUSE_ORDER)), -_margin(finding))


def one_per_column(findings: Iterable[DriftFinding]) -> list[DriftFinding]:
    """The findings grouped per column (columns in first-seen order), each group one
    finding headed by its most specific cause with the others as ``evidence``."""
    by_column: dict[str, list[DriftFinding]] = {}
    for finding in findings:
        by_column.setdefault(finding.column, []).extend(finding.findings)
    grouped = []
    for group in by_column.values():
        head, *rest = sorted(group, key=_rank)
        grouped.append(replace(head, evidence=tuple(rest)))
    return grouped
