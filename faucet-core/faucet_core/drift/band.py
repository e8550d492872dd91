"""Judge one number against the baseline series of that number.

Steps, for one (column, statistic) pair:

1. Transform: ratios (log) for distinct counts and for the maxima of positive columns,
   whose run-to-run noise is multiplicative; the metric's own scale otherwise (see
   :mod:`faucet_core.drift.series`).
   With the runs' weekdays, a series that follows the week is first re-centered on
   the current run's weekday (:mod:`faucet_core.drift.weekly`).
2. zscore only: leave out the baseline run that is itself a gross outlier against the
   rest (a past incident kept under ``on_drift: warn``), at most one; it is left out
   when it would have been flagged by this same test against the others. Two or more
   runs far from the rest are the series' own tail or a change on its way to being
   the norm, and stay.
3. Center and spread: mean and sample standard deviation (zscore), or median and IQR
   (iqr), of what is left.
   For iqr, a discrete statistic whose quartiles coincide while its runs differ is
   measured in its normal-equivalent IQR (1.349 standard deviations).
4. Limit: :func:`~faucet_core.drift.limits.series_limit` for the runs used and the
   number of series tests in the table; the score (|z|, or IQRs beyond the quartiles)
   must exceed it.
5. Floor: a change from the center no larger than the metric's floor is never drift,
   however significant. A constant baseline (no spread) is judged by the floor alone:
   every change above it is reported, none below.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from faucet_core.config import DriftMethod
from faucet_core.drift.limits import (
    IQR_SIGMAS,
    QUARTILE_SIGMAS,
    budget_limit,
    series_limit,
    tail_probability,
)
from faucet_core.drift.model import DriftScale
from faucet_core.drift.noise import Sampling, between_run_upper
from faucet_core.drift.stats import quantile
from faucet_core.drift.weekly import Weekdays, same_weekday

__all__ = ["IQR_MIN_RUNS", "Band", "Transform", "judge"]

MAX_LEFT_OUT = 1
"""Baseline runs left out as past incidents: one. Two or more runs far from the rest are
the series' own tail (weather days of a null rate), not one incident."""

_EPSILON = 1e-12
"""Relative slack in the floor comparison, so float noise never decides at the floor."""

IQR_MIN_RUNS = 6
"""Quartiles of 5 runs are the 2nd and 4th values: so uncertain that a calibrated fence
sits about 90 IQRs out (see :mod:`faucet_core.drift.limits`). Below this many runs,
``method: iqr`` judges like zscore, at the z with the same tail probability."""


IQR_SAMPLED_MIN_RUNS = 10
"""For a statistic with a sampling model, ``method: iqr`` judges like zscore (with the
sampling model) below this many runs: the quartiles of fewer runs say less about the
between-run spread than the standard deviation with its confidence bound does."""


@dataclass(frozen=True)
class Transform:
    """A monotone map to the scale a statistic is judged on, and back."""

    scale: DriftScale
    forward: Callable[[float], float]
    inverse: Callable[[float], float]


LINEAR = Transform(DriftScale.LINEAR, float, float)
LOG = Transform(DriftScale.LOG, math.log, math.exp)


def _arcsine(p: float) -> float:
    return math.asin(math.sqrt(min(max(p, 0.0), 1.0)))


def _arcsine_inverse(y: float) -> float:
    return math.sin(min(max(y, 0.0), math.pi / 2)) ** 2


ARCSINE = Transform(DriftScale.ARCSINE, _arcsine, _arcsine_inverse)
"""Shares (null rates): asin(sqrt(p)), on which a binomial share of n records spreads by
1 / (4 n) whatever its level, so a 0 % baseline has a band too."""


@dataclass(frozen=True)
class Band:
    """The verdict on one number: where the baseline sits and how far the number is."""

    drifted: bool
    method: DriftMethod
    """The test applied: iqr falls back to zscore on baselines too short for quartiles."""
    sensitivity: float
    """The sensitivity of that test (Tukey's multiplier turned into z on a fallback)."""
    scale: DriftScale
    center: float
    """Mean (zscore) or median (iqr) of the kept runs, back on the metric's scale."""
    spread: float
    """Standard deviation or IQR of the kept runs, on the judged scale."""
    constant: bool
    """Every kept baseline run held the same value: only the floor judges."""
    score: float
    """|z| or IQRs beyond the quartiles; the change itself for a constant baseline."""
    threshold: float
    """What ``score`` is compared with: the limit, or the floor for a constant baseline."""
    limit: float
    floor: float
    low: float
    high: float
    """The values that pass, on the metric's scale."""
    runs: int
    excluded: int
    sampled: bool = False
    """The spread is the sampling model's (:func:`_sampled_band`), not the baseline's
    alone: the limit was widened for the tests only."""
    tail: float = 1.0
    """The factor the table's own tail widened the limit by (:mod:`faucet_core.drift.tail`)."""

    def times(self, factor: float) -> Band:
        """The band of a per-record statistic, multiplied back to a count."""
        scaled = replace(
            self,
            center=self.center * factor,
            floor=self.floor * factor,
            low=self.low * factor,
            high=self.high * factor,
        )
        if self.constant:
            scaled = replace(scaled, score=self.score * factor, threshold=self.threshold * factor)
        return scaled


def judge(
    current: float,
    series: Sequence[float],
    *,
    transform: Transform,
    floor: Callable[[float], float],
    method: DriftMethod,
    sensitivity: float,
    tests: int,
    extreme: bool = False,
    step: float = 0.0,
    noise: float = 0.0,
    week: Weekdays | None = None,
    sampling: Sampling | None = None,
    tail: float = 1.0,
) -> Band:
    """Judge ``current`` against ``series`` (the baseline values, oldest first);
    ``extreme`` for a run's min or max (judged at the Gumbel limit); ``step`` the
    statistic's resolution (1 for a count), which bounds a varying series' spread;
    ``noise`` a spread the statistic has by chance whatever the baseline showed (on
    its own scale: see :func:`~faucet_core.drift.volume.presence_noise`);
    ``week`` the weekdays of the runs, to judge against the same weekday when the
    series follows the week (:mod:`faucet_core.drift.weekly`); ``sampling`` the
    statistic's sampling variances on the judged scale (see
    :mod:`faucet_core.drift.noise`): with them the band is the run's own sampling error
    plus an upper bound of the between-run variation (:func:`_sampled`); ``tail`` the
    factor (>= 1) the table's own runs widen every limit by (:mod:`faucet_core.drift.tail`)."""
    ys = list(map(transform.forward, series))
    y = transform.forward(current)
    if week is not None:
        alpha = tail_probability(method, sensitivity) / max(tests, 1)
        ys = same_weekday(ys, week, alpha) or ys
    iqr = method is DriftMethod.IQR and len(ys) >= (
        IQR_MIN_RUNS if sampling is None else IQR_SAMPLED_MIN_RUNS
    )
    if sampling is not None and not iqr:
        return _sampled_band(
            current,
            y,
            ys,
            sampling=sampling,
            method=method,
            sensitivity=sensitivity,
            tests=tests,
            extreme=extreme,
            transform=transform,
            floor=floor,
            step=step,
            noise=noise,
            series=series,
            tail=tail,
        )
    if iqr:
        ordered = sorted(ys)
        q1, median, q3 = (quantile(ordered, q) for q in (0.25, 0.5, 0.75))
        basis = q3 - q1
        if ordered[0] != ordered[-1]:
            # A discrete statistic whose quartiles (nearly) coincide: at least its
            # normal-equivalent IQR, and at least that of half a step.
            at = transform.inverse(median)
            half_step = _half_step(at, step, transform)
            chance = _chance(at, noise, transform)
            floor_sd = _mean_sd(ys)[1] if basis == 0.0 else 0.0
            basis = max(basis, IQR_SIGMAS * max(floor_sd, half_step, chance))
        if sampling is not None:  # never narrower than the run's own sampling error
            basis = max(basis, IQR_SIGMAS * math.sqrt(sampling.predictive(len(ys), 0.0)))
        limit = series_limit(method, sensitivity, len(ys), tests, extreme=extreme)
        return _verdict(
            current,
            y,
            reference=(q1, median, q3),
            spread=q3 - q1,
            basis=basis,
            method=method,
            sensitivity=sensitivity,
            limit=limit,
            transform=transform,
            floor=floor,
            runs=len(ys),
            excluded=0,
            series=series,
            tail=tail,
        )
    if method is DriftMethod.IQR:
        method, sensitivity = DriftMethod.ZSCORE, _zscore_equivalent(sensitivity)
    kept, mean, sd = _leave_out_outliers(ys, y, transform, floor, sensitivity, tests, extreme)
    limit = series_limit(method, sensitivity, len(kept), tests, extreme=extreme)
    at = transform.inverse(mean)
    basis = (
        max(sd, _half_step(at, step, transform), _chance(at, noise, transform)) if sd > 0 else 0.0
    )
    return _verdict(
        current,
        y,
        reference=(mean, mean, mean),
        spread=sd,
        basis=basis,
        method=method,
        sensitivity=sensitivity,
        limit=limit,
        transform=transform,
        floor=floor,
        runs=len(kept),
        excluded=len(ys) - len(kept),
        series=series,
        tail=tail,
    )


def _sampled_band(
    current: float,
    y: float,
    ys: list[float],
    *,
    sampling: Sampling,
    method: DriftMethod,
    sensitivity: float,
    tests: int,
    extreme: bool,
    transform: Transform,
    floor: Callable[[float], float],
    step: float,
    noise: float,
    series: Sequence[float],
    tail: float,
) -> Band:
    """The band of a statistic with a sampling model: the run's own sampling variance,
    the baseline center's, and an upper confidence bound of the between-run variance left
    once the baseline's sampling is taken out of its spread. A short baseline widens only
    the part it estimates; one that varied no more than sampling does is judged on
    sampling alone; a constant one has the band of its sampling error. The spread is the
    standard deviation after leaving out a past incident (iqr judges this way too below
    :data:`IQR_MIN_RUNS` runs). The limit is the normal quantile of the test's share of
    the run's budget."""
    if method is DriftMethod.IQR:
        method, sensitivity = DriftMethod.ZSCORE, _zscore_equivalent(sensitivity)
    kept, center, spread = _leave_out_outliers(ys, y, transform, floor, sensitivity, tests, extreme)
    variance = spread * spread
    df = float(len(kept) - 1)
    between = between_run_upper(variance, sampling.past, df)
    basis = math.sqrt(sampling.predictive(len(kept), between))
    if basis > 0.0:
        at = transform.inverse(center)
        basis = max(basis, _half_step(at, step, transform), _chance(at, noise, transform))
    return _verdict(
        current,
        y,
        reference=(center, center, center),
        spread=spread,
        basis=basis,
        method=method,
        sensitivity=sensitivity,
        limit=budget_limit(method, sensitivity, tests, extreme=extreme),
        transform=transform,
        floor=floor,
        runs=len(kept),
        excluded=len(ys) - len(kept),
        series=series,
        tail=tail,
        sampled=True,
    )


def _zscore_equivalent(multiplier: float) -> float:
    """The z threshold with the tail probability of Tukey's fence ``multiplier``."""
    return QUARTILE_SIGMAS + IQR_SIGMAS * multiplier


def _half_step(center: float, step: float, transform: Transform) -> float:
    """Half of the statistic's resolution, on the judged scale at ``center``."""
    if step <= 0.0:
        return 0.0
    return abs(transform.forward(center + step / 2) - transform.forward(center))


def _chance(center: float, noise: float, transform: Transform) -> float:
    """``noise`` (a standard deviation on the statistic's scale) on the judged scale, on
    the side below ``center``, where a ratio scale stretches it (above, when the noise
    reaches zero)."""
    if noise <= 0.0:
        return 0.0
    if center - noise <= 0.0 and transform.scale is DriftScale.LOG:  # no ratio below 0
        return abs(transform.forward(center + noise) - transform.forward(center))
    return abs(transform.forward(center) - transform.forward(center - noise))


def _verdict(
    current: float,
    y: float,
    *,
    reference: tuple[float, float, float],
    spread: float,
    basis: float,
    method: DriftMethod,
    sensitivity: float,
    limit: float,
    transform: Transform,
    floor: Callable[[float], float],
    runs: int,
    excluded: int,
    series: Sequence[float],
    tail: float = 1.0,
    sampled: bool = False,
) -> Band:
    """``reference`` is (lower, center, upper) on the judged scale: the mean three times,
    or the quartiles and the median; ``basis`` the spread the score is measured in;
    ``limit`` the model's, which the table's ``tail`` widens."""
    limit *= tail
    lower, middle, upper = reference
    center = transform.inverse(middle)
    if basis == 0.0:  # a constant baseline: its own value, not a log round trip of it
        center = min(series, key=lambda v: abs(v - center))
    floor_raw = floor(center)
    change = abs(current - center)
    above_floor = change > floor_raw + _EPSILON * max(abs(center), 1.0)
    beyond = max(y - upper, lower - y, 0.0)
    if basis == 0.0:
        score, threshold = change, floor_raw
        drifted = above_floor
    else:
        score, threshold = beyond / basis, limit
        drifted = score > limit and above_floor
    margin = limit * basis
    low = min(_inverse(lower - margin, transform), center - floor_raw)
    high = max(_inverse(upper + margin, transform), center + floor_raw)
    return Band(
        drifted=drifted,
        method=method,
        sensitivity=sensitivity,
        scale=transform.scale,
        center=center,
        spread=spread,
        constant=basis == 0.0,
        score=score,
        threshold=threshold,
        limit=limit,
        floor=floor_raw,
        low=low,
        high=high,
        runs=runs,
        excluded=excluded,
        sampled=sampled,
        tail=tail,
    )


_SAFE = 1e150
"""Above this magnitude, squares of differences could overflow a float."""


def _mean_sd(values: list[float]) -> tuple[float, float]:
    """Mean and sample standard deviation; exactly 0.0 for identical values."""
    n = len(values)
    if n < 2 or max(values) == min(values):
        return values[0], 0.0
    # Scaled by a power of two (exact) so values near the float limit neither overflow
    # in their sum or squares nor lose precision: the result is the unscaled one.
    big = max(abs(v) for v in values)
    scale = 2.0 ** -math.frexp(big)[1] if big > _SAFE else 1.0
    scaled = [v * scale for v in values]
    mean = math.fsum(scaled) / n
    var = math.fsum([(v - mean) ** 2 for v in scaled]) / (n - 1)
    return mean / scale, math.sqrt(var) / scale


def _inverse(value: float, transform: Transform) -> float:
    try:
        return transform.inverse(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _leave_out_outliers(
    ys: list[float],
    y: float,
    transform: Transform,
    floor: Callable[[float], float],
    sensitivity: float,
    tests: int,
    extreme: bool,
) -> tuple[list[float], float, float]:
    """Drop, one at a time, the baseline run most extreme against the others while it
    would have been flagged by the same test; at most :data:`MAX_LEFT_OUT` runs (and a
    quarter of them).

    The newest run is no past incident when the current run ``y`` sits on its side of
    the others, at least half as far out: two runs in a row at a new level are a change
    on its way to being the norm, reported once (on the run that brought it), not again
    against a baseline that pretends the newest run did not happen.

    The run farthest from the mean is the one with the largest leave-one-out |z|, and
    its mean and deviation without it follow from the full-sample sums, so one round
    costs O(n).
    """
    kept = list(ys)
    mean, sd = _mean_sd(kept)
    for _ in range(min(MAX_LEFT_OUT, (len(ys) - 1) // 4)):
        k = len(kept)
        if k < 4 or sd == 0.0:
            break
        hi, lo = max(kept), min(kept)
        worst = kept.index(hi if hi - mean >= mean - lo else lo)
        d = kept[worst] - mean
        others_mean = mean - d / (k - 1)
        others_var = max(((k - 1) * sd * sd - d * d * k / (k - 1)) / (k - 2), 0.0)
        limit = series_limit(DriftMethod.ZSCORE, sensitivity, k - 1, tests, extreme=extreme)
        center = transform.inverse(others_mean)
        if abs(transform.inverse(kept[worst]) - center) <= floor(center):
            break
        others_sd = math.sqrt(others_var)
        if others_sd > 0.0 and abs(kept[worst] - others_mean) / others_sd <= limit:
            break
        if worst == k - 1 and d * (y - others_mean) > 0.0 and 2.0 * abs(y - others_mean) >= abs(d):
            break  # the newest run began a new level that the current run keeps
        del kept[worst]
        mean, sd = _mean_sd(kept)
    return kept, mean, sd
