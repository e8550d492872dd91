"""The series tests of one run: gather every (column, statistic) pair, then judge each
with the number of tests known (the per-table budget of :mod:`faucet_core.drift.limits`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from faucet_core.config import ProfilingConfig
from faucet_core.drift.band import Band
from faucet_core.drift.clearing import RuleContext, clearing_rule
from faucet_core.drift.messages import series_message
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.series import (
    SERIES,
    SeriesSpec,
    SeriesTest,
    column_spread,
    draws,
    judge_test,
    transform_for,
)
from faucet_core.drift.tail import TailEvidence, tail_scale
from faucet_core.drift.volume import (
    distinct_elasticity,
    non_null,
    presence_noise,
    spread_elasticity,
)
from faucet_core.profile.model import ColumnProfile

__all__ = ["SeriesTest", "judge_series", "judge_test", "series_tests", "table_tail"]


def series_tests(
    name: str,
    column: ColumnProfile,
    past: Sequence[ColumnProfile],
    min_history: int,
    weekdays: tuple[int, Sequence[int]] | None = None,
) -> list[SeriesTest]:
    """The series tests of a column with at least ``min_history`` baseline values each;
    ``weekdays`` the current run's weekday and each baseline run's, when known."""
    tests = _series_tests(name, column, past, min_history)
    if weekdays is None:
        return tests
    today, days = weekdays[0], tuple(weekdays[1])
    return [replace(t, today=today, days=days) for t in tests]


def _series_tests(
    name: str, column: ColumnProfile, past: Sequence[ColumnProfile], min_history: int
) -> list[SeriesTest]:
    tests: list[SeriesTest] = []
    spread = column_spread(past)
    one_draw = _one_number_runs(column, past)
    for spec in SERIES:
        value = spec.read(column)
        if value is None:
            continue
        if spec.metric is DriftMetric.DISTINCT:
            b = distinct_elasticity(column, past)
            test = _volume_adjusted(name, column, past, spec, value, b)
            c = spread_elasticity(column, past, b)
            if c > 0.0:
                explained = _volume_adjusted(name, column, past, spec, value, b, spread=c)
                test = replace(test, calm=explained)
        else:
            series = [v for v in map(spec.read, past) if v is not None]
            test = SeriesTest(
                name,
                column,
                past,
                spec,
                value,
                series,
                floor=_bind(spec, spread),
                step=spec.step,
                sampling=None if spec.sampling is None else spec.sampling(column, past),
            )
        if spec.extreme and one_draw:
            test = replace(test, one_draw=True)
        if len(test.series) >= min_history:
            tests.append(test)
    return tests


def _one_number_runs(column: ColumnProfile, past: Sequence[ColumnProfile]) -> bool:
    """The run holds one number, and so does every baseline run that holds any."""
    if column.numeric is None or column.numeric.count != 1:
        return False
    counts = [c.numeric.count for c in past if c.numeric is not None and c.numeric.count > 0]
    return bool(counts) and all(n == 1 for n in counts)


def _bind(spec: SeriesSpec, spread: float) -> Callable[[float], float]:
    return lambda center: spec.floor(center, spread)


def _volume_adjusted(
    name: str,
    column: ColumnProfile,
    past: Sequence[ColumnProfile],
    spec: SeriesSpec,
    value: float,
    b: float,
    *,
    spread: float = 0.0,
) -> SeriesTest:
    """distinct / n ** b, or distinct / (n ** b * stddev ** spread): see
    :mod:`faucet_core.drift.volume`."""

    def scale(c: ColumnProfile) -> float:
        s = math.pow(non_null(c), b)
        if spread > 0.0:
            assert c.numeric is not None
            s *= math.pow(c.numeric.stddev, spread)
        return s

    factor = scale(column)
    series = [c.distinct / scale(c) for c in past if spec.read(c) is not None]
    noise = presence_noise(factor * _geometric_mean(series), [c.distinct for c in past]) / factor

    def floor(center: float) -> float:
        return spec.floor(center * factor, 0.0) / factor

    return SeriesTest(
        name,
        column,
        past,
        spec,
        value / factor,
        series,
        floor=floor,
        step=spec.step / factor,
        factor=factor,
        noise=noise,
    )


def _geometric_mean(values: Sequence[float]) -> float:
    positive = [v for v in values if v > 0]
    return math.exp(math.fsum(map(math.log, positive)) / len(positive)) if positive else 0.0


def judge_series(
    tests: Sequence[SeriesTest],
    config: ProfilingConfig,
    count: int | None = None,
    cleared: Counter[str] | None = None,
    tail: float = 1.0,
) -> list[DriftFinding]:
    """The findings among ``tests``, each judged as one of ``count`` tests sharing the
    run's budget (``len(tests)`` by default), every limit widened by the table's ``tail``
    (:mod:`faucet_core.drift.tail`); each rule that clears a candidate adds one under its
    name to ``cleared``."""
    n = max(count if count is not None else len(tests), 1)
    tally: Counter[str] = Counter() if cleared is None else cleared
    findings: list[DriftFinding] = []
    context = RuleContext(config, n, tail)
    for test in tests:
        band = judge_test(test, test.value, test.series, config, n, None, tail)
        if test.spec.metric is DriftMetric.ROW_COUNT:
            # volume follows the week in its own right: a weekday is judged against its
            # weekday when the history shows a weekly pattern, in both directions
            week = test.week(test.read_mask)
            if week is not None:
                band = judge_test(test, test.value, test.series, config, n, week, tail)
            if band.drifted:
                findings.append(finding_of(test, band, n))
            continue
        if not band.drifted:
            continue
        rule = clearing_rule(test, band, context)
        if rule is not None:
            tally[rule] += 1
            continue
        findings.append(finding_of(test, band, n))
    return findings


def finding_of(test: SeriesTest, band: Band, tests: int) -> DriftFinding:
    spec = test.spec
    value, band = test.shown(band)
    message = series_message(
        test.column,
        spec.metric,
        spec.statistic,
        value,
        band,
        tests=tests,
        records=non_null(test.profile) if test.factor != 1.0 else None,
        sampled=draws(test, test.profile) if band.sampled else None,
        one_draw=test.one_draw,
    )
    return DriftFinding(
        column=test.column,
        metric=spec.metric,
        message=message,
        value=value,
        baseline_center=band.center,
        baseline_spread=band.spread,
        score=band.score,
        threshold=band.threshold,
        test=DriftTest.FLOOR if band.constant else DriftTest(band.method.value),
        baseline_runs=band.runs,
        statistic=spec.statistic,
        sensitivity=band.sensitivity,
        floor=band.floor,
        scale=band.scale,
        expected_low=band.low,
        expected_high=band.high,
    )


def table_tail(tests: Sequence[SeriesTest]) -> TailEvidence:
    """The table's own tail, read from the baseline series of ``tests``."""
    series = []
    for test in tests:
        if len(test.series) < 2:
            continue
        scale = transform_for(test.spec, test.value, test.series).scale
        series.append((test.series, scale, test.floor))
    return tail_scale(series)
