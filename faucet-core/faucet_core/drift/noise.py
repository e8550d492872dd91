"""The sampling model of a run's statistics: how much a statistic moves by chance alone,
given the records the run holds.

A run's null rate, mean or mean length is computed from its own records; a run with 72
records reads its null rate far less precisely than one with 10,000. Judged only against
the spread of a short or constant baseline, a light day alarms on noise and a constant
baseline gives a band of zero width. Here every statistic that has a sampling law gets
its variance on the judged scale:

==============  ==========================  ==========================================
statistic       judged as                   sampling variance, n the run's records
==============  ==========================  ==========================================
null_rate       asin(sqrt(rate))            1 / (4 n): a binomial share, even in level
mean            the mean                    s² / n, s the larger of the run's and the
                                            baseline's median standard deviation
len_mean        the mean length             (range of lengths)² / 12 / n (no length
                                            variance is kept; a uniform spread over the
                                            observed range stands in)
==============  ==========================  ==========================================

The prediction for the run is then (:class:`Sampling`)::

    variance = now + past / k + between (1 + 1 / k)

``now`` the run's sampling variance, ``past`` the baseline values' mean sampling
variance (the uncertainty of their mean, over ``k`` runs), and ``between`` the run-to-run
variation the baseline shows beyond sampling: its sample variance less ``past``, raised
to the upper 95 % confidence bound of a variance estimated from ``k`` points
(:func:`between_run_upper`). A baseline that varied no more than sampling does is judged
on sampling alone, however short; one that varied more is widened for what its length
leaves uncertain; a constant baseline has the band of its sampling error, never zero.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from faucet_core.drift.stats import chi2_lower_quantile
from faucet_core.profile.model import ColumnProfile

__all__ = [
    "BETWEEN_CONFIDENCE",
    "Sampling",
    "between_run_upper",
    "len_mean_sampling",
    "mean_sampling",
    "null_rate_sampling",
]

BETWEEN_CONFIDENCE = 0.05
"""The between-run variance is taken at the upper bound that a variance estimated from
the baseline's runs exceeds with this probability: 2.4 x the estimate for 5 runs, 1.9 x
for 10, 1.4 x for 20."""


@dataclass(frozen=True)
class Sampling:
    """Sampling variances of one statistic, on the scale it is judged on."""

    now: float
    """The current run's value's sampling variance."""
    past: float
    """The mean sampling variance of the baseline runs' values."""

    def predictive(self, runs: int, between: float) -> float:
        """The variance of the run's value about the baseline's mean of ``runs`` values
        when runs also differ by ``between`` (a variance)."""
        k = max(runs, 1)
        return self.now + self.past / k + between * (1.0 + 1.0 / k)


def between_run_upper(variance: float, past: float, df: float) -> float:
    """The upper confidence bound of the between-run variance: the baseline's
    ``variance`` (estimated with ``df`` degrees of freedom) less its mean sampling
    variance ``past``."""
    excess = variance - past
    if excess <= 0.0 or df <= 0.0:
        return max(excess, 0.0)
    return excess * df / chi2_lower_quantile(BETWEEN_CONFIDENCE, df)


def _finite(*values: float) -> bool:
    return all(math.isfinite(v) for v in values)


def null_rate_sampling(current: ColumnProfile, past: Sequence[ColumnProfile]) -> Sampling | None:
    """A null rate's binomial variance on the arcsine scale: 1 / (4 n)."""
    rows = [c.row_count for c in past if c.row_count > 0]
    if current.row_count <= 0 or not rows:
        return None
    return Sampling(
        now=0.25 / current.row_count,
        past=math.fsum(0.25 / n for n in rows) / len(rows),
    )


def mean_sampling(current: ColumnProfile, past: Sequence[ColumnProfile]) -> Sampling | None:
    """A mean's variance s² / n: the baseline's own per run, and the run's at the larger
    of its standard deviation and the baseline's median one (a run's wider spread widens
    its own mean's error; a narrower one does not narrow it below the baseline's)."""
    now = current.numeric
    before = [c.numeric for c in past if c.numeric is not None and c.numeric.count > 0]
    if now is None or now.count <= 0 or not before:
        return None
    if not _finite(now.stddev, *(n.stddev for n in before)):
        return None
    typical = statistics.median(n.stddev for n in before)
    sd = max(now.stddev, typical)
    return Sampling(
        now=sd * sd / now.count,
        past=math.fsum(n.stddev * n.stddev / n.count for n in before) / len(before),
    )


def _length_variance(c: ColumnProfile) -> float:
    s = c.string
    assert s is not None
    return (s.len_max - s.len_min) ** 2 / 12.0


def len_mean_sampling(current: ColumnProfile, past: Sequence[ColumnProfile]) -> Sampling | None:
    """A mean length's variance, with a uniform spread over the observed lengths."""
    before = [c for c in past if c.string is not None and c.string.count > 0]
    if current.string is None or current.string.count <= 0 or not before:
        return None
    typical = statistics.median(_length_variance(c) for c in before)
    spread = max(_length_variance(current), typical)
    return Sampling(
        now=spread / current.string.count,
        past=math.fsum(_length_variance(c) / c.string.count for c in before if c.string)
        / len(before),
    )
