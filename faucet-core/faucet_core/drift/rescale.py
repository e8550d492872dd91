"""A rescale: numbers that changed JSON type because their scale moved by a factor.

Whole numbers divided by 1,000 (a count reported in thousands, cents turned into
dollars) arrive as fractions: the type mix says ``number`` where the baseline held
``integer``. On a light run, or on a column that is mostly zero (an hourly rain
gauge, goals of one match), the values' own level is no evidence: a single reading
of 2.3 where the baseline's ran from 500 to a million, or a maximum of 0.002 where a
day of zeros also happens, lies inside the spread of the baseline's runs. The type
change is the significant fact, and the level says what it means.

So when a column's numbers changed type and no test of its mean or extremes found
anything, its extreme on the side of the baseline's larger magnitude (the maximum of
a column of positive numbers, the minimum of a negative one) is compared with the
same extreme of the baseline's runs that were not zero: beyond every one of them and
more than :data:`RESCALE_FACTOR` times from their median, the finding is that extreme
(``test`` ``ratio``), and the column's type mix becomes its evidence
(:mod:`faucet_core.drift.rootcause`). This adds no alarm: it only runs on a column
that the type mix already found, and only names what the person should fix.

The same extreme is the finding of a column whose numbers kept their type but whose
spread moved by a rescale (:mod:`faucet_core.drift.spread`: a latitude divided by
1,000, its mean still among the baseline's), with the spread's factor in its message.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from faucet_core.drift.messages import rescale_message
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftScale, DriftTest
from faucet_core.profile.model import ColumnProfile, NumericStats

__all__ = ["LEVEL_METRICS", "NUMERIC_TYPES", "RESCALE_FACTOR", "rescale_finding"]

RESCALE_FACTOR = 10.0
"""How many times smaller or larger than the baseline's median extreme a rescaled
column's extreme must be (a power of ten is the smallest rescale a unit change makes)."""

NUMERIC_TYPES = frozenset({"integer", "number"})
"""The JSON types whose mix a rescale moves (whole numbers and fractions)."""

LEVEL_METRICS = frozenset({DriftMetric.MEAN, DriftMetric.MIN, DriftMetric.MAX})
"""The metrics of the values' level, which a rescale moves."""


def _extreme(stats: NumericStats, metric: DriftMetric) -> float:
    return stats.max if metric is DriftMetric.MAX else stats.min


def rescale_finding(
    name: str,
    column: ColumnProfile,
    past: Sequence[ColumnProfile],
    json_type: str | None,
    *,
    spread: float | None = None,
) -> DriftFinding | None:
    """The extreme of ``column`` that a rescale moved (see the module docstring), or
    None when its level is within a factor of :data:`RESCALE_FACTOR` of the baseline's
    or inside the range of the baseline's runs. The caller has found that ``json_type``
    (``integer`` or ``number``) took over a share of the column's numbers, or that the
    values' spread moved by the factor ``spread`` (:mod:`faucet_core.drift.spread`)."""
    now = column.numeric
    before = [c.numeric for c in past if c.numeric is not None and c.numeric.count]
    if now is None or not now.count or not before:
        return None
    highs = statistics.median(abs(s.max) for s in before)
    lows = statistics.median(abs(s.min) for s in before)
    metric = DriftMetric.MAX if highs >= lows else DriftMetric.MIN
    value = _extreme(now, metric)
    side = [_extreme(s, metric) for s in before]
    side = [v for v in side if v != 0 and math.isfinite(v) and (v > 0) == (value > 0)]
    if value == 0 or not math.isfinite(value) or not side:
        return None
    center = statistics.median(side)
    factor = abs(value / center)
    factor = max(factor, 1.0 / factor)
    low, high = min(side), max(side)
    if factor <= RESCALE_FACTOR or low <= value <= high:
        return None
    statistic = metric.value
    return DriftFinding(
        column=name,
        metric=metric,
        message=rescale_message(
            name,
            statistic,
            value,
            center,
            (low, high),
            len(side),
            whole=None if json_type is None else json_type == "integer",
            spread=spread,
        ),
        value=value,
        baseline_center=center,
        baseline_spread=0.0,
        score=factor,
        threshold=RESCALE_FACTOR,
        test=DriftTest.RATIO,
        baseline_runs=len(side),
        statistic=statistic,
        scale=DriftScale.LOG,
        expected_low=low,
        expected_high=high,
    )
