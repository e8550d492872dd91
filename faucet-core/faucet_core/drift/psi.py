"""psi: the population stability index of a column's value distribution.

Buckets are the values listed in the current run *and* in every baseline run (their
shares are then known everywhere, never guessed for a value that fell just off a
top-k list), plus one "other" bucket for the rest; shares are of the non-null records,
since nulls are null_rate's business. The baseline distribution is the mean of the
baseline runs' shares. "Other" counts as at least ``new_value_min_share`` on both
sides (then renormalized): values below the share new_value reports may come and go
without moving the index (a new value at 4 % would otherwise add
0.04 * ln(0.04 / 0.0001) = 0.24 on its own).

Chance: on a small run the shares themselves are noisy (24 hourly records split over
three weather states move by a record or two), so the index must also be beyond what
sampling alone gives: n x PSI is about chi-square with (buckets - 1) degrees of freedom
for n records drawn from the baseline's shares, and a finding needs it above that
law's :data:`CHANCE_P` quantile. On thousands of records this asks nothing more.

"Most of the column": PSI is computed only when those values cover at least
:data:`MIN_COVERAGE` (80 %) of the non-null records of the current run and, on
average, of the baseline runs. A column whose values churn or are dates is skipped
(see :mod:`faucet_core.drift.values`), and the detector drops a psi finding when a
new_value or vanished_value finding already explains the shift.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from faucet_core.drift.messages import psi_message
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.stats import normal_quantile
from faucet_core.drift.valuelist import ValueList
from faucet_core.drift.values import effective_records

__all__ = [
    "CHANCE_P",
    "MIN_COVERAGE",
    "PSI_EPSILON",
    "chance_psi",
    "population_stability",
    "psi_finding",
]

CHANCE_P = 0.001
"""The probability that sampling alone gives an index this high, below which it counts."""

MIN_COVERAGE = 0.8
PSI_EPSILON = 1e-4
"""Shares are floored here so an empty bucket gives a large but finite index."""


def population_stability(actual: Sequence[float], expected: Sequence[float]) -> float:
    """sum((a - e) * ln(a / e)) over buckets, shares floored at :data:`PSI_EPSILON`."""
    total = 0.0
    for a, e in zip(actual, expected, strict=True):
        a, e = max(a, PSI_EPSILON), max(e, PSI_EPSILON)
        total += (a - e) * math.log(a / e)
    return total


def chance_psi(records: int, buckets: int) -> float:
    """The index that ``records`` draws from unchanged shares exceed with probability
    :data:`CHANCE_P` (the chi-square quantile, Wilson-Hilferty, over ``records``)."""
    df = max(buckets - 1, 1)
    z = normal_quantile(CHANCE_P)
    quantile = df * (1.0 - 2.0 / (9.0 * df) + z * math.sqrt(2.0 / (9.0 * df))) ** 3
    return quantile / max(records, 1)


def _with_other(shares: list[float], min_share: float) -> list[float]:
    """The shares plus "other", which counts as at least ``min_share``, renormalized."""
    listed = math.fsum(shares)
    other = max(1.0 - listed, min_share)
    total = listed + other
    return [s / total for s in shares] + [other / total]


def psi_finding(
    name: str,
    current: ValueList,
    past: Sequence[ValueList],
    threshold: float,
    min_share: float,
    volatility: Callable[[], float] | None = None,
) -> DriftFinding | None:
    """A psi finding when the index exceeds ``threshold`` and what ``current.non_null``
    records reach by chance, counted as independent draws given the column's share
    ``volatility`` (:func:`~faucet_core.drift.values.effective_records`), else None."""
    if not past or current.non_null == 0:
        return None
    core = set(current.shares)
    for lst in past:
        core &= set(lst.shares)
    if not core:
        return None
    keys = list(core)
    actual = [current.non_null_share(k) for k in keys]
    sums = dict.fromkeys(keys, 0.0)
    for lst in past:
        if lst.non_null:
            shares, scale = lst.shares, lst.rows / lst.non_null
            for k in keys:
                sums[k] += shares[k] * scale
    expected = [sums[k] / len(past) for k in keys]
    coverage, baseline_coverage = math.fsum(actual), math.fsum(expected)
    if coverage < MIN_COVERAGE or baseline_coverage < MIN_COVERAGE:
        return None
    psi = population_stability(_with_other(actual, min_share), _with_other(expected, min_share))
    if psi <= threshold:
        return None
    draws = effective_records(current.non_null, volatility() if volatility else 0.0)
    if psi <= chance_psi(round(draws), len(keys) + 1):
        return None
    return DriftFinding(
        column=name,
        metric=DriftMetric.PSI,
        message=psi_message(
            name, psi, threshold, len(keys), coverage, baseline_coverage, len(past)
        ),
        value=psi,
        baseline_center=0.0,
        baseline_spread=0.0,
        score=psi,
        threshold=threshold,
        test=DriftTest.PSI,
        baseline_runs=len(past),
        statistic="psi",
    )
