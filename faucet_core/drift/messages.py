"""Finding messages: pure text building, one function per kind of finding.

Messages lead with ``column.metric:`` and then say what the number is, what the
baseline was and which limit it crossed, e.g.::

    amount.null_rate: null_rate 0.4000 vs baseline mean 0.0012 — |z| 41.30 exceeds 3 (limit 19.04 for 5 baseline runs, 42 tests)
    region.new_value: value "latam" is 12.5% of the run; never among the top values in 6 baseline runs
"""  # noqa: E501

from __future__ import annotations

import json
import math
from typing import Any

from faucet_core.config import DriftMethod
from faucet_core.drift.band import Band
from faucet_core.drift.model import DriftMetric, DriftScale

__all__ = [
    "fmt_number",
    "new_value_message",
    "psi_message",
    "series_message",
    "type_mix_message",
    "vanished_message",
]

MAX_VALUE_CHARS = 80
"""A value longer than this (as JSON) is shortened in messages."""


def fmt_number(value: float, statistic: str = "") -> str:
    """A statistic as messages show it: rates with 4 decimals, whole numbers without."""
    if statistic == "null_rate":
        return f"{value:.4f}"
    if not math.isfinite(value):
        return str(value)
    if value == round(value) and abs(value) < 1e15:
        return str(round(value))
    if abs(value) >= 1e5:
        return f"{value:.0f}"
    return f"{value:.6g}"


def fmt_value(value: Any) -> str:
    """A JSON value as messages show it (strings quoted), shortened when long."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if len(text) > MAX_VALUE_CHARS:
        text = text[: MAX_VALUE_CHARS - 1] + "…"
    return text


def _runs(n: int) -> str:
    return f"{n} baseline run" + ("" if n == 1 else "s")


def series_message(
    column: str,
    metric: DriftMetric,
    statistic: str,
    value: float,
    band: Band,
    *,
    tests: int,
    records: int | None = None,
) -> str:
    """``band`` is on the statistic's scale; ``records`` the run's non-null records when
    the statistic was judged against the run's volume."""
    head = f"{column}.{metric.value}: {statistic} {fmt_number(value, statistic)}"
    center = fmt_number(band.center, statistic)
    runs = _runs(band.runs)
    if band.excluded:
        runs += f", {band.excluded} outlying run{'' if band.excluded == 1 else 's'} left out"
    log = band.scale is DriftScale.LOG
    method, sensitivity = band.method, band.sensitivity
    if records is not None:
        versus = f"vs {center} expected for {records} non-null records"
    elif band.constant:
        versus = f"vs constant baseline {center}"
    elif method is DriftMethod.IQR:
        versus = f"vs baseline median {center}"
    else:
        versus = f"vs baseline {'geometric mean' if log else 'mean'} {center}"
    if band.constant:
        change = fmt_number(abs(value - band.center), statistic)
        floor = fmt_number(band.floor, statistic)
        return f"{head} {versus} — change {change} exceeds the floor {floor} ({runs})"
    context = f"limit {band.limit:.2f} for {runs}, {tests} test{'' if tests == 1 else 's'}"
    if log:
        context += ", ratios"
    if method is DriftMethod.IQR:
        return (
            f"{head} {versus} — {band.score:.2f} IQR beyond the quartiles exceeds "
            f"{sensitivity:g} ({context})"
        )
    return f"{head} {versus} — |z| {band.score:.2f} exceeds {sensitivity:g} ({context})"


def type_mix_message(column: str, json_type: str, share: float, most: float, runs: int) -> str:
    return (
        f"{column}.type_mix: {share:.1%} of the run is {json_type}; at most {most:.1%} "
        f"in {_runs(runs)}"
    )


def new_value_message(column: str, value: Any, share: float, runs: int) -> str:
    return (
        f"{column}.new_value: value {fmt_value(value)} is {share:.1%} of the run; never among "
        f"the top values in {_runs(runs)}"
    )


def vanished_message(column: str, value: Any, least: float, runs: int, cutoff: float | None) -> str:
    if cutoff is None:
        what = "is gone from the run"
    else:
        what = f"fell out of the top values (below {cutoff:.1%} of the run)"
    return (
        f"{column}.vanished_value: value {fmt_value(value)} {what}; it was at least "
        f"{least:.1%} in each of {_runs(runs)}"
    )


def psi_message(
    column: str,
    psi: float,
    threshold: float,
    buckets: int,
    coverage: float,
    baseline_coverage: float,
    runs: int,
) -> str:
    return (
        f"{column}.psi: PSI {psi:.4f} over {buckets} values and other exceeds {threshold:g} "
        f"(those values cover {coverage:.1%} of the run's non-null values, "
        f"{baseline_coverage:.1%} in {_runs(runs)})"
    )
