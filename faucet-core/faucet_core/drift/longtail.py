"""The chance that a run's draws reach a number on the long side of the baseline's pooled
numbers (or text lengths), from an exponential tail past the pooled median (see
:func:`long_tail_chance`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from faucet_core.drift.pool import Pool, pool_of
from faucet_core.profile.model import ColumnProfile

__all__ = ["LENGTH_POOL_MIN", "long_tail_chance", "long_tail_length_chance"]


def long_tail_chance(
    past: Sequence[ColumnProfile], value: float, draws: float, *, high: bool
) -> float | None:
    """The chance that at least one of ``draws`` numbers drawn from the baseline's pooled
    numbers lies at or beyond ``value`` on its long side (above it, ``high``), from an
    exponential tail above the pooled median whose rate is learned from the m pooled
    numbers beyond the median: the posterior predictive of that tail is
    ``(1 + y / S) ** -m`` for ``y`` past the median and ``S`` the numbers' summed
    distances from it, a Lomax law, heavier than any one exponential because a rate
    learned from m numbers is uncertain. None without readable sketches, when fewer than
    two pooled numbers lie beyond the median on that side, when that side is not the
    pool's longer one, or when it leads toward zero from numbers all on one side of it:
    a fall of positive amounts toward zero (births a day divided by 1,000) is a ratio,
    which an additive tail would reach too easily, and stays judged by its band."""
    found = pool_of(past)
    return None if found is None else _tail_chance(found[0], value, draws, high)


LENGTH_POOL_MIN = 5
"""The fewest text lengths known exactly that a length's tail is learned from."""


def long_tail_length_chance(
    past: Sequence[ColumnProfile], value: float, draws: int, *, high: bool
) -> float | None:
    """:func:`long_tail_chance` for text lengths. No sketch holds lengths, but a run of
    one or two texts holds them exactly (its shortest and longest): the pool is the
    lengths of the baseline's runs of at most two texts. None with fewer than
    :data:`LENGTH_POOL_MIN` of them, and as :func:`long_tail_chance` otherwise."""
    lengths: list[float] = []
    for c in past:
        s = c.string
        if s is None or s.count <= 0:
            continue
        if s.count == 1:
            lengths.append(float(s.len_min))
        elif s.count == 2:
            lengths.extend((float(s.len_min), float(s.len_max)))
    if len(lengths) < LENGTH_POOL_MIN:
        return None
    values = np.sort(np.array(lengths))
    pool = Pool(values, np.arange(1.0, values.size + 1.0), 0.0)
    return _tail_chance(pool, value, draws, high)


def _tail_chance(pool: Pool, value: float, draws: float, high: bool) -> float | None:
    if draws < 1:
        return None
    median = pool.get_quantile(0.5)
    low, high_end = float(pool.values[0]), float(pool.values[-1])
    if (high_end - median) <= (median - low) if high else (median - low) <= (high_end - median):
        return None
    if (low >= 0.0 and not high) or (high_end <= 0.0 and high):
        return None  # toward zero from one side of it: a ratio, which no such tail reaches
    beyond = pool.values > median if high else pool.values < median
    weights = np.diff(pool.cumulative, prepend=0.0)[beyond]
    m = float(weights.sum())
    if m < 2.0:
        return None
    values = pool.values[beyond]
    tail = _exponential_tail(np.abs(values - median), weights)
    if tail is None:
        return None
    y = value - median if high else median - value
    if median != 0.0 and (median > 0.0) == high:  # away from zero: the tail may be a ratio's
        ratio = _likelier_ratio(values, weights, median, tail, far=-1 if high else 0)
        if ratio is not None:
            tail = ratio
            y = math.log(value / median) if y > 0.0 else 0.0
    one = _lomax(m / pool.weight, y, tail[0], m)
    return float(1.0 - (1.0 - one) ** draws)


def _likelier_ratio(
    values: np.ndarray,
    weights: np.ndarray,
    median: float,
    additive: tuple[float, float],
    far: int,
) -> tuple[float, float] | None:
    """The exponential law of the numbers' ratio to the median (:func:`_exponential_tail`
    of their log-ratios), when it makes them likelier than the law of their distance
    (``additive``), and still does without the farthest one (at ``far``): a choice that
    one number makes alone is not made; else None."""
    ratio = _ratio_over(values, weights, median, additive)
    if ratio is None:
        return None
    kept = slice(None, -1) if far == -1 else slice(1, None)
    v, w = values[kept], weights[kept]
    rest = _exponential_tail(np.abs(v - median), w) if float(w.sum()) >= 2.0 else None
    if rest is None or _ratio_over(v, w, median, rest) is None:
        return None
    return ratio


def _ratio_over(
    v: np.ndarray, w: np.ndarray, median: float, additive: tuple[float, float]
) -> tuple[float, float] | None:
    """The ratio's law of these numbers, if it makes them likelier than ``additive`` (one
    rate each; as a density of the numbers, the ratio's carries the Jacobian 1 / |y|)."""
    law = _exponential_tail(np.log(v / median), w)
    if law is None or law[1] - float(np.log(np.abs(v)) @ w) <= additive[1]:
        return None
    return law


def _lomax(share: float, y: float, total: float, m: float) -> float:
    """The chance of a number ``y`` or more past the tail's start: ``share`` of the numbers
    lie past it, and past it an exponential law whose rate m numbers summing to ``total``
    left uncertain (the Lomax predictive)."""
    return share if y <= 0.0 else share * (1.0 + y / total) ** -m


def _exponential_tail(distances: np.ndarray, weights: np.ndarray) -> tuple[float, float] | None:
    """The summed distances of a tail's numbers past its start, and the log-likelihood of
    those distances under the exponential law whose rate is their mean's inverse; None
    when they sum to nothing."""
    total = float(distances @ weights)
    if total <= 0.0:
        return None
    m = float(weights.sum())
    return total, m * math.log(m / total) - m
