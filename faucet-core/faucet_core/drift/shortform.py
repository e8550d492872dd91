"""Short forms of findings: one clause per finding that reads well inside one line.

A check's description is shown on one line in the Dagster UI, so each finding there is
a short clause (``amount null rate 40.0% (expected at most 18.4%)``) and the full
message stays in the markdown summary and the findings metadata. One builder per kind
of finding; :func:`short_form` picks it and appends what else moved in the column
(``string lengths moved too``). A classified column's values never appear, nor do the
numbers of its mean and extremes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from faucet_core.drift.messages import fmt_value
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.numfmt import fmt_number, fmt_rate

__all__ = [
    "evidence_clause",
    "new_value_short",
    "psi_short",
    "series_short",
    "short_form",
    "type_mix_short",
    "vanished_short",
]

_STATISTIC_NAMES = {
    "null_rate": "null rate",
    "distinct": "distinct count",
    "mean": "mean",
    "min": "minimum",
    "max": "maximum",
    "len_mean": "mean string length",
    "len_max": "longest string",
    "len_min": "shortest string",
}

_METRIC_NOUNS = {
    DriftMetric.NULL_RATE: "null rate",
    DriftMetric.DISTINCT: "distinct count",
    DriftMetric.MEAN: "mean",
    DriftMetric.MIN: "minimum",
    DriftMetric.MAX: "maximum",
    DriftMetric.STRING_LENGTH: "string lengths",
    DriftMetric.TYPE_MIX: "type mix",
    DriftMetric.NEW_VALUE: "top values",
    DriftMetric.VANISHED_VALUE: "top values",
    DriftMetric.PSI: "value mix",
    DriftMetric.ROW_COUNT: "row count",
}

_VALUE_NUMBERS = frozenset({DriftMetric.MEAN, DriftMetric.MIN, DriftMetric.MAX})
"""Series metrics whose numbers are the column's own values (withheld when classified)."""

_NON_NEGATIVE = frozenset(
    {DriftMetric.NULL_RATE, DriftMetric.DISTINCT, DriftMetric.STRING_LENGTH, DriftMetric.ROW_COUNT}
)
_WHOLE = frozenset({"distinct", "rows", "len_max", "len_min"})
"""Statistics that are whole numbers: their expected bounds are shown as whole numbers
a run can have (at least 3,104 distinct values, not 3,103.5)."""


def _fmt(value: float, statistic: str) -> str:
    return fmt_number(value, statistic)


def series_short(finding: DriftFinding, *, classified: bool = False) -> str:
    """``amount null rate 40.0% (expected at most 18.4%)``; for a classified column's
    mean or extremes only the direction: ``salary mean rose above its expected range``."""
    stat = finding.statistic
    if finding.table_level:
        name = "row count"
    else:
        name = f"{finding.column} {_STATISTIC_NAMES.get(stat, stat)}"
    low, high = finding.expected_low, finding.expected_high
    if stat in _WHOLE:
        low = None if low is None or not math.isfinite(low) else float(math.ceil(low - 1e-9))
        high = None if high is None or not math.isfinite(high) else float(math.floor(high + 1e-9))
    if low is not None and finding.metric in _NON_NEGATIVE:
        low = max(0.0, low)
    if high is not None and finding.metric is DriftMetric.NULL_RATE:
        high = min(1.0, high)
    above = high is not None and finding.value > high
    below = low is not None and finding.value < low
    if classified and finding.metric in _VALUE_NUMBERS:
        if above or below:
            return f"{name} {'rose above' if above else 'fell below'} its expected range"
        return f"{name} moved"
    value = _fmt(finding.value, stat)
    constant = finding.test is DriftTest.FLOOR and finding.baseline_spread == 0.0
    if constant and not finding.table_level and (above or below):
        # a constant baseline: its value, not a band a tenth of a unit wide
        return f"{name} {value} (always {_fmt(finding.baseline_center, stat)} before)"
    if above and high is not None:
        return f"{name} {value} (expected at most {_fmt(high, stat)})"
    if below and low is not None:
        return f"{name} {value} (expected at least {_fmt(low, stat)})"
    return f"{name} {value} (baseline {_fmt(finding.baseline_center, stat)})"


def type_mix_short(finding: DriftFinding) -> str:
    """``id has 12.5% string values (at most 0.0% before)``."""
    share = fmt_rate(finding.share if finding.share is not None else finding.value)
    before = fmt_rate(finding.baseline_share or 0.0)
    return f"{finding.column} has {share} {finding.value_key} values (at most {before} before)"


def new_value_short(finding: DriftFinding, *, classified: bool = False) -> str:
    """``region has a new value "latam" (12.5% of rows)``."""
    share = fmt_rate(finding.share if finding.share is not None else finding.value)
    if classified:
        return f"{finding.column} has a new value ({share} of rows; value withheld, classified)"
    return f"{finding.column} has a new value {fmt_value(finding.value_key)} ({share} of rows)"


def vanished_short(finding: DriftFinding, *, classified: bool = False) -> str:
    """``region lost "emea" (at least 20.0% of rows before)``."""
    before = fmt_rate(finding.baseline_share or 0.0)
    what = "a value (withheld, classified)" if classified else fmt_value(finding.value_key)
    return f"{finding.column} lost {what} (at least {before} of rows before)"


def psi_short(finding: DriftFinding) -> str:
    """``channel value mix shifted (PSI 0.31, limit 0.25)``."""
    return (
        f"{finding.column} value mix shifted (PSI {finding.score:.2f}, limit {finding.threshold:g})"
    )


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def evidence_clause(finding: DriftFinding) -> str:
    """``string lengths moved too`` for the column's other drifted metrics; empty
    without evidence."""
    nouns: list[str] = []
    for e in finding.evidence:
        noun = _METRIC_NOUNS[e.metric]
        if e.metric is not finding.metric and noun not in nouns:
            nouns.append(noun)
    return f"{_and(nouns)} moved too" if nouns else ""


def short_form(finding: DriftFinding, *, classified: bool = False) -> str:
    """The finding as one clause, with what else moved in the column."""
    metric = finding.metric
    if metric is DriftMetric.TYPE_MIX:
        text = type_mix_short(finding)
    elif metric is DriftMetric.NEW_VALUE:
        text = new_value_short(finding, classified=classified)
    elif metric is DriftMetric.VANISHED_VALUE:
        text = vanished_short(finding, classified=classified)
    elif metric is DriftMetric.PSI:
        text = psi_short(finding)
    else:
        text = series_short(finding, classified=classified)
    extra = evidence_clause(finding)
    return f"{text}, {extra}" if extra else text
