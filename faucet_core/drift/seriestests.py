"""The series tests of one run: gather every (column, statistic) pair, then judge each
with the number of tests known (the per-table budget of :mod:`faucet_core.drift.limits`).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from faucet_core.config import ProfilingConfig
from faucet_core.drift.band import Band, judge
from faucet_core.drift.draws import beyond_constant_chance, inward_chance, outward_chance
from faucet_core.drift.limits import budget_limit, tail_probability
from faucet_core.drift.messages import series_message
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.noise import Sampling
from faucet_core.drift.series import SERIES, SeriesSpec, column_spread, transform_for
from faucet_core.drift.stats import normal_quantile
from faucet_core.drift.tail import TailEvidence, tail_scale
from faucet_core.drift.values import beyond_chance
from faucet_core.drift.volume import (
    distinct_elasticity,
    non_null,
    presence_noise,
    spread_elasticity,
)
from faucet_core.drift.weekly import Weekdays
from faucet_core.profile.model import ColumnProfile, NumericStats

__all__ = ["SeriesTest", "judge_series", "judge_test", "series_tests", "table_tail"]


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
    noise: float = 0.0
    """A spread the statistic has by chance (see :func:`presence_noise`), on the judged
    statistic's scale."""
    calm: SeriesTest | None = None
    """distinct of readings only: the same test with the count scaled to the run's
    spread too, which can clear a drop (a calm day's temperatures)."""
    today: int | None = None
    """The current run's weekday, when the runs' times are known."""
    days: tuple[int, ...] = ()
    """The weekday of each run in ``past`` (empty without times)."""
    sampling: Sampling | None = None
    """The statistic's sampling variances, when it has a sampling law."""

    @property
    def read_mask(self) -> list[bool]:
        """Which runs of ``past`` have a value in ``series``."""
        return [self.spec.read(c) is not None for c in self.past]

    def shown(self, band: Band) -> tuple[float, Band]:
        """The statistic and its band as the user reads them (a count, not its ratio)."""
        if self.factor == 1.0:
            return self.value, band
        return self.value * self.factor, band.times(self.factor)

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
        if len(test.series) >= min_history:
            tests.append(test)
    return tests


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
    if test.spec.extreme:
        if _inside_seen_range(test, band):
            return "extreme_seen_before"
        if _tail_thinned(test, band):
            return "thinner_tail"
        if _fewer_draws(test, band, config, n):
            return "longest_text_of_fewer_draws"
        if _rare_long_value(test, band, config, n):
            return "rare_value_length"
        alpha = tail_probability(config.method, config.effective_sensitivity) / n / 2.0
        if _inward_by_chance(test, band, alpha):
            return "extreme_of_fewer_draws"
        if _outward_by_chance(test, band, alpha):
            return "new_extreme_by_chance"
    return None


def _fewer_draws(test: SeriesTest, band: Band, config: ProfilingConfig, tests: int) -> bool:
    """A text column's longest value that fell on a light run by chance: a run of n
    records reaches the length the baseline's runs reached less often than they did.
    With f of the k baseline runs as short, the chance u that a run of the baseline's
    mean size m stays as short has the posterior Beta(1 + f, 1 + k - f), and a run of n
    records stays as short with u ** (n / m); its expectation is the probability of what
    was seen, compared with the test's share of the budget. Only on a run lighter than
    the baseline's mean, and only above the column's median mean length: text keeps no
    quantiles to tell a thin tail from a cut, so at full volume, or into the body of the
    lengths, a shorter longest value is judged (numbers have their p95 and p50:
    :func:`_tail_thinned`)."""
    if test.spec.statistic != "len_max" or not test.value < band.center:
        return False
    strings = [c.string for c in test.past if c.string is not None]
    if not strings or not test.value > statistics.median(s.len_mean for s in strings):
        return False
    mean = math.fsum(s.count for s in strings) / len(strings)
    now = test.profile.string.count if test.profile.string is not None else 0
    if mean <= 0.0 or not 0 < now < mean:
        return False
    seen = sum(1 for v in test.series if v <= test.value)
    a, b, r = 1.0 + seen, 1.0 + len(test.series) - seen, now / mean
    log_chance = math.lgamma(a + r) + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(a + b + r)
    alpha = tail_probability(config.method, config.effective_sensitivity) / tests
    return math.exp(log_chance) > alpha


def _rare_long_value(test: SeriesTest, band: Band, config: ProfilingConfig, tests: int) -> bool:
    """A longest text that grew because of values the value tests let pass: the run lists
    every one of its values, and those longer than any baseline run's longest hold, all
    together, less than ``new_value_min_share`` of its records, or a share that its
    sampling explains at the test's limit (one record of a light run's six: a rare
    category appearing, which ``new_value`` judges by its share). A longer format that
    most records take is still judged."""
    top = test.profile.top_values
    strings = test.profile.string
    if test.spec.statistic != "len_max" or not test.value > band.center:
        return False
    if not top or strings is None or strings.count <= 0:
        return False
    non_null = test.profile.row_count - test.profile.null_count
    if sum(t.count for t in top) < non_null:
        return False  # values beyond the list: the longest may be any of them
    longest = max(test.series)
    longer = sum(t.count for t in top if isinstance(t.value, str) and len(t.value) > longest)
    if longer <= 0:
        return False
    limit = budget_limit(config.method, config.effective_sensitivity, tests)
    share = longer / non_null
    return share < config.new_value_min_share or not beyond_chance(share, 0.0, non_null, 0.0, limit)


def _inward_by_chance(test: SeriesTest, band: Band, alpha: float) -> bool:
    """A numeric maximum that fell, or minimum that rose, as far as a run of this many
    records drawn from the baseline's pooled values reaches with a chance above
    ``alpha`` (:func:`~faucet_core.drift.draws.inward_chance`)."""
    statistic = test.spec.statistic
    inward = (statistic == "max" and test.value < band.center) or (
        statistic == "min" and test.value > band.center
    )
    if not inward:
        return False
    chance = inward_chance(test.profile, test.past, test.value, high=statistic == "max")
    return chance is not None and chance > alpha


def _outward_by_chance(test: SeriesTest, band: Band, alpha: float) -> bool:
    """An extreme beyond a baseline that always held the same one, when chance explains
    it above ``alpha``: by no more than the column's spread (its median standard
    deviation; one character for a length), the chance that a run of this many records
    holds a value beyond every baseline record
    (:func:`~faucet_core.drift.draws.outward_chance`); by no more than one record of the
    column's spread reaches at ``alpha`` (the normal quantile times it), or however far
    beyond a baseline whose every number held that one value, the chance that as many
    of the run's records as lie beyond that extreme would, given how many of the
    baseline's did (:func:`~faucet_core.drift.draws.beyond_constant_chance`). A sentinel
    9999 among codes 0-4 stays a finding."""
    statistic = test.spec.statistic
    outward = (statistic in ("max", "len_max") and test.value > band.center) or (
        statistic == "min" and test.value < band.center
    )
    if not band.constant or not outward:
        return False
    if statistic == "len_max":
        spread = 1.0
    else:
        numbers = [c.numeric for c in test.past if c.numeric is not None]
        sds = [n.stddev for n in numbers]
        spread = max(statistics.median(sds) if sds else 0.0, _resolution(numbers))
        others = sum(1 for n in numbers if n.count and not n.min == n.max == band.center)
        one_value = others <= band.excluded  # a past incident left out aside
        reach = normal_quantile(alpha) * statistics.median(sds) if sds else 0.0
        if one_value or abs(test.value - band.center) <= reach:
            high = statistic == "max"
            chance = beyond_constant_chance(test.profile, test.past, band.center, high=high)
            if chance is not None and chance > alpha:
                return True
    if not abs(test.value - band.center) <= spread:
        return False
    chance = outward_chance(test.profile, test.past)
    return chance is not None and chance > alpha


def _resolution(numbers: Sequence[NumericStats]) -> float:
    """1 for a column whose baseline extremes and quantiles are all whole numbers (a code,
    a count: it moves by whole units), else 0."""
    values = [v for n in numbers for v in (n.min, n.max, n.p50, n.p95)]
    whole = values and all(math.isfinite(v) and v == math.floor(v) for v in values)
    return 1.0 if whole else 0.0


def _sample_size(test: SeriesTest) -> int:
    """The records a sampled statistic was computed from."""
    if test.spec.metric is DriftMetric.NULL_RATE:
        return test.profile.row_count
    return _records(test.profile)


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


def _inside_seen_range(test: SeriesTest, band: Band) -> bool:
    """An extreme no farther outside the baseline's own range than the floor: the
    baseline has seen it (a bimodal min or max switching modes)."""
    low, high = min(test.series), max(test.series)
    margin = band.floor / test.factor if test.factor != 1.0 else band.floor
    return low - margin <= test.value <= high + margin


def _tail_thinned(test: SeriesTest, band: Band) -> bool:
    """An extreme that moved inward and stays in the column's own tail: that day's tail
    was thinner, not cut. A min that rose, still below the baseline's median p50 (no
    departure after midnight); a max that fell, still above the baseline's median p95
    (no flight to Honolulu that day: the top 5 % of records are still there, the single
    longest is not). A min that moves outward or past the middle, and a max that falls
    into the body of the column (a cap on more than 5 % of the records, text truncated)
    are judged; so is every move of len_max, whose column has no quantiles."""
    if test.profile.numeric is None or test.spec.statistic not in ("min", "max"):
        return False
    numeric = [c.numeric for c in test.past if c.numeric is not None]
    if not numeric:
        return False
    if test.spec.metric is DriftMetric.MIN:
        middle = statistics.median(n.p50 for n in numeric)
        return band.center < test.value < middle
    upper = statistics.median(n.p95 for n in numeric)
    return upper < test.value < band.center


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
        sampled=_sample_size(test) if band.sampled else None,
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
        extreme=test.spec.extreme,
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
