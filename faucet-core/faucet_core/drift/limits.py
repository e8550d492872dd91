"""How far from its baseline a series metric may move: the limit in force for one test.

The user's ``sensitivity`` keeps its meaning as a tail probability: 3.0 (zscore) is
the two-sided tail of a 3-sigma normal deviate, 0.27 %; the Tukey multiplier 1.5 (iqr)
puts the fence at Q3 + 1.5 IQR, 2.70 sigma for normal data, 0.70 %. Two things then
widen the limit, so that the table as a whole false-alarms about as rarely as that one
test would:

* the per-table budget: the probability is shared among the series tests of the run
  (Bonferroni), so 42 tests of a 10-column table are each held to 0.27 % / 42;
* the baseline's length: the limit is the Student-t quantile with n - 1 degrees of
  freedom, times sqrt(1 + 1/n) — the prediction interval for one new value when mean
  and spread are estimated from n points, which is wide for 5 runs and close to the
  normal quantile for 20;
* for iqr, the quartiles of a short series are far less certain than its standard
  deviation: the same t law is used with the effective degrees of freedom of the IQR
  (calibrated by simulation of normal series: 1.8 for 5 runs, 4.2 for 10, 8 for 20,
  about 0.35 (n - 1) + 0.7 beyond 15), which makes the fences wide on short baselines;
* for the extremes of a run (min, max, len_max), the tail of their law: the largest of
  many values follows a Gumbel law, whose upper tail is far longer than the normal's,
  so the limit is scaled by the ratio of the Gumbel to the normal quantile at the same
  probability (about 1.9 for 42 tests).
"""

from __future__ import annotations

import math
from functools import lru_cache

from faucet_core.config import DriftMethod
from faucet_core.drift.stats import (
    gumbel_upper_quantile,
    normal_quantile,
    normal_tail,
    student_t_quantile,
)

__all__ = [
    "IQR_SIGMAS",
    "QUARTILE_SIGMAS",
    "budget_limit",
    "iqr_degrees_of_freedom",
    "series_limit",
    "tail_probability",
]

QUARTILE_SIGMAS = 0.6744897501960817
"""Distance of a normal distribution's quartiles from its median, in standard deviations."""
IQR_SIGMAS = 2 * QUARTILE_SIGMAS
"""A normal distribution's interquartile range, in standard deviations."""


def tail_probability(method: DriftMethod, sensitivity: float) -> float:
    """The two-sided tail probability one test at ``sensitivity`` stands for."""
    if method is DriftMethod.IQR:
        return normal_tail(QUARTILE_SIGMAS + IQR_SIGMAS * sensitivity)
    return normal_tail(sensitivity)


_IQR_DF = {2: 0.93, 3: 1.84, 4: 2.54, 5: 1.81, 6: 2.65, 7: 3.42, 8: 3.97, 9: 3.45, 10: 4.21}
_IQR_DF.update({11: 4.99, 12: 5.31, 13: 4.96, 14: 5.72, 15: 6.31})
"""Effective degrees of freedom of a t law for (value - quartile) / IQR of normal series of
n runs (quartiles interpolated linearly), fitted by Monte Carlo at tail probabilities
1e-3 .. 1e-5; the odd shape follows where the quartiles fall between the order statistics."""


def iqr_degrees_of_freedom(runs: int) -> float:
    """The degrees of freedom that make an IQR-based fence as certain as it is."""
    return _IQR_DF.get(runs, 0.35 * (runs - 1) + 0.7)


@lru_cache(maxsize=8192)
def series_limit(
    method: DriftMethod, sensitivity: float, runs: int, tests: int, *, extreme: bool = False
) -> float:
    """The |z| (zscore) or fence multiplier (iqr) one of ``tests`` tests must exceed
    against a baseline of ``runs`` values; ``extreme`` for a run's min or max. Never
    below ``sensitivity``."""
    alpha = tail_probability(method, sensitivity) / max(tests, 1)
    df = iqr_degrees_of_freedom(runs) if method is DriftMethod.IQR else max(runs - 1, 1)
    z = student_t_quantile(alpha / 2.0, float(df)) * math.sqrt(1.0 + 1.0 / max(runs, 1))
    if extreme:
        z *= max(1.0, gumbel_upper_quantile(alpha / 2.0) / normal_quantile(alpha / 2.0))
    if method is DriftMethod.IQR:
        return max(sensitivity, (z - QUARTILE_SIGMAS) / IQR_SIGMAS)
    return max(sensitivity, z)


@lru_cache(maxsize=4096)
def budget_limit(
    method: DriftMethod, sensitivity: float, tests: int, *, extreme: bool = False
) -> float:
    """The |z| one of ``tests`` tests must exceed when its prediction's spread is known
    (a sampling model; the between-run part already widened for the baseline's length):
    the normal quantile of its share of the run's budget (Gumbel for an extreme), and
    never below the z that one test at ``sensitivity`` stands for."""
    tail = tail_probability(method, sensitivity)
    alpha = tail / max(tests, 1)
    z = normal_quantile(alpha / 2.0)
    if extreme:
        z = max(z, gumbel_upper_quantile(alpha / 2.0))
    return max(normal_quantile(tail / 2.0), z)
