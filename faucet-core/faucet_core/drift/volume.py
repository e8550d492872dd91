"""Distinct counts against the run's volume.

A column's distinct count grows with the records it holds: all of them for an id,
fewer for a customer id that repeats, none for an enum. Comparing raw counts makes a
weekend with 25 % fewer orders a 25 % drop in distinct ids, and a null spike a
distinct-count finding too. The count is therefore judged as ``distinct / n ** b``,
``n`` the run's non-null records and ``b`` the column's elasticity, learned from the
baseline: the slope of log(distinct) on log(n) across its runs, kept within [0, 1].

When the baseline's volume hardly varied (its log(n) spread under
:data:`MIN_VOLUME_SPREAD`) the slope cannot be learned, and ``b`` comes from how often
the column's values repeat: for n draws from K equally likely values, distinct / n is
r = (1 - exp(-u)) / u with u = n / K, and the elasticity is u / (exp(u) - 1) — 1 for
values that never repeat (ids), about 0.77 when 78 % of the records are distinct, near
0 for an enum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from faucet_core.profile.model import ColumnProfile

__all__ = [
    "MIN_VOLUME_SPREAD",
    "distinct_elasticity",
    "non_null",
    "presence_noise",
    "repeat_elasticity",
    "spread_elasticity",
]

MIN_VOLUME_SPREAD = 0.05
"""Standard deviation of log(non-null records) needed to learn the elasticity (5 %)."""


def non_null(column: ColumnProfile) -> int:
    return column.row_count - column.null_count


def distinct_elasticity(current: ColumnProfile, past: Sequence[ColumnProfile]) -> float:
    """How the column's distinct count scales with its non-null records, in [0, 1]."""
    points = [(math.log(non_null(c)), math.log(c.distinct)) for c in past if c.distinct > 0]
    if len(points) >= 3:
        mx = math.fsum(x for x, _ in points) / len(points)
        my = math.fsum(y for _, y in points) / len(points)
        sxx = math.fsum((x - mx) ** 2 for x, _ in points)
        if sxx / (len(points) - 1) >= MIN_VOLUME_SPREAD**2:
            slope = math.fsum((x - mx) * (y - my) for x, y in points) / sxx
            return min(max(slope, 0.0), 1.0)
    ratios = [c.distinct / non_null(c) for c in past if c.distinct > 0]
    return repeat_elasticity(math.fsum(ratios) / len(ratios)) if ratios else 0.0


def repeat_elasticity(ratio: float) -> float:
    """d log(distinct) / d log(n) for draws from equally likely values, given the
    observed distinct / n ``ratio``."""
    if ratio >= 1.0:
        return 1.0
    if ratio <= 0.0:
        return 0.0
    lo, hi = 1e-9, 1e6  # (1 - exp(-u)) / u falls from 1 to 0 as u grows
    for _ in range(200):
        u = math.sqrt(lo * hi)
        if -math.expm1(-u) / u > ratio:
            lo = u
        else:
            hi = u
        if hi / lo < 1 + 1e-12:
            break
    u = math.sqrt(lo * hi)
    return u / math.expm1(u) if u < 700 else 0.0


def _stddev(column: ColumnProfile) -> float:
    n = column.numeric
    return n.stddev if n is not None and math.isfinite(n.stddev) else 0.0


def _fractional(column: ColumnProfile) -> bool:
    n = column.numeric
    return n is not None and any(
        math.isfinite(v) and not float(v).is_integer() for v in (n.min, n.max, n.p50, n.p95)
    )


def spread_elasticity(current: ColumnProfile, past: Sequence[ColumnProfile], b: float) -> float:
    """How a column of readings' distinct count scales with the spread of its values
    (their standard deviation), once volume is accounted for by ``b``; 0 where the
    spread says nothing about it.

    Readings at a fixed resolution (temperatures to 0.02, humidity to 0.01) can take as
    many values as their spread covers: K levels, K proportional to the spread. n draws
    from K levels show K (1 - exp(-n / K)) distinct values, whose elasticity in K is
    1 - (its elasticity in n): a calm day's temperature reads two values where a
    changeable one reads twelve, from the same 24 records, while values that never
    repeat (b = 1) do not depend on the spread at all. Only numbers with a fractional
    part count as readings: integer counts (riders an hour) fall with their level, which
    is the news, and codes have no resolution. 0 as well when the current run or a
    baseline run has no spread: a constant is judged as it is. The detector uses this
    only to clear a drop (:mod:`faucet_core.drift.seriestests`), never to raise one: a
    column whose units changed (cents) moves its spread without a new resolution.
    """
    if _stddev(current) <= 0.0 or not past or any(_stddev(c) <= 0.0 for c in past):
        return 0.0
    if not any(_fractional(c) for c in (current, *past)):
        return 0.0
    return min(max(1.0 - b, 0.0), 1.0)


def presence_noise(expected: float, counts: Sequence[int]) -> float:
    """The chance spread of a distinct count near the most values the column has shown.

    A column whose runs show nearly all of its values (60 minutes of the hour, 90
    destinations) misses a few by chance: the rarely used ones, absent or present
    from day to day. The number absent then varies like a count of rare events, with a
    variance up to its mean: ``expected`` values of the ``max(counts)`` seen leave
    ``max(counts) - expected`` absent, a standard deviation of its square root. A
    baseline whose absent values happened to stay steady for 20 runs does not make a
    Saturday that missed six of 60 minutes a distinct-count finding; a count far from
    the most seen (ids, a collapse to 25 customers) is judged on its own spread."""
    if not counts or expected <= 0.0:
        return 0.0
    return math.sqrt(max(max(counts) - expected, 0.0))
