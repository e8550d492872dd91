"""The rules that clear a candidate finding of the series tests, in one ordered tuple.

A series test whose value leaves its band is a candidate; the first rule of
:data:`CLEARING_RULES` that explains it clears it, and :func:`clearing_rule` returns that
rule's name so the detector can count it (``run_detection(...).cleared``; the detection
benchmark reports the counts per rule and table). A rule can only clear, never raise, a
finding. Each is named in docs/drift.md ("The stages and the rules that clear a finding").
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from faucet_core.config import ProfilingConfig
from faucet_core.drift.band import Band
from faucet_core.drift.draws import effective_draws
from faucet_core.drift.extremes import (
    constant_left_by_chance,
    constant_length_left_by_chance,
    inside_seen_range,
    inward_by_chance,
    outward_by_chance,
    rare_long_value,
    tail_thinned,
)
from faucet_core.drift.limits import tail_probability
from faucet_core.drift.longtail import long_tail_chance, long_tail_length_chance
from faucet_core.drift.model import DriftMetric
from faucet_core.drift.pool import one_draw_chance, pool_of
from faucet_core.drift.series import SeriesTest, draws, judge_test

__all__ = [
    "CLEARING_RULES",
    "FEW_DRAWS",
    "TAIL_DRAWS",
    "ClearingRule",
    "RuleContext",
    "clearing_rule",
    "length_seen_before",
    "matched_by_a_past_run",
    "one_record_among_the_pool",
    "within_the_long_tail",
]

FEW_DRAWS = 2
"""A run of at most this many records (and a baseline whose median run has as few) reads
its statistic off one or two draws of the column's values: a baseline run as far out is
the column's tail (:func:`matched_by_a_past_run`). On runs of more records a statistic
averages over them, and a run that far out was an incident of its own."""
TAIL_DRAWS = 10
"""The most records of a run (and of the baseline's median run) whose extreme
:func:`within_the_long_tail` judges as the extreme of that many draws of the column's
pooled values: an exact chance for independent draws, counted as fewer where the runs'
means say the records cluster."""


@dataclass(frozen=True)
class RuleContext:
    """What every rule may read beside the test and its band: the settings, the number
    of tests sharing the run's budget, the table's tail factor, and ``alpha``, the
    two-sided chance one test may spend (the rules' bar for "chance explains it")."""

    config: ProfilingConfig
    tests: int
    tail: float

    @cached_property
    def alpha(self) -> float:
        method, sensitivity = self.config.method, self.config.effective_sensitivity
        return tail_probability(method, sensitivity) / self.tests / 2.0


ClearingRule = Callable[[SeriesTest, Band, RuleContext], bool]
"""(candidate test, its band, the context) -> True when the rule explains the candidate."""


def clearing_rule(test: SeriesTest, band: Band, context: RuleContext) -> str | None:
    """The name of the first of :data:`CLEARING_RULES` that explains the candidate
    ``test``, or None: it stays a finding."""
    for name, rule in CLEARING_RULES:
        if rule(test, band, context):
            return name
    return None


def _same_weekday(test: SeriesTest, band: Band, context: RuleContext) -> bool:
    """Inside its band against the baseline's runs of the same weekday, where the
    history shows a weekly pattern (:mod:`faucet_core.drift.weekly`)."""
    week = test.week(test.read_mask)
    if week is None:
        return False
    config, tests, tail = context.config, context.tests, context.tail
    return not judge_test(test, test.value, test.series, config, tests, week, tail).drifted


def _calm_readings(test: SeriesTest, band: Band, context: RuleContext) -> bool:
    """A drop in a reading's distinct count that its smaller spread accounts for
    (:func:`~faucet_core.drift.volume.spread_elasticity`)."""
    calm = test.calm
    if calm is None or not test.value < band.center:
        return False
    config, tests, tail = context.config, context.tests, context.tail
    drifted = judge_test(calm, calm.value, calm.series, config, tests, None, tail).drifted
    return not drifted or _same_weekday(calm, band, context)


def _extreme(rule: Callable[[SeriesTest, Band], bool]) -> ClearingRule:
    """``rule`` on the extremes (min, max, len_max) only."""
    return lambda test, band, context: test.spec.extreme and rule(test, band)


def _extreme_by_chance(rule: Callable[[SeriesTest, Band, float], bool]) -> ClearingRule:
    """``rule`` at the context's ``alpha``, on the extremes only."""
    return lambda test, band, context: test.spec.extreme and rule(test, band, context.alpha)


def length_seen_before(test: SeriesTest, band: Band, alpha: float) -> bool:
    """A light run's one text whose length a baseline text already had, or went past, on
    the side it moved to: the shortest and longest text of every baseline run are
    lengths some record had, so a run of one text (a table of one or two records a day)
    as short as one of them is a draw of lengths the baseline holds, with a chance of at
    least 1 / (N + 1) among the N + 1 texts by rank. A capture time written ``9:23``
    after twenty days of ``10:30``-style times, one of which was ``9:05``: the runs'
    longest length never moved, but a record's did. Only on runs of one text, in a
    baseline whose median run holds at most :data:`FEW_DRAWS`."""
    if test.spec.metric is not DriftMetric.STRING_LENGTH or test.value == band.center:
        return False
    if draws(test, test.profile) != 1:
        return False
    if not _light_baseline(test):
        return False
    strings = [c.string for c in test.past if c.string is not None and c.string.count > 0]
    texts = sum(s.count for s in strings)
    if not strings or 1.0 / (texts + 1) <= alpha:
        return False
    if test.value > band.center:
        return any(s.len_max >= test.value for s in strings)
    return any(s.len_min <= test.value for s in strings)


_LEVELS = frozenset({"mean", "min", "max"})
_LENGTHS = frozenset({"len_mean", "len_max"})


def within_the_long_tail(test: SeriesTest, band: Band, alpha: float) -> bool:
    """A light run's number out on the long side of a long-tailed column, where the
    baseline's pooled numbers reach with a chance above ``alpha``
    (:func:`~faucet_core.drift.draws.long_tail_chance`; for a text length, the lengths
    of the baseline's runs of one or two texts,
    :func:`~faucet_core.drift.draws.long_tail_length_chance`). One house sale, one day's
    rain, one breach, one film's list of languages is a draw of the column's values, and
    a 20-run window holds too few draws to say how far its tail reaches: the tail's rate
    learned from them is uncertain, and that uncertainty is what the chance carries.
    The run's mean (or mean length) of one record, which is also its min and max
    whichever way they moved, or its extreme of at most :data:`TAIL_DRAWS` records (as
    that many draws, fewer where records cluster:
    :func:`~faucet_core.drift.draws.effective_draws`), past the side of the pool that is
    the longer one, in a baseline whose median run holds at most :data:`TAIL_DRAWS`
    records. A mean of several records is not judged here: a shift of all of them is
    what its band is for. A rescale (x100) goes far past the tail's reach; a fall toward
    zero of positive amounts is never cleared and stays judged by its band."""
    statistic = test.spec.statistic
    if statistic not in _LEVELS | _LENGTHS or test.factor != 1.0:
        return False
    n = draws(test, test.profile)
    if n > TAIL_DRAWS or (statistic in ("mean", "len_mean") and n != 1):
        return False
    if not _light_baseline(test, TAIL_DRAWS):
        return False
    if test.value == band.center:
        return False
    high = test.value > band.center
    if n > 1 and ((statistic in ("max", "len_max") and not high) or (statistic == "min" and high)):
        return False  # an extreme of two that moved inward: the draws' own rule judges it
    if statistic in _LENGTHS:
        chance = long_tail_length_chance(test.past, test.value, max(n, 1), high=high)
    else:
        # records of one run as independent draws: fewer where the runs' means say they
        # cluster (a run's extreme then reaches less far than that many draws would)
        independent = effective_draws(max(n, 1), test.past)
        chance = long_tail_chance(test.past, test.value, independent, high=high)
    return chance is not None and chance > alpha


def one_record_among_the_pool(test: SeriesTest, band: Band, alpha: float) -> bool:
    """A run of one number (its mean, min and max are that one reading) that lies among
    the baseline's pooled numbers (its runs' sketches, :func:`~faucet_core.drift.pool.
    pool_of`) where one draw of them lands with a chance above ``alpha``
    (:func:`~faucet_core.drift.pool.one_draw_chance`). One record is one draw of the
    column's values, whatever the baseline's runs held: a light day's single rating of a
    1940 film, after a window of days with hundreds of ratings whose years reach back that
    far, is a draw of their years, though a band of run means, narrow because those runs
    averaged many records, puts it 6 sigma out. A reading past every pooled number is left
    to the other rules and its band (a rescale lands there)."""
    if test.spec.statistic not in _LEVELS or test.factor != 1.0:
        return False
    numeric = test.profile.numeric
    if numeric is None or numeric.count != 1 or numeric.mean is None:
        return False
    pooled = pool_of(test.past)
    if pooled is None:
        return False
    chance = one_draw_chance(pooled[0], pooled[1], float(numeric.mean))
    return chance is not None and chance > alpha


def matched_by_a_past_run(test: SeriesTest, band: Band) -> bool:
    """A value no farther from the band's center than one of the baseline's own runs, on
    the same side. Among the baseline's k runs and this one, this run is then not the most
    extreme: its rank alone makes it unremarkable (a chance of 2 / (k + 1) or more), and
    with the run the band left out as a past incident it makes two runs that far out,
    which the band already reads as the series' own tail
    (:data:`~faucet_core.drift.band.MAX_LEFT_OUT`). The light day whose one record is a
    long-tailed draw (a breach a hundred times the typical one, a film's list of eight
    languages) repeats such a run; a scale change or a new kind of value goes past every
    run the baseline holds. Only on runs of at most :data:`FEW_DRAWS` records, in the run
    and in the baseline's median run."""
    if draws(test, test.profile) > FEW_DRAWS:
        return False
    if not _light_baseline(test):
        return False
    if test.value > band.center:
        return any(v >= test.value for v in test.series)
    if test.value < band.center:
        return any(v <= test.value for v in test.series)
    return False


def _light_baseline(test: SeriesTest, most: int = FEW_DRAWS) -> bool:
    """The baseline's median run holds at most ``most`` records of ``test``'s statistic:
    each run's statistic is a draw or a few of the column's values."""
    return statistics.median(draws(test, c) for c in test.past) <= most


CLEARING_RULES: tuple[tuple[str, ClearingRule], ...] = (
    ("same_weekday", _same_weekday),
    ("calm_readings", _calm_readings),
    (
        "constant_left_by_chance",
        lambda t, b, c: constant_left_by_chance(t, b, c.alpha, c.config.min_history),
    ),
    (
        "constant_length_left_by_chance",
        lambda t, b, c: constant_length_left_by_chance(t, b, c.alpha),
    ),
    ("extreme_seen_before", _extreme(inside_seen_range)),
    ("thinner_tail", _extreme(tail_thinned)),
    (
        "rare_value_length",
        lambda t, b, c: t.spec.extreme and rare_long_value(t, b, c.config, c.tests),
    ),
    ("extreme_of_fewer_draws", _extreme_by_chance(inward_by_chance)),
    ("new_extreme_by_chance", _extreme_by_chance(outward_by_chance)),
    ("matched_by_a_past_run", lambda t, b, c: not t.spec.extreme and matched_by_a_past_run(t, b)),
    ("length_seen_before", lambda t, b, c: length_seen_before(t, b, c.alpha)),
    ("one_record_among_the_pool", lambda t, b, c: one_record_among_the_pool(t, b, c.alpha)),
    ("within_the_long_tail", lambda t, b, c: within_the_long_tail(t, b, c.alpha)),
)
"""The clearing rules in the order they are tried; the first that explains a candidate
names it. Each is documented where it is defined (the chance rules in
:mod:`faucet_core.drift.extremes`)."""
