"""The series tests of one run: gather every (column, statistic) pair, then judge each
with the number of tests known (the per-table budget of :mod:`faucet_core.drift.limits`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from faucet_core.config import ProfilingConfig
from faucet_core.drift.band import Band, judge
from faucet_core.drift.messages import series_message
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.series import SERIES, SeriesSpec, column_spread, transform_for
from faucet_core.drift.volume import distinct_elasticity, non_null
from faucet_core.drift.weekly import Weekdays
from faucet_core.profile.model import ColumnProfile

__all__ = ["SeriesTest", "judge_series", "series_tests"]


@dataclass(frozen=True)
class SeriesTest:
    """One statistic of one column, with its baseline series."""

    column: str
    profile: ColumnProfile
    past: Sequence[ColumnProfile]
    spec: SeriesSpec
    value: float
    series: list[float]
    floor: Callable[[float], float]
    step: float
    factor: float = 1.0
    """The statistic times ``factor`` is what the user sees (a count judged against the
    run's volume); 1 for every other statistic."""
    today: int | None = None
    """The current run's weekday, when the runs' times are known."""
    days: tuple[int, ...] = ()
    """The weekday of each run in ``past`` (empty without times)."""

    @property
    def read_mask(self) -> list[bool]:
        """Which runs of ``past`` have a value in ``series``."""
        return [self.spec.read(c) is not None for c in self.past]

    def week(self, kept: Sequence[bool]) -> Weekdays | None:
        """The weekdays of the baseline values kept (``kept`` aligned with ``past``)."""
        if self.today is None:
            return None
        return Weekdays(self.today, tuple(d for d, k in zip(self.days, kept, strict=True) if k))


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
    for spec in SERIES:
        value = spec.read(column)
        if value is None:
            continue
        if spec.metric is DriftMetric.DISTINCT:
            test = _volume_adjusted(name, column, past, spec, value)
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
            )
        if len(test.series) >= min_history:
            tests.append(test)
    return tests


def _bind(spec: SeriesSpec, spread: float) -> Callable[[float], float]:
    return lambda center: spec.floor(center, spread)


def _volume_adjusted(
    name: str, column: ColumnProfile, past: Sequence[ColumnProfile], spec: SeriesSpec, value: float
) -> SeriesTest:
    """distinct / n ** b: see :mod:`faucet_core.drift.volume`."""
    b = distinct_elasticity(column, past)
    factor = math.pow(non_null(column), b)
    series = [c.distinct / math.pow(non_null(c), b) for c in past if spec.read(c) is not None]

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
    )


def judge_series(tests: Sequence[SeriesTest], config: ProfilingConfig) -> list[DriftFinding]:
    """The findings among ``tests``, each judged as one of ``len(tests)``."""
    findings: list[DriftFinding] = []
    for test in tests:
        band = _judge(test, test.value, test.series, config, len(tests), None)
        if not band.drifted:
            continue
        week = test.week(test.read_mask)
        if week is not None:
            # The same weekday can only clear a finding (a normal Saturday), never add
            # one: a series that follows the week is also judged against its weekday.
            band = _judge(test, test.value, test.series, config, len(tests), week)
            if not band.drifted:
                continue
        if test.spec.extreme and (_inside_seen_range(test, band) or _tail_thinned(test, band)):
            continue
        if test.spec.without_extreme is not None and not _drifts_without_extremes(
            test, test.value > band.center, config, len(tests)
        ):
            continue
        findings.append(_finding(test, band, len(tests)))
    return findings


def _inside_seen_range(test: SeriesTest, band: Band) -> bool:
    """An extreme no farther outside the baseline's own range than the floor: the
    baseline has seen it (a bimodal min or max switching modes)."""
    low, high = min(test.series), max(test.series)
    margin = band.floor / test.factor if test.factor != 1.0 else band.floor
    return low - margin <= test.value <= high + margin


def _tail_thinned(test: SeriesTest, band: Band) -> bool:
    """A min that rose, still below the column's middle (the baseline's median p50):
    that day's low tail was thinner (no departure after midnight). Only a min that
    moves outward, or past the middle, is a finding; the mean and the other metrics
    judge the rest. A max that falls is still judged: it can be a cap."""
    if test.spec.metric is not DriftMetric.MIN:
        return False  # a max that falls can be a cap (values clipped, text truncated)
    middles = [c.numeric.p50 for c in test.past if c.numeric is not None]
    return bool(middles) and band.center < test.value < statistics.median(middles)


def _finding(test: SeriesTest, band: Band, tests: int) -> DriftFinding:
    spec = test.spec
    value = test.value
    if test.factor != 1.0:
        value, band = value * test.factor, band.times(test.factor)
    message = series_message(
        test.column,
        spec.metric,
        spec.statistic,
        value,
        band,
        tests=tests,
        records=non_null(test.profile) if test.factor != 1.0 else None,
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


def _drifts_without_extremes(
    test: SeriesTest, high: bool, config: ProfilingConfig, tests: int
) -> bool:
    """One record is not a distribution change: judge the statistic again with each run's
    single most extreme record (on the side it moved to) left out; min / max report that
    record when it matters."""
    without = test.spec.without_extreme
    assert without is not None
    value = without(test.profile, high)
    series = [without(c, high) for c in test.past]
    kept = [v for v in series if v is not None]
    if value is None or len(kept) < len(series):
        return True
    if not _judge(test, value, kept, config, tests, None).drifted:
        return False
    week = test.week([True] * len(series))
    return week is None or _judge(test, value, kept, config, tests, week).drifted


def _judge(
    test: SeriesTest,
    value: float,
    series: list[float],
    config: ProfilingConfig,
    tests: int,
    week: Weekdays | None,
) -> Band:
    return judge(
        value,
        series,
        transform=transform_for(test.spec, value, series),
        floor=test.floor,
        method=config.method,
        sensitivity=config.effective_sensitivity,
        tests=tests,
        extreme=test.spec.extreme,
        step=test.step,
        week=week,
    )
