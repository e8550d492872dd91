"""Findings and notifications with fixed numbers, shaped like the detectors' output."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from faucet_core.config import OnDrift
from faucet_core.drift import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.model import DriftScale
from faucet_core.notify import CheckSeverity, DriftNotification, NotifiedFinding

WHEN = dt.datetime(2026, 9, 25, 2, 0, 4, tzinfo=dt.timezone.utc)
RUN_ID = "0199a3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d"


def null_rate(column: str = "amount", **overrides: Any) -> DriftFinding:
    values: dict[str, Any] = {
        "column": column,
        "metric": DriftMetric.NULL_RATE,
        "message": (
            f"{column}.null_rate: null_rate 0.4000 vs baseline mean 0.0012 — |z| 41.30 exceeds 3 "
            "(limit 19.04 for 5 baseline runs, 42 tests)"
        ),
        "value": 0.4,
        "baseline_center": 0.0012,
        "baseline_spread": 0.0096,
        "score": 41.3,
        "threshold": 19.04,
        "test": DriftTest.ZSCORE,
        "baseline_runs": 5,
        "statistic": "null_rate",
        "sensitivity": 3.0,
        "floor": 0.01,
        "expected_low": 0.0,
        "expected_high": 0.1840,
    }
    values.update(overrides)
    return DriftFinding(**values)


def mean_shift(column: str = "amount") -> DriftFinding:
    return DriftFinding(
        column=column,
        metric=DriftMetric.MEAN,
        message=f"{column}.mean: mean 912.5 vs baseline geometric mean 54.9 — |z| 7.12 exceeds 3 "
        "(limit 5.10 for 6 baseline runs, 42 tests, ratios)",
        value=912.5,
        baseline_center=54.9,
        baseline_spread=0.08,
        score=7.12,
        threshold=5.1,
        test=DriftTest.ZSCORE,
        baseline_runs=6,
        statistic="mean",
        sensitivity=3.0,
        scale=DriftScale.LOG,
        expected_low=40.25,
        expected_high=74.8,
    )


def new_value(column: str = "region", value: Any = "latam") -> DriftFinding:
    return DriftFinding(
        column=column,
        metric=DriftMetric.NEW_VALUE,
        message=f'{column}.new_value: value "{value}" is 12.5% of the run; never among the top '
        "values in 6 baseline runs",
        value=0.125,
        baseline_center=0.0,
        baseline_spread=0.0,
        score=0.125,
        threshold=0.05,
        test=DriftTest.SHARE,
        baseline_runs=6,
        statistic="share",
        value_key=value,
        share=0.125,
        baseline_share=0.0,
    )


def type_mix(column: str = "amount") -> DriftFinding:
    return DriftFinding(
        column=column,
        metric=DriftMetric.TYPE_MIX,
        message=f"{column}.type_mix: 30.0% of the run is string; at most 0.0% in 6 baseline runs",
        value=0.3,
        baseline_center=0.0,
        baseline_spread=0.0,
        score=0.3,
        threshold=0.05,
        test=DriftTest.SHARE,
        baseline_runs=6,
        statistic="types",
        value_key="string",
        share=0.3,
        baseline_share=0.0,
    )


def psi(column: str = "region") -> DriftFinding:
    return DriftFinding(
        column=column,
        metric=DriftMetric.PSI,
        message=f"{column}.psi: PSI 0.412 exceeds 0.2 over 4 values",
        value=0.412,
        baseline_center=0.0,
        baseline_spread=0.0,
        score=0.412,
        threshold=0.2,
        test=DriftTest.PSI,
        baseline_runs=6,
        statistic="psi",
    )


def floor_change(column: str = "status") -> DriftFinding:
    return DriftFinding(
        column=column,
        metric=DriftMetric.DISTINCT,
        message=f"{column}.distinct: distinct 9 vs constant baseline 4 — change 5 exceeds the "
        "floor 1 (6 baseline runs)",
        value=9.0,
        baseline_center=4.0,
        baseline_spread=0.0,
        score=5.0,
        threshold=1.0,
        test=DriftTest.FLOOR,
        baseline_runs=6,
        statistic="distinct",
        sensitivity=3.0,
        floor=1.0,
    )


def rescale(column: str = "cc") -> DriftFinding:
    """A count divided by 1,000 on a light day (as :mod:`faucet_core.drift.rescale`
    writes it), the type mix it came with as evidence."""
    return DriftFinding(
        column=column,
        metric=DriftMetric.MAX,
        message=f"{column}.max: max 0.035 vs baseline median 6 — 171.4 times smaller, beyond "
        "every one of 20 baseline runs (1 to 35), as whole numbers became fractional: a rescale",
        value=0.035,
        baseline_center=6.0,
        baseline_spread=0.0,
        score=171.43,
        threshold=10.0,
        test=DriftTest.RATIO,
        baseline_runs=20,
        statistic="max",
        scale=DriftScale.LOG,
        expected_low=1.0,
        expected_high=35.0,
        evidence=(
            replace(
                type_mix(column),
                message=f"{column}.type_mix: 100.0% of the run is number; at most 0.0% in 20 "
                "baseline runs",
                value=1.0,
                score=1.0,
                baseline_runs=20,
                value_key="number",
                share=1.0,
            ),
        ),
    )


def notification(
    *findings: NotifiedFinding | DriftFinding,
    first_index: int = 0,
    total: int | None = None,
    **overrides: Any,
) -> DriftNotification:
    items = tuple(f if isinstance(f, NotifiedFinding) else NotifiedFinding.of(f) for f in findings)
    values: dict[str, Any] = {
        "asset": "sales/orders",
        "check": "faucet_profile",
        "findings": items,
        "first_index": first_index,
        "total_findings": total if total is not None else first_index + len(items),
        "run_id": RUN_ID,
        "evaluated_at": WHEN,
        "on_drift": OnDrift.NOTIFY,
        "severity": CheckSeverity.WARN,
    }
    values.update(overrides)
    return DriftNotification(**values)
