"""The series metrics: which profile statistics are judged, on what scale, above what floor.

| metric        | statistic          | scale           | floor (never reported at or below) |
|---------------|--------------------|-----------------|------------------------------------|
| null_rate     | null_rate          | arcsine         | 1 percentage point                 |
| distinct      | distinct           | ratios          | 5 % of the count, and 1 value      |
| mean          | numeric.mean       | linear          | 1 % of the baseline                |
| min, max      | numeric.min / .max | linear / ratios | 1 % of the baseline, 0.1 stddev    |
| string_length | len_mean, len_max  | linear / ratios | 1 % of the baseline                |

* distinct counts are compared as ratios, against the run's volume (see
  :mod:`faucet_core.drift.volume`): a weekend with 25 % fewer orders is not a 25 %
  drop in distinct order ids. A count that moves by one value is left to the value
  metrics, and a count that varies at all is taken to spread by at least half a value
  (a 15-value column whose count once read 16 has not shown a spread of 0.2). Near
  the most values a run has shown, the count spreads by at least the square root of
  the values absent (see :func:`~faucet_core.drift.volume.presence_noise`), and a
  drop in the count of fractional readings that their smaller spread explains is
  cleared (:func:`~faucet_core.drift.volume.spread_elasticity`).
* min, max and len_max are the extremes of a run: max and len_max are compared as
  ratios (when positive), since the largest of many heavy-tailed values moves by
  factors; min on its own scale, as it sits near a lower bound (often zero). Extremes
  are judged at the Gumbel limit (see :mod:`faucet_core.drift.limits`) and a move of
  less than a tenth of the column's standard deviation is never reported (a min of
  5.0 that becomes 5.1 in a column spread over hundreds). An extreme is reported only
  outside the range the baseline's runs spanned, by more than the floor: the earliest
  departure of a day is sometimes 00:01 and sometimes 04:55, and either is normal once
  the baseline has seen it, however the two modes make the band look. A min that rose
  but stays below the column's median p50, and a max that fell but stays above its
  median p95, are a thinner tail, not a finding.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from faucet_core.config import ProfilingConfig
from faucet_core.drift.band import ARCSINE, LINEAR, LOG, Band, Transform, judge
from faucet_core.drift.model import DriftMetric
from faucet_core.drift.noise import (
    Sampling,
    len_mean_sampling,
    mean_sampling,
    null_rate_sampling,
)
from faucet_core.drift.weekly import Weekdays
from faucet_core.profile.model import ColumnProfile

__all__ = [
    "ROW_COUNT",
    "SERIES",
    "SeriesSpec",
    "SeriesTest",
    "column_spread",
    "draws",
    "judge_test",
    "transform_for",
]

NULL_RATE_FLOOR = 0.01
ROW_COUNT_FLOOR = 0.2
DISTINCT_FLOOR = 0.05
RELATIVE_FLOOR = 0.01
EXTREME_SPREAD_FLOOR = 0.1

Floor = Callable[[float, float], float]
"""(baseline center, the column's typical standard deviation) -> floor."""


@dataclass(frozen=True)
class SeriesSpec:
    """One statistic judged against its baseline series."""

    metric: DriftMetric
    statistic: str
    read: Callable[[ColumnProfile], float | None]
    floor: Floor
    ratio: bool
    """Judged as a ratio (log scale) when every value is positive."""
    extreme: bool = False
    """The run's most extreme value: judged at the Gumbel limit."""
    step: float = 0.0
    """Resolution: a count moves in whole values, so its spread is at least half a value."""
    sampling: Callable[[ColumnProfile, Sequence[ColumnProfile]], Sampling | None] | None = None
    """The statistic's sampling variances (:mod:`faucet_core.drift.noise`), if it has a
    sampling law."""
    share: bool = False
    """A share of the records: judged as asin(sqrt(share))."""


def _null_rate(c: ColumnProfile) -> float | None:
    return c.null_rate if c.row_count else None


def _distinct(c: ColumnProfile) -> float | None:
    return float(c.distinct) if c.distinct > 0 and c.row_count > c.null_count else None


def _numeric(field: str) -> Callable[[ColumnProfile], float | None]:
    def read(c: ColumnProfile) -> float | None:
        return None if c.numeric is None else float(getattr(c.numeric, field))

    return read


def _string(field: str) -> Callable[[ColumnProfile], float | None]:
    def read(c: ColumnProfile) -> float | None:
        return None if c.string is None else float(getattr(c.string, field))

    return read


def _null_floor(center: float, spread: float) -> float:
    return NULL_RATE_FLOOR


def _distinct_floor(center: float, spread: float) -> float:
    return max(DISTINCT_FLOOR * abs(center), 1.0)


def _relative(center: float, spread: float) -> float:
    return RELATIVE_FLOOR * abs(center)


def _row_count(c: ColumnProfile) -> float | None:
    return float(c.row_count) if c.row_count > 0 else None


def _row_count_floor(center: float, spread: float) -> float:
    return max(ROW_COUNT_FLOOR * abs(center), 1.0)


def _extreme_floor(center: float, spread: float) -> float:
    return max(RELATIVE_FLOOR * abs(center), EXTREME_SPREAD_FLOOR * spread)


DISTINCT = SeriesSpec(
    DriftMetric.DISTINCT, "distinct", _distinct, _distinct_floor, ratio=True, step=1.0
)

ROW_COUNT = SeriesSpec(
    DriftMetric.ROW_COUNT, "rows", _row_count, _row_count_floor, ratio=True, step=1.0
)
"""The table's volume (:mod:`faucet_core.drift.rows`); not a column statistic."""

SERIES: tuple[SeriesSpec, ...] = (
    SeriesSpec(
        DriftMetric.NULL_RATE,
        "null_rate",
        _null_rate,
        _null_floor,
        ratio=False,
        sampling=null_rate_sampling,
        share=True,
    ),
    DISTINCT,
    SeriesSpec(
        DriftMetric.MEAN,
        "mean",
        _numeric("mean"),
        _relative,
        ratio=False,
        sampling=mean_sampling,
    ),
    SeriesSpec(DriftMetric.MIN, "min", _numeric("min"), _extreme_floor, ratio=False, extreme=True),
    SeriesSpec(DriftMetric.MAX, "max", _numeric("max"), _extreme_floor, ratio=True, extreme=True),
    SeriesSpec(
        DriftMetric.STRING_LENGTH,
        "len_mean",
        _string("len_mean"),
        _relative,
        ratio=False,
        sampling=len_mean_sampling,
    ),
    SeriesSpec(
        DriftMetric.STRING_LENGTH,
        "len_max",
        _string("len_max"),
        _relative,
        ratio=True,
        extreme=True,
        step=1.0,
    ),
)
"""Every series test, in report order."""


def column_spread(past: Sequence[ColumnProfile]) -> float:
    """The column's typical standard deviation over the baseline (0 if not numeric)."""
    spreads = [c.numeric.stddev for c in past if c.numeric is not None]
    return statistics.median(spreads) if spreads else 0.0


def transform_for(spec: SeriesSpec, current: float, series: Sequence[float]) -> Transform:
    """The scale ``spec`` is judged on for these values."""
    if spec.share:
        return ARCSINE
    if not spec.ratio:
        return LINEAR
    if current > 0 and all(v > 0 for v in series):
        return LOG
    return LINEAR


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
    one_draw: bool = False
    """A min or max of runs that each hold one number (a table of one row a day): the
    extreme of one draw, judged at the normal limit, not at an extreme's longer one."""

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


def draws(test: SeriesTest, c: ColumnProfile) -> int:
    """The records ``test``'s statistic is computed from in the run ``c``: its rows for a
    null rate, its non-null values otherwise."""
    if test.spec.metric is DriftMetric.NULL_RATE:
        return c.row_count
    if c.numeric is not None:
        return c.numeric.count
    if c.string is not None:
        return c.string.count
    return c.row_count - c.null_count


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
