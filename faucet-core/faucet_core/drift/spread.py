"""A rescale seen in the values' spread: the run's standard deviation fell by a factor.

A column divided by 1,000 (grams reported as kilograms, a count in thousands) keeps
its shape and changes its scale. Its level does not always show it: a latitude spread
around the equator, a temperature that crosses zero in winter, a reading whose daily
mean moves widely all have baseline runs whose mean lies near the rescaled one. Its
spread does: the run's standard deviation falls by the same factor, and a standard
deviation follows a sampling law.

The test compares the run's variance with the baseline run of the smallest variance as
an F ratio, each run's records counted as independent draws (``n`` over the baseline's
design effect, :func:`~faucet_core.drift.draws.design_effect`: a day's hourly
readings that stay together are fewer draws than readings), less one: the chance that
the run's values came from that run's spread is :func:`~faucet_core.drift.stats.f_sf`
of the ratio. The standard deviation must also have fallen at least
:data:`~faucet_core.drift.rescale.RESCALE_FACTOR` times below the baseline runs' median,
and the chance must be under the test's share of the run's budget. A baseline run whose
values were all equal (no spread) makes a fall unremarkable; runs of fewer than
:data:`SPREAD_MIN_VALUES` numbers say too little.

Only falls are judged. A rise (x100) moves the level beyond every baseline run, which
the mean and extremes already judge; the spread of a heavy-tailed column rises by ten
on a quiet day with one large record (measured on the detection benchmark's tune half:
judging rises too added 16 alarmed quiet days there for 19 more x100 trials found).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from faucet_core.drift.draws import design_effect
from faucet_core.drift.rescale import RESCALE_FACTOR
from faucet_core.drift.stats import f_sf
from faucet_core.profile.model import ColumnProfile

__all__ = ["SPREAD_MIN_RUNS", "SPREAD_MIN_VALUES", "spread_factor", "spread_rescaled"]

SPREAD_MIN_VALUES = 3
"""Numbers a run must hold for its standard deviation to be judged."""

SPREAD_MIN_RUNS = 3
"""Baseline runs with a judged standard deviation needed for a median to compare with."""


def _spreads(past: Sequence[ColumnProfile]) -> list[tuple[float, int]]:
    return [
        (c.numeric.stddev, c.numeric.count)
        for c in past
        if c.numeric is not None
        and c.numeric.count >= SPREAD_MIN_VALUES
        and math.isfinite(c.numeric.stddev)
    ]


def _df(count: int, effect: float) -> float:
    """Degrees of freedom of a run's variance: its records as independent draws (``count``
    over the baseline's design ``effect``, at least one), less one (at least one)."""
    return max(1.0, max(1.0, count / effect) - 1.0)


def spread_factor(column: ColumnProfile, past: Sequence[ColumnProfile]) -> float | None:
    """How many times the run's standard deviation is from the baseline runs' median
    (above 1 for a rise, below for a fall), or None when either side cannot say."""
    now = column.numeric
    before = _spreads(past)
    if now is None or now.count < SPREAD_MIN_VALUES or not math.isfinite(now.stddev):
        return None
    if now.stddev <= 0 or len(before) < SPREAD_MIN_RUNS:
        return None
    median = statistics.median(s for s, _ in before)
    return now.stddev / median if median > 0 else None


def spread_rescaled(column: ColumnProfile, past: Sequence[ColumnProfile], alpha: float) -> bool:
    """The run's spread fell by a rescale: at least ``RESCALE_FACTOR`` times below the
    baseline runs' median and, as an F ratio against the baseline run of the smallest
    spread, with a chance under ``alpha``."""
    factor = spread_factor(column, past)
    now = column.numeric
    if factor is None or now is None or factor > 1.0 / RESCALE_FACTOR:
        return False
    narrowest, n = min(_spreads(past))
    ratio = (narrowest / now.stddev) ** 2
    effect = design_effect(past)
    return f_sf(ratio, _df(n, effect), _df(now.count, effect)) < alpha
