"""The rules that clear a candidate finding on an extreme or on a column that (almost)
always holds one value, each from what the run's own draws make likely: a light day's
lower maximum, a longest text that a rare category brought, the first windy day after
calm ones. Each can only clear a finding, never raise one; ``seriestests`` names and
counts them (docs/drift.md, "The stages and the rules that clear a finding").
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from faucet_core.config import ProfilingConfig
from faucet_core.drift.band import Band
from faucet_core.drift.draws import (
    beyond_constant_chance,
    beyond_length_chance,
    inward_chance,
    off_value_score,
    outward_chance,
    point_mass,
    records_beyond,
)
from faucet_core.drift.limits import budget_limit
from faucet_core.drift.model import DriftMetric
from faucet_core.drift.series import SeriesTest
from faucet_core.drift.stats import normal_quantile
from faucet_core.drift.values import beyond_chance
from faucet_core.profile.model import NumericStats

__all__ = [
    "constant_left_by_chance",
    "constant_length_left_by_chance",
    "inside_seen_range",
    "inward_by_chance",
    "outward_by_chance",
    "rare_long_value",
    "tail_thinned",
]


def rare_long_value(test: SeriesTest, band: Band, config: ProfilingConfig, tests: int) -> bool:
    """A longest text that grew because of values the value tests let pass: the run lists
    every one of its values, and those longer than any baseline run's longest hold, all
    together, less than ``new_value_min_share`` of its records, or a share that its
    sampling explains at the test's limit (one record of a light run's six: a rare
    category appearing, which ``new_value`` judges by its share). A longer format that
    most records take is still judged."""
    top = test.profile.top_values
    strings = test.profile.string
    if test.spec.statistic != "len_max" or not test.value > band.center:
        return False
    if not top or strings is None or strings.count <= 0:
        return False
    non_null = test.profile.row_count - test.profile.null_count
    if sum(t.count for t in top) < non_null:
        return False  # values beyond the list: the longest may be any of them
    longest = max(test.series)
    longer = sum(t.count for t in top if isinstance(t.value, str) and len(t.value) > longest)
    if longer <= 0:
        return False
    limit = budget_limit(config.method, config.effective_sensitivity, tests)
    share = longer / non_null
    return share < config.new_value_min_share or not beyond_chance(share, 0.0, non_null, 0.0, limit)


def inward_by_chance(test: SeriesTest, band: Band, alpha: float) -> bool:
    """A numeric maximum that fell, or minimum that rose, as far as a run of this many
    records drawn from the baseline's pooled values reaches with a chance above
    ``alpha`` (:func:`~faucet_core.drift.draws.inward_chance`)."""
    statistic = test.spec.statistic
    inward = (statistic == "max" and test.value < band.center) or (
        statistic == "min" and test.value > band.center
    )
    if not inward:
        return False
    chance = inward_chance(test.profile, test.past, test.value, high=statistic == "max")
    return chance is not None and chance > alpha


def outward_by_chance(test: SeriesTest, band: Band, alpha: float) -> bool:
    """An extreme beyond a baseline that always held the same one, when chance explains
    it above ``alpha``: by no more than the column's spread (its median standard
    deviation; one character for a length), the chance that a run of this many records
    holds a value beyond every baseline record
    (:func:`~faucet_core.drift.draws.outward_chance`); by no more than one record of the
    column's spread reaches at ``alpha`` (the normal quantile times it), or however far
    beyond a baseline whose every number held that one value, the chance that as many
    of the run's records as lie beyond that extreme would, given how many of the
    baseline's did (:func:`~faucet_core.drift.draws.beyond_constant_chance`). A sentinel
    9999 among codes 0-4 stays a finding."""
    statistic = test.spec.statistic
    outward = (statistic in ("max", "len_max") and test.value > band.center) or (
        statistic == "min" and test.value < band.center
    )
    if not band.constant or not outward:
        return False
    if statistic == "len_max":
        spread = 1.0
    else:
        numbers = [c.numeric for c in test.past if c.numeric is not None]
        sds = [n.stddev for n in numbers]
        spread = max(statistics.median(sds) if sds else 0.0, _resolution(numbers))
        reach = normal_quantile(alpha) * statistics.median(sds) if sds else 0.0
        if _one_value(numbers, band) or abs(test.value - band.center) <= reach:
            high = statistic == "max"
            chance = beyond_constant_chance(test.profile, test.past, band.center, high=high)
            if chance is not None and chance > alpha:
                return True
    if not abs(test.value - band.center) <= spread:
        return False
    chance = outward_chance(test.profile, test.past)
    return chance is not None and chance > alpha


def _one_value(numbers: Sequence[NumericStats], band: Band) -> bool:
    """Every baseline number held the band's one value, a past incident left out aside."""
    others = sum(1 for n in numbers if n.count and not n.min == n.max == band.center)
    return others <= band.excluded


def constant_left_by_chance(test: SeriesTest, band: Band, alpha: float, min_history: int) -> bool:
    """A mean, min or max that left the one value a baseline's numbers held, when chance
    explains the records that left it above ``alpha``: as many of the run's records as
    lie beyond that value, on the side the statistic moved to, would with the
    baseline's and the run's numbers exchangeable
    (:func:`~faucet_core.drift.draws.beyond_constant_chance`). The value is one every
    baseline number held (a past incident left out aside), or one that most of them held
    when fewer than ``min_history`` of the run's records left it (more, and their mean
    is judged as any mean is). While fewer than ``min_history`` baseline records lie
    beyond it on that side, how far a record may go cannot be judged, only how many
    went; with more, the run's farthest record must also be within the reach of their
    sizes. One windy day after 20 calm ones, in a table of one row a day, is chance (1
    in 21), and so is a second rainy day after one; a column that moved as a whole, or a
    run of many records of which many left the value, is not."""
    metrics = (DriftMetric.MEAN, DriftMetric.MIN, DriftMetric.MAX)
    if test.spec.metric not in metrics:
        return False
    numbers = [c.numeric for c in test.past if c.numeric is not None]
    if not numbers:
        return False
    if band.constant and _one_value(numbers, band):
        value = band.center
    else:
        mass = point_mass(test.past)
        if mass is None:
            return False
        value, share, above, below = mass
        high = test.value > value
        beyond = above if high else below
        if share < 0.5 or test.value == value:
            return False
        moved = records_beyond(test.profile, value, high=high)
        if moved is None or moved >= min_history:
            return False  # enough of the run's records left it for its mean to be judged
        if beyond >= min_history and not _off_value_in_reach(test, value, alpha, high):
            return False
    high = test.value > value
    chance = beyond_constant_chance(test.profile, test.past, value, high=high)
    return chance is not None and chance > alpha


def constant_length_left_by_chance(test: SeriesTest, band: Band, alpha: float) -> bool:
    """A text length (mean or longest) that left the one length every baseline text had
    (a past incident left out aside), when chance explains it above ``alpha``: as many
    of the run's texts as lie beyond that length would, with the baseline's and the
    run's texts exchangeable (:func:`~faucet_core.drift.draws.beyond_length_chance`).
    A constant length gives the mean length no sampling spread to be judged by, so what
    can be judged is how many texts left it: the first time of 8 hours and more in a
    runner's log of one run a day (1 in 21 after 20 days of shorter ones) is chance; a
    format that every text of a run of hundreds takes is not."""
    if test.spec.metric is not DriftMetric.STRING_LENGTH or not band.constant:
        return False
    strings = [c.string for c in test.past if c.string is not None and c.string.count > 0]
    if not strings:
        return False
    length = band.center
    others = sum(1 for s in strings if not s.len_min == s.len_max == length)
    if others > band.excluded or test.value == length:
        return False
    chance = beyond_length_chance(test.profile, test.past, length, high=test.value > length)
    return chance is not None and chance > alpha


def _off_value_in_reach(test: SeriesTest, value: float, alpha: float, high: bool) -> bool:
    """The run's farthest number off ``value`` on the ``high`` side is no farther, on the
    log scale of distances from it, than the baseline's numbers off it reach at
    ``alpha`` (:func:`~faucet_core.drift.draws.off_value_score`): a wet day's rain
    among the wet days' rain. Every record x100, or a sentinel 9999 among codes 1-4,
    is out of reach."""
    stats = test.profile.numeric
    if stats is None or stats.count <= 0:
        return False
    x = stats.max if high else stats.min
    score = off_value_score(test.past, value, x, high=high)
    return score is not None and score <= normal_quantile(alpha)


def _resolution(numbers: Sequence[NumericStats]) -> float:
    """1 for a column whose baseline extremes and quantiles are all whole numbers (a code,
    a count: it moves by whole units), else 0."""
    values = [v for n in numbers for v in (n.min, n.max, n.p50, n.p95)]
    whole = values and all(math.isfinite(v) and v == math.floor(v) for v in values)
    return 1.0 if whole else 0.0


def inside_seen_range(test: SeriesTest, band: Band) -> bool:
    """An extreme no farther outside the baseline's own range than the floor: the
    baseline has seen it (a bimodal min or max switching modes)."""
    low, high = min(test.series), max(test.series)
    margin = band.floor / test.factor if test.factor != 1.0 else band.floor
    return low - margin <= test.value <= high + margin


def tail_thinned(test: SeriesTest, band: Band) -> bool:
    """An extreme that moved inward and stays in the column's own tail: that day's tail
    was thinner, not cut. A min that rose, still below the baseline's median p50 (no
    departure after midnight); a max that fell, still above the baseline's median p95
    (no flight to Honolulu that day: the top 5 % of records are still there, the single
    longest is not). A min that moves outward or past the middle, and a max that falls
    into the body of the column (a cap on more than 5 % of the records, text truncated)
    are judged; so is every move of len_max, whose column has no quantiles.

    Only for a baseline without quantile sketches (a SQL pushdown's profiles): where the
    runs' sketches are there, :func:`inward_by_chance` judges an inward extreme by the
    chance that the run's records all stay inside it, and this rule would only clear
    what that chance does not (a heavy run's min pushed up by a shift of every record)."""
    if test.profile.numeric is None or test.spec.statistic not in ("min", "max"):
        return False
    if any(isinstance(c.sketches.get("kll"), str) for c in test.past):
        return False
    numeric = [c.numeric for c in test.past if c.numeric is not None]
    if not numeric:
        return False
    if test.spec.metric is DriftMetric.MIN:
        middle = statistics.median(n.p50 for n in numeric)
        return band.center < test.value < middle
    upper = statistics.median(n.p95 for n in numeric)
    return upper < test.value < band.center
