"""The baseline's numbers pooled from its runs' KLL sketches, item by item (see
:mod:`faucet_core.drift.draws`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from faucet_core.errors import SketchError
from faucet_core.profile.model import ColumnProfile
from faucet_core.profile.sketches import load_kll

__all__ = ["Pool", "one_draw_chance", "pool_of"]


@dataclass(frozen=True)
class Pool:
    """The baseline's numbers as the union of its runs' sketch items, each with its
    weight: the pooled distribution that a merged sketch estimates, without the merge's
    random compactions (the same baseline always gives the same answers) and without
    its extra rank error. ``error`` bounds the pool's normalized rank error: the runs'
    own errors weighted by their numbers (0 when every run's sketch holds all its
    numbers)."""

    values: np.ndarray
    """The items, sorted."""
    cumulative: np.ndarray
    """The items' weights summed in that order."""
    error: float

    @property
    def weight(self) -> float:
        return float(self.cumulative[-1])

    def normalized_rank_error(self, pmf: bool) -> float:
        return self.error

    def is_estimation_mode(self) -> bool:
        return self.error > 0.0

    def get_rank(self, value: float, inclusive: bool = True) -> float:
        """The share of the pooled numbers below ``value`` (at or below, ``inclusive``)."""
        index = int(np.searchsorted(self.values, value, side="right" if inclusive else "left"))
        return float(self.cumulative[index - 1]) / self.weight if index else 0.0

    def get_quantile(self, rank: float) -> float:
        """The smallest pooled number whose inclusive rank reaches ``rank``."""
        index = int(np.searchsorted(self.cumulative, rank * self.weight, side="left"))
        return float(self.values[min(index, self.values.size - 1)])

    def get_quantiles(self, ranks: Sequence[float]) -> list[float]:
        return [self.get_quantile(r) for r in ranks]


def pool_of(past: Sequence[ColumnProfile]) -> tuple[Pool, int] | None:
    """The baseline's numbers pooled (:class:`Pool`), and how many there are; None when
    a run's sketch is missing or unreadable, or no run held a number."""
    items: list[tuple[float, int]] = []
    total = 0
    error = 0.0
    for c in past:
        if c.numeric is None or c.numeric.count <= 0:
            continue  # a run with no numbers adds nothing to the pool
        text = c.sketches.get("kll")
        if not isinstance(text, str):
            return None
        try:
            sketch = load_kll(text, c.name)
        except SketchError:
            return None
        if sketch.is_empty():
            continue
        items.extend(sketch)
        if sketch.is_estimation_mode():
            error += sketch.normalized_rank_error(False) * sketch.n
        total += c.numeric.count
    if not items:
        return None
    pairs = np.array(items, dtype=np.float64)
    order = np.argsort(pairs[:, 0], kind="stable")
    weights = np.cumsum(pairs[order, 1])
    return Pool(pairs[order, 0], weights, error / float(weights[-1])), total


def one_draw_chance(pool: Pool, total: int, value: float) -> float | None:
    """The chance that one more draw of the pooled numbers lies at least as far out as
    ``value`` on its side, with exchangeability among the ``total`` pooled numbers and it
    (``(k + 1) / (total + 1)`` for the k pooled numbers at or beyond it, k read from the
    pool's ranks, less the pool's rank error), times two for either side. None when
    ``value`` lies beyond every pooled number: how far the column's tail reaches past what
    the baseline held is not a rank's question."""
    if total <= 0 or not (float(pool.values[0]) <= value <= float(pool.values[-1])):
        return None
    below = pool.get_rank(value, inclusive=True)
    above = 1.0 - pool.get_rank(value, inclusive=False)
    share = max(0.0, min(below, above) - pool.error)
    return min(1.0, 2.0 * (share * total + 1.0) / (total + 1.0))
