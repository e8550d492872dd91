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

import datasketches as ds

from faucet_core.drift.pool import Pool, pool_of
from faucet_core.errors import SketchError
from faucet_core.profile.model import ColumnProfile
from faucet_core.profile.sketches import load_kll

__all__ = [
    "beyond_constant_chance",
    "beyond_length_chance",
    "design_effect",
    "effective_draws",
    "inward_chance",
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
    found = pool_of(past)
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
    found = None if k is None else pool_of(past)
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
    found = pool_of(past)
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
    found = pool_of(past)
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


def _beyond(
    sketch: ds.kll_doubles_sketch | Pool, value: float, count: int, high: bool, side: float
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
