"""A run's extremes as the extremes of its own draws.

A run's minimum and maximum are the extremes of its n records. Drawn from the same
distribution as the baseline's records, a light run reaches less far into the tails: 5
records reach the top 5 % of the values with a chance of 1 - 0.95^5 = 23 %, so a lower
maximum on a light day is expected, and judged against the baseline runs' maxima (each
of hundreds of records) it is a false alarm. Two chances are computed here from the
baseline's pooled records, and a candidate extreme that one of them explains at the
test's share of the budget is cleared (never raised):

* an extreme that moved **inward** (a maximum that fell, a minimum that rose): the
  chance that all n records stay on the inner side of it, ``F(x)^n`` for a maximum, with
  n the run's records counted as independent draws (:func:`effective_draws`: hourly
  readings of one calm day are not 24 independent draws), with
  ``F`` the share of the baseline's pooled values at or below ``x`` from the runs' KLL
  sketches pooled item by item (no merge: the same baseline gives the same answer),
  taken at the far end of the sketch's rank error so that it can only clear
  less (:func:`inward_chance`);
* an extreme that moved **outward** beyond a baseline that always held the same extreme
  (a maximum code of 4 in every run; every identifier 3 characters long), by no more than
  the column's spread (or one character): by exchangeability, the chance that a run of n
  records holds a value beyond all N pooled baseline records is n / (N + n)
  (:func:`outward_chance`), about 5 % for a run of 7 records after 20 such runs;
* an extreme that moved **outward**, however far, beyond a baseline that always held the
  same one (no rain in 20 days; a waiting list always at 0; a visibility capped at 10):
  by exchangeability, the chance that k of a run's n records lie beyond all N pooled
  baseline records is C(n, k) / C(N + n, k) (the hypergeometric tail when some baseline
  records did too), k counted from the run's own sketch
  (:func:`beyond_constant_chance`): one day of rain after 20 dry ones is chance, a
  column that moved as a whole (every record x100) is not.

The same chance judges a mean, min or max that left a value the baseline's records
almost always held (:func:`point_mass`: rain that fell on 2 of 20 days), while the
records off that value are too few to tell their size: then how many records left the
value is what can be judged, not how far.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import datasketches as ds
import numpy as np

from faucet_core.errors import SketchError
from faucet_core.profile.model import ColumnProfile
from faucet_core.profile.sketches import load_kll

__all__ = [
    "beyond_constant_chance",
    "beyond_length_chance",
    "design_effect",
    "effective_draws",
    "inward_chance",
    "long_tail_chance",
    "long_tail_length_chance",
    "off_value_score",
    "outward_chance",
    "point_mass",
    "records_beyond",
]


def inward_chance(
    current: ColumnProfile, past: Sequence[ColumnProfile], value: float, *, high: bool
) -> float | None:
    """The chance that the run's n numbers all stay at or below ``value`` (``high``: a
    maximum) or at or above it (a minimum), drawn from the baseline's pooled numbers;
    None without readable sketches."""
    count = current.numeric.count if current.numeric is not None else 0
    if count <= 0:
        return None
    n = effective_draws(count, past)
    found = _pooled(past)
    if found is None:
        return None
    pooled, _ = found
    error = pooled.normalized_rank_error(False)
    # the near end of the sketch's rank error: the chance can only come out smaller, and
    # the error is uniform in rank, so only a light run clears (0.98 ** 900 is 1e-8)
    if high:
        inside = pooled.get_rank(value, True) - error  # the share at or below value
    else:
        inside = 1.0 - pooled.get_rank(value, False) - error  # the share at or above
    inside = min(max(inside, 0.0), 1.0)
    return float(inside**n)


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
    found = _pooled(past)
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
    pool = _Pool(values, np.arange(1.0, values.size + 1.0), 0.0)
    return _tail_chance(pool, value, draws, high)


def _tail_chance(pool: _Pool, value: float, draws: float, high: bool) -> float | None:
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


def design_effect(past: Sequence[ColumnProfile]) -> float:
    """How many times the variance of a run's mean exceeds what n independent records
    give, learned from the baseline: the variance of the runs' means over the mean of
    their sampling variances s² / n, at least 1.

    Records of one run are rarely independent draws: hourly readings of a calm day all
    stay calm, a clear sky reports the same ceiling all day. Such a column's run means
    vary far more between runs than their sampling error says, and that ratio (the
    design effect of survey sampling) is how many records count as one independent
    draw. Fewer than 3 runs with two records or more: 1 (nothing learned)."""
    means: list[float] = []
    sampling: list[float] = []
    for c in past:
        stats = c.numeric
        if stats is None or stats.count < 2:
            continue
        if not (math.isfinite(stats.mean) and math.isfinite(stats.stddev)):
            continue
        means.append(stats.mean)
        sampling.append(stats.stddev**2 / stats.count)
    if len(means) < 3:
        return 1.0
    noise = math.fsum(sampling) / len(sampling)
    between = statistics.variance(means)
    if noise <= 0.0:
        return 1.0 if between <= 0.0 else math.inf
    return max(1.0, between / noise)


def effective_draws(count: int, past: Sequence[ColumnProfile]) -> float:
    """A run's count of records as independent draws: ``count`` over the baseline's
    :func:`design_effect`, at least 1."""
    return max(1.0, count / design_effect(past))


def outward_chance(current: ColumnProfile, past: Sequence[ColumnProfile]) -> float | None:
    """The chance that a run of n records holds a value beyond every one of the N pooled
    baseline records, when all N + n are exchangeable: n / (N + n)."""
    n = _records(current)
    total = sum(_records(c) for c in past)
    if n <= 0 or total <= 0:
        return None
    return n / (total + n)


def beyond_constant_chance(
    current: ColumnProfile, past: Sequence[ColumnProfile], value: float, *, high: bool
) -> float | None:
    """The chance that at least as many of the run's n numbers as lie above ``value``
    (``high``; below it otherwise) would, when the N + n pooled numbers of the baseline
    and the run are exchangeable, given how many of the baseline's N lie beyond it (none
    when every baseline number held ``value``): Fisher's exact one-sided tail of the
    hypergeometric law, C(n, k) / C(N + n, k) when none did. The counts are read from the
    sketches at the far ends of their rank errors (more of the run's records beyond,
    fewer of the baseline's: a smaller chance); None without readable sketches."""
    k = records_beyond(current, value, high=high)
    found = None if k is None else _pooled(past)
    if k is None or found is None:
        return None
    assert current.numeric is not None  # records_beyond read its count
    n = current.numeric.count
    pooled, total = found
    m = _beyond(pooled, value, total, high, -1.0)
    return _hypergeometric_tail(n + total, m + k, n, k)


def beyond_length_chance(
    current: ColumnProfile, past: Sequence[ColumnProfile], length: float, *, high: bool
) -> float | None:
    """:func:`beyond_constant_chance` for text lengths: the chance that as many of the
    run's n texts as are longer than ``length`` (``high``; shorter otherwise) would be,
    with the N + n pooled texts of the baseline and the run exchangeable, given the
    baseline's texts beyond it. No sketch holds lengths, so both counts are bounds that
    make the chance smaller: every text of the run counts as beyond unless its values
    are all listed (then the listed ones are counted), and a baseline run counts all its
    texts when its shortest (longest) lies beyond, one when only its longest (shortest)
    does, none otherwise. None without texts in the run or the baseline."""
    strings = current.string
    if strings is None or strings.count <= 0:
        return None
    n = strings.count
    k = _texts_beyond(current, length, high) if _lists_every_text(current) else n
    total = marked = 0
    for c in past:
        s = c.string
        if s is None or s.count <= 0:
            continue
        total += s.count
        inner, outer = (s.len_min, s.len_max) if high else (s.len_max, s.len_min)
        if _past_length(inner, length, high):
            marked += s.count
        elif _past_length(outer, length, high):
            marked += 1
    if total <= 0:
        return None
    return _hypergeometric_tail(n + total, marked + k, n, k)


def _lists_every_text(c: ColumnProfile) -> bool:
    if not c.top_values or c.string is None:
        return False
    return sum(t.count for t in c.top_values if isinstance(t.value, str)) >= c.string.count


def _texts_beyond(c: ColumnProfile, length: float, high: bool) -> int:
    return sum(
        t.count
        for t in c.top_values or ()
        if isinstance(t.value, str) and _past_length(len(t.value), length, high)
    )


def _past_length(x: float, length: float, high: bool) -> bool:
    return x > length if high else x < length


def records_beyond(current: ColumnProfile, value: float, *, high: bool) -> int | None:
    """How many of the run's numbers lie above ``value`` (``high``; below it otherwise),
    read from its KLL sketch at the far end of its rank error (exact below its k
    items); None without a readable sketch."""
    stats = current.numeric
    n = stats.count if stats is not None else 0
    text = current.sketches.get("kll")
    if n <= 0 or not isinstance(text, str):
        return None
    try:
        sketch = load_kll(text, current.name)
    except SketchError:
        return None
    return None if sketch.is_empty() else _beyond(sketch, value, n, high, +1.0)


def point_mass(past: Sequence[ColumnProfile]) -> tuple[float, float, int, int] | None:
    """The value most of the baseline's pooled numbers hold, if one does: (the value, the
    share of the pooled numbers at it, how many lie above it, how many below), read at
    the pooled median of the runs' KLL sketches; None without readable sketches. The
    counts beyond are the sketch's estimates (exact below its k items)."""
    found = _pooled(past)
    if found is None:
        return None
    pooled, total = found
    value = float(pooled.get_quantile(0.5))
    below = float(pooled.get_rank(value, False))
    at_or_below = float(pooled.get_rank(value, True))
    return (
        value,
        at_or_below - below,
        round((1.0 - at_or_below) * total),
        round(below * total),
    )


def off_value_score(
    past: Sequence[ColumnProfile], value: float, x: float, *, high: bool
) -> float | None:
    """How far ``x`` lies beyond the baseline's numbers off ``value`` on one side (above
    it, ``high``), in standard deviations of their log distance from ``value``: the
    size of a rainy day's rain against the rainy days' rain, on the ratio scale that
    amounts keep. Read from the runs' pooled KLL sketches at evenly spaced ranks of that side
    (at most 64); None without readable sketches or with fewer than two such numbers."""
    found = _pooled(past)
    if found is None or x == value:
        return None
    pooled, total = found
    if high:
        lo, hi = float(pooled.get_rank(value, True)), 1.0
    else:
        lo, hi = 0.0, float(pooled.get_rank(value, False))
    count = round((hi - lo) * total)
    if count < 2:
        return None
    points = min(count, 64)
    ranks = [lo + (hi - lo) * (i + 0.5) / points for i in range(points)]
    logs = [
        math.log(abs(v - value))
        for v in (float(q) for q in pooled.get_quantiles(ranks))
        if v != value and math.isfinite(v)
    ]
    if len(logs) < 2:
        return None
    center, spread = statistics.fmean(logs), statistics.stdev(logs)
    distance = math.log(abs(x - value))
    if spread <= 0.0:
        return 0.0 if distance <= center else math.inf
    return (distance - center) / spread


@dataclass(frozen=True)
class _Pool:
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


def _pooled(past: Sequence[ColumnProfile]) -> tuple[_Pool, int] | None:
    """The baseline's numbers pooled (:class:`_Pool`), and how many there are; None when
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
    return _Pool(pairs[order, 0], weights, error / float(weights[-1])), total


def _beyond(
    sketch: ds.kll_doubles_sketch | _Pool, value: float, count: int, high: bool, side: float
) -> int:
    """How many of a sketch's ``count`` numbers lie beyond ``value``, at the end of its
    rank error that ``side`` names (+1: more, -1: fewer)."""
    # below its k items a sketch is exact: no rank error
    error = sketch.normalized_rank_error(False) if sketch.is_estimation_mode() else 0.0
    rank = float(sketch.get_rank(value, True) if high else sketch.get_rank(value, False))
    share = 1.0 - rank if high else rank
    records = min(max(share + side * float(error), 0.0), 1.0) * count
    return min(count, math.ceil(records - 1e-9) if side > 0 else math.floor(records + 1e-9))


def _hypergeometric_tail(population: int, marked: int, drawn: int, least: int) -> float:
    """P(X >= ``least``) for X the marked items among ``drawn`` of ``population``."""
    if least <= 0:
        return 1.0

    def log_choose(a: int, b: int) -> float:
        return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)

    top = min(drawn, marked)
    if least > top:
        return 0.0
    whole = log_choose(population, drawn)
    terms = [
        log_choose(marked, x) + log_choose(population - marked, drawn - x) - whole
        for x in range(least, top + 1)
        if drawn - x <= population - marked
    ]
    if not terms:
        return 0.0
    peak = max(terms)
    return min(1.0, math.exp(peak) * math.fsum(math.exp(t - peak) for t in terms))


def _records(c: ColumnProfile) -> int:
    if c.numeric is not None:
        return c.numeric.count
    if c.string is not None:
        return c.string.count
    return 0
