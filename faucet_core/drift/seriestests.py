"""The series tests of one run: gather every (column, statistic) pair, then judge each
with the number of tests known (the per-table budget of :mod:`faucet_core.drift.limits`).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from faucet_core.config import ProfilingConfig
from faucet_core.drift.band import Band, judge
from faucet_core.drift.draws import effective_draws, long_tail_chance, long_tail_length_chance
from faucet_core.drift.extremes import (
    constant_left_by_chance,
    constant_length_left_by_chance,
    inside_seen_range,
    inward_by_chance,
    outward_by_chance,
    rare_long_value,
    tail_thinned,
)
from faucet_core.drift.limits import tail_probability
from faucet_core.drift.messages import series_message
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.series import SERIES, SeriesSpec, SeriesTest, column_spread, transform_for
from faucet_core.drift.tail import TailEvidence, tail_scale
from faucet_core.drift.volume import (
    distinct_elasticity,
    non_null,
    presence_noise,
    spread_elasticity,
)
from faucet_core.drift.weekly import Weekdays
from faucet_core.profile.model import ColumnProfile

__all__ = [
    "FEW_DRAWS",
    "SeriesTest",
    "judge_series",
    "judge_test",
    "length_seen_before",
    "matched_by_a_past_run",
    "series_tests",
    "table_tail",
    "within_the_long_tail",
]

FEW_DRAWS = 2
"""A run of at most this many records (and a baseline whose median run has as few) reads
its statistic off one or two draws of the column's values: a baseline run as far out is
the column's tail (:func:`matched_by_a_past_run`). On runs of more records a statistic
averages over them, and a run that far out was an incident of its own."""
TAIL_DRAWS = 10
"""The most records of a run (and of the baseline's median run) whose extreme
:func:`within_the_long_tail` judges as the extreme of that many draws of the column's
pooled values: an exact chance for independent draws, counted as fewer where the runs'
means say the records cluster."""


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
    for test in tests:
        band = judge_test(test, test.value, test.series, config, n, None, tail)
        if test.spec.metric is DriftMetric.ROW_COUNT:
            # volume follows the week in its own right: a weekday is judged against its
            # weekday when the history shows a weekly pattern, in both directions
            week = test.week(test.read_mask)
            if week is not None:
                band = judge_test(test, test.value, test.series, config, n, week, tail)
            if band.drifted:
                findings.append(_finding(test, band, n))
            continue
        if not band.drifted:
            continue
        rule = _clearing_rule(test, band, config, n, tail)
        if rule is not None:
            tally[rule] += 1
            continue
        findings.append(_finding(test, band, n))
    return findings


def _clearing_rule(
    test: SeriesTest, band: Band, config: ProfilingConfig, n: int, tail: float
) -> str | None:
    """The name of the first rule that explains a candidate finding, or None. Each can
    only clear a finding, never raise one."""
    week = test.week(test.read_mask)
    if (
        week is not None
        and not judge_test(test, test.value, test.series, config, n, week, tail).drifted
    ):
        return "same_weekday"
    if (
        test.calm is not None
        and test.value < band.center
        and _explained(test.calm, config, n, tail)
    ):
        return "calm_readings"
    alpha = tail_probability(config.method, config.effective_sensitivity) / n / 2.0
    if constant_left_by_chance(test, band, alpha, config.min_history):
        return "constant_left_by_chance"
    if constant_length_left_by_chance(test, band, alpha):
        return "constant_length_left_by_chance"
    if test.spec.extreme:
        if inside_seen_range(test, band):
            return "extreme_seen_before"
        if tail_thinned(test, band):
            return "thinner_tail"
        if rare_long_value(test, band, config, n):
            return "rare_value_length"
        if inward_by_chance(test, band, alpha):
            return "extreme_of_fewer_draws"
        if outward_by_chance(test, band, alpha):
            return "new_extreme_by_chance"
    elif matched_by_a_past_run(test, band):
        return "matched_by_a_past_run"
    if length_seen_before(test, band, alpha):
        return "length_seen_before"
    if within_the_long_tail(test, band, alpha):
        return "within_the_long_tail"
    return None


def length_seen_before(test: SeriesTest, band: Band, alpha: float) -> bool:
    """A light run's one text whose length a baseline text already had, or went past, on
    the side it moved to: the shortest and longest text of every baseline run are
    lengths some record had, so a run of one text (a table of one or two records a day)
    as short as one of them is a draw of lengths the baseline holds, with a chance of at
    least 1 / (N + 1) among the N + 1 texts by rank. A capture time written ``9:23``
    after twenty days of ``10:30``-style times, one of which was ``9:05``: the runs'
    longest length never moved, but a record's did. Only on runs of one text, in a
    baseline whose median run holds at most :data:`FEW_DRAWS`."""
    if test.spec.metric is not DriftMetric.STRING_LENGTH or test.value == band.center:
        return False
    if _draws(test, test.profile) != 1:
        return False
    if not _light_baseline(test):
        return False
    strings = [c.string for c in test.past if c.string is not None and c.string.count > 0]
    texts = sum(s.count for s in strings)
    if not strings or 1.0 / (texts + 1) <= alpha:
        return False
    if test.value > band.center:
        return any(s.len_max >= test.value for s in strings)
    return any(s.len_min <= test.value for s in strings)


_LEVELS = frozenset({"mean", "min", "max"})
_LENGTHS = frozenset({"len_mean", "len_max"})


def within_the_long_tail(test: SeriesTest, band: Band, alpha: float) -> bool:
    """A light run's number out on the long side of a long-tailed column, where the
    baseline's pooled numbers reach with a chance above ``alpha``
    (:func:`~faucet_core.drift.draws.long_tail_chance`; for a text length, the lengths
    of the baseline's runs of one or two texts,
    :func:`~faucet_core.drift.draws.long_tail_length_chance`). One house sale, one day's
    rain, one breach, one film's list of languages is a draw of the column's values, and
    a 20-run window holds too few draws to say how far its tail reaches: the tail's rate
    learned from them is uncertain, and that uncertainty is what the chance carries.
    The run's mean (or mean length) of one record, which is also its min and max
    whichever way they moved, or its extreme of at most :data:`TAIL_DRAWS` records (as
    that many draws, fewer where records cluster:
    :func:`~faucet_core.drift.draws.effective_draws`), past the side of the pool that is
    the longer one, in a baseline
    whose median run holds at most :data:`TAIL_DRAWS` records. A mean of several records
    is not judged here: a shift of all of them is what its band is for. A rescale (x100)
    goes far past the tail's reach; a fall toward zero of positive amounts is never
    cleared and stays judged by its band."""
    statistic = test.spec.statistic
    if statistic not in _LEVELS | _LENGTHS or test.factor != 1.0:
        return False
    draws = _draws(test, test.profile)
    if draws > TAIL_DRAWS or (statistic in ("mean", "len_mean") and draws != 1):
        return False
    if not _light_baseline(test, TAIL_DRAWS):
        return False
    if test.value == band.center:
        return False
    high = test.value > band.center
    if draws > 1 and (
        (statistic in ("max", "len_max") and not high) or (statistic == "min" and high)
    ):
        return False  # an extreme of two that moved inward: the draws' own rule judges it
    if statistic in _LENGTHS:
        chance = long_tail_length_chance(test.past, test.value, max(draws, 1), high=high)
    else:
        # records of one run as independent draws: fewer where the runs' means say they
        # cluster (a run's extreme then reaches less far than that many draws would)
        independent = effective_draws(max(draws, 1), test.past)
        chance = long_tail_chance(test.past, test.value, independent, high=high)
    return chance is not None and chance > alpha


def matched_by_a_past_run(test: SeriesTest, band: Band) -> bool:
    """A value no farther from the band's center than one of the baseline's own runs, on
    the same side. Among the baseline's k runs and this one, this run is then not the most
    extreme: its rank alone makes it unremarkable (a chance of 2 / (k + 1) or more), and
    with the run the band left out as a past incident it makes two runs that far out,
    which the band already reads as the series' own tail
    (:data:`~faucet_core.drift.band.MAX_LEFT_OUT`). The light day whose one record is a
    long-tailed draw (a breach a hundred times the typical one, a film's list of eight
    languages) repeats such a run; a scale change or a new kind of value goes past every
    run the baseline holds. Only on runs of at most :data:`FEW_DRAWS` records, in the run
    and in the baseline's median run."""
    if _draws(test, test.profile) > FEW_DRAWS:
        return False
    if not _light_baseline(test):
        return False
    if test.value > band.center:
        return any(v >= test.value for v in test.series)
    if test.value < band.center:
        return any(v <= test.value for v in test.series)
    return False


def _light_baseline(test: SeriesTest, most: int = FEW_DRAWS) -> bool:
    """The baseline's median run holds at most ``most`` records of ``test``'s statistic:
    each run's statistic is a draw or a few of the column's values."""
    return statistics.median(_draws(test, c) for c in test.past) <= most


def _draws(test: SeriesTest, c: ColumnProfile) -> int:
    """The records ``test``'s statistic is computed from in the run ``c``: its rows for a
    null rate, its non-null values otherwise."""
    if test.spec.metric is DriftMetric.NULL_RATE:
        return c.row_count
    return _records(c)


def _records(c: ColumnProfile) -> int:
    if c.numeric is not None:
        return c.numeric.count
    if c.string is not None:
        return c.string.count
    return c.row_count - c.null_count


def _explained(calm: SeriesTest, config: ProfilingConfig, tests: int, tail: float) -> bool:
    """A drop in a reading's distinct count that its smaller spread accounts for."""
    if not judge_test(calm, calm.value, calm.series, config, tests, None, tail).drifted:
        return True
    week = calm.week(calm.read_mask)
    return (
        week is not None
        and not judge_test(calm, calm.value, calm.series, config, tests, week, tail).drifted
    )


def _finding(test: SeriesTest, band: Band, tests: int) -> DriftFinding:
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
        sampled=_draws(test, test.profile) if band.sampled else None,
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


def judge_test(
    test: SeriesTest,
    value: float,
    series: list[float],
    config: ProfilingConfig,
    tests: int,
    week: Weekdays | None,
    tail: float = 1.0,
) -> Band:
    """The band ``value`` is judged in against ``series`` as one of ``tests`` tests of the
    run, its limits widened by the table's ``tail`` (``week``: against its weekday)."""
    return judge(
        value,
        series,
        transform=transform_for(test.spec, value, series),
        floor=test.floor,
        method=config.method,
        sensitivity=config.effective_sensitivity,
        tests=tests,
        extreme=test.spec.extreme and not test.one_draw,
        step=test.step,
        noise=test.noise,
        week=week,
        sampling=test.sampling,
        tail=tail,
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
