"""One finding per column and run: the most specific cause, the rest as its evidence.

A single change to a column often moves several of its metrics at once: a new region
code also moves the column's string lengths; a truncated text moves its lengths and its
distinct count. Reporting each as a finding turns one root cause into several alerts.
Here the findings of a column collapse into one, headed by the most specific cause:

1. ``type_mix`` (values arrive as another JSON type),
2. ``new_value``, then ``vanished_value`` (the column's categories changed),
3. ``null_rate``,
4. ``string_length`` (the values changed shape: a truncation also lowers the distinct
   count, not the other way round),
5. ``distinct`` (the set of values changed: a collapse onto a few ids also moves their
   mean and extremes),
6. ``mean``, ``min``, ``max`` (the values moved), then ``psi`` (only their mix did).

Within a metric the finding furthest beyond its limit heads (e.g. the most prominent of
several new values). Every other finding of the column is kept, whole, as the head's
``evidence``.

A rescale heads with its level: when numbers turned from whole to fractional (or
back) and their mean or extremes moved, ``mean`` / ``min`` / ``max`` head and the type
mix is their evidence (amounts divided by 1,000 are a scale to fix, not a type).

One exception keeps a collapse of the distinct count from hiding behind its symptoms:
when a column's values concentrate on a few (say 4,600 customers a day become 25),
those few become "new" top values and the old ones "vanish". A new or vanished value
moves the distinct count by one; when ``distinct`` left its band by more than the named
values can account for, ``distinct`` is the cause and heads, right after ``type_mix``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from faucet_core.drift.model import DriftFinding, DriftMetric
from faucet_core.drift.rescale import LEVEL_METRICS, NUMERIC_TYPES

__all__ = ["ROOT_CAUSE_ORDER", "one_per_column"]

ROOT_CAUSE_ORDER = (
    DriftMetric.ROW_COUNT,
    DriftMetric.TYPE_MIX,
    DriftMetric.NEW_VALUE,
    DriftMetric.VANISHED_VALUE,
    DriftMetric.NULL_RATE,
    DriftMetric.STRING_LENGTH,
    DriftMetric.DISTINCT,
    DriftMetric.MEAN,
    DriftMetric.MIN,
    DriftMetric.MAX,
    DriftMetric.PSI,
)
"""Which metric heads a column's finding: the most specific cause first."""

_RANK = {metric: rank for rank, metric in enumerate(ROOT_CAUSE_ORDER)}
_VALUE_METRICS = frozenset({DriftMetric.NEW_VALUE, DriftMetric.VANISHED_VALUE})


def _margin(finding: DriftFinding) -> float:
    """How far beyond its limit a finding is (1.0 = on the limit)."""
    if finding.threshold > 0:
        return finding.score / finding.threshold
    return finding.score


def _rank(finding: DriftFinding) -> tuple[float, float]:
    return (_RANK.get(finding.metric, len(ROOT_CAUSE_ORDER)), -_margin(finding))


def _outside_band(finding: DriftFinding) -> float:
    """How far a series finding's value lies outside the band of passing values."""
    low, high = finding.expected_low, finding.expected_high
    if low is not None and finding.value < low:
        return low - finding.value
    if high is not None and finding.value > high:
        return finding.value - high
    return 0.0


def _scale_is_the_cause(group: list[DriftFinding]) -> bool:
    """Numbers that turned from whole to fractional (or back) because their scale moved
    (amounts divided by 1,000): the values' level is what a person fixes, the JSON type
    only follows it."""
    return any(
        f.metric is DriftMetric.TYPE_MIX and f.value_key in NUMERIC_TYPES for f in group
    ) and any(f.metric in LEVEL_METRICS for f in group)


def _rank_scale_first(finding: DriftFinding) -> tuple[float, float]:
    if finding.metric is DriftMetric.TYPE_MIX and finding.value_key in NUMERIC_TYPES:
        return (_RANK[DriftMetric.MAX] + 0.5, -_margin(finding))
    if finding.metric in LEVEL_METRICS:  # before the nulls and lengths the rescale also moved
        return (_RANK[DriftMetric.TYPE_MIX] + 0.5 + _RANK[finding.metric] / 100, -_margin(finding))
    return _rank(finding)


def _distinct_is_the_cause(group: list[DriftFinding]) -> bool:
    named = sum(1 for f in group if f.metric in _VALUE_METRICS)
    return named > 0 and any(
        f.metric is DriftMetric.DISTINCT and _outside_band(f) > named for f in group
    )


def one_per_column(findings: Iterable[DriftFinding]) -> list[DriftFinding]:
    """The findings grouped per column (columns in first-seen order), each group one
    finding headed by its most specific cause with the others as ``evidence``."""
    by_column: dict[str, list[DriftFinding]] = {}
    for finding in findings:
        by_column.setdefault(finding.column, []).extend(finding.findings)
    grouped = []
    for group in by_column.values():
        rank = _rank
        if _distinct_is_the_cause(group):
            rank = _rank_distinct_first
        elif _scale_is_the_cause(group):
            rank = _rank_scale_first
        head, *rest = sorted(group, key=rank)
        grouped.append(replace(head, evidence=tuple(rest)))
    return grouped


def _rank_distinct_first(finding: DriftFinding) -> tuple[float, float]:
    if finding.metric is DriftMetric.DISTINCT:  # after type_mix, before the values
        return (_RANK[DriftMetric.TYPE_MIX] + 0.5, -_margin(finding))
    return _rank(finding)
