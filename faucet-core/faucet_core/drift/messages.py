"""Finding messages: pure text building, one function per kind of finding.

Messages lead with ``column.metric:`` and then say what the number is, what the
baseline was and which limit it crossed, e.g.::

    amount.null_rate: null_rate 40.0% vs baseline mean 0.12% — 41.3 sigma, above the 19.0 limit: 3 sigma widened for 5 baseline runs and 42 tests
    region.new_value: value "latam" is 12.5% of the run; never among the top values in 6 baseline runs

A series finding names one threshold, the limit in force, and says where it comes from:
the user's sensitivity widened for a short baseline and for the number of tests in the
run (see ``docs/drift.md``). Numbers follow :mod:`faucet_core.drift.numfmt`.
"""  # noqa: E501

from __future__ import annotations

import json
from typing import Any

from faucet_core.config import DriftMethod
from faucet_core.drift.band import Band
from faucet_core.drift.model import DriftMetric, DriftScale
from faucet_core.drift.numfmt import fmt_number
from faucet_core.text import clip

__all__ = [
    "fmt_number",
    "fmt_value",
    "limit_phrase",
    "new_value_message",
    "psi_message",
    "score_and_limit",
    "series_message",
    "type_mix_message",
    "vanished_message",
]

MAX_VALUE_CHARS = 80
"""A value longer than this (as JSON) is shortened in messages."""


def fmt_value(value: Any) -> str:
    """A JSON value as messages show it (strings quoted), shortened when long."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return clip(text, MAX_VALUE_CHARS, "…")


def _runs(n: int) -> str:
    return f"{n} baseline run" + ("" if n == 1 else "s")


def series_message(
    column: str,
    metric: DriftMetric,
    statistic: str,
    value: float,
    band: Band,
    *,
    tests: int,
    records: int | None = None,
    sampled: int | None = None,
    one_draw: bool = False,
) -> str:
    """``band`` is on the statistic's scale; ``records`` the run's non-null records when
    the statistic was judged against the run's volume; ``sampled`` the records behind a
    statistic judged with its sampling model; ``one_draw`` for a min or max of runs of
    one number each, whose limit is not widened for an extreme's tail."""
    name = f"{column}.{metric.value}" if column else metric.value
    head = f"{name}: {statistic} {fmt_number(value, statistic)}"
    center = fmt_number(band.center, statistic)
    runs = _runs(band.runs)
    left_out = ""
    if band.excluded:
        left_out = f"{band.excluded} outlying run{'' if band.excluded == 1 else 's'} left out"
    log = band.scale is DriftScale.LOG
    if records is not None:
        versus = f"vs {center} expected for {fmt_number(records)} non-null records"
    elif band.constant:
        versus = f"vs constant baseline {center}"
    elif band.method is DriftMethod.IQR:
        versus = f"vs baseline median {center}"
    else:
        versus = f"vs baseline {'geometric mean' if log else 'mean'} {center}"
    if band.constant:
        change = fmt_number(abs(value - band.center), statistic)
        floor = fmt_number(band.floor, statistic)
        where = runs + (f", {left_out}" if left_out else "")
        return f"{head} {versus} — change {change}, above the floor {floor} ({where})"
    phrase = limit_phrase(
        band.method,
        score=band.score,
        limit=band.limit,
        sensitivity=band.sensitivity,
        runs=band.runs,
        tests=tests,
        extreme=statistic in EXTREME_STATISTICS and not one_draw,
        ratios=log,
        sampled=sampled,
        tail=band.tail,
    )
    return f"{head} {versus} — {phrase}" + (f" ({left_out})" if left_out else "")


EXTREME_STATISTICS = frozenset({"min", "max", "len_min", "len_max"})
"""Statistics that are a run's extreme: their limit is also widened for the longer tail."""


def score_and_limit(score: float, limit: float) -> tuple[str, str]:
    """Score and limit with one decimal (thousands separated, as every number faucet
    shows), more when one decimal would print them equal."""
    for digits in range(1, 5):
        a, b = f"{score:,.{digits}f}", f"{limit:,.{digits}f}"
        if a != b:
            return a, b
    return a, b


def limit_phrase(
    method: DriftMethod,
    *,
    score: float,
    limit: float,
    sensitivity: float,
    runs: int,
    tests: int,
    extreme: bool = False,
    ratios: bool = False,
    sampled: int | None = None,
    tail: float = 1.0,
) -> str:
    """How far a series statistic is and the one limit it crossed, with where the limit
    comes from, e.g. ``15.5 sigma, above the 6.7 limit: 3 sigma widened for 10 baseline
    runs and 22 tests``; with ``sampled`` (the run's records, for a statistic judged with
    its sampling model) the sigma is named and the limit is widened for the tests only:
    ``41.8 sigma (sampling over 10,000 records and 6 baseline runs' spread), above the
    3.2 limit: 3 sigma widened for 2 tests``; a ``tail`` above 1 adds "the table's
    own tail (x1.12)" (:mod:`faucet_core.drift.tail`)."""
    shown, bound = score_and_limit(score, limit)
    if method is DriftMethod.IQR:
        distance = f"{shown} IQR beyond the quartiles"
        base = f"the {fmt_number(sensitivity)} IQR fence"
    else:
        distance = f"{shown} sigma" + (" on the ratio scale" if ratios else "")
        base = f"{fmt_number(sensitivity)} sigma"
    if method is DriftMethod.IQR and ratios:
        distance += " on the ratio scale"
    count = f"{tests} test{'' if tests == 1 else 's'}"
    own = f"the table's own tail (x{tail:.2f})" if f"{tail:.2f}" != "1.00" else None
    if sampled is not None:
        distance += f" (sampling over {fmt_number(sampled)} records and {_runs(runs)}' spread)"
        if f"{limit:.4f}" == f"{sensitivity:.4f}":
            return f"{distance}, above the {bound} limit ({base}; {count})"
        why = count if own is None else f"{count} and {own}"
        return f"{distance}, above the {bound} limit: {base} widened for {why}"
    reasons = [_runs(runs), count]
    if extreme:
        reasons.append("an extreme's longer tail")
    if own is not None:
        reasons.append(own)
    why = ", ".join(reasons[:-1]) + " and " + reasons[-1]
    if f"{limit:.4f}" == f"{sensitivity:.4f}":
        return f"{distance}, above the {bound} limit ({base}; {why})"
    return f"{distance}, above the {bound} limit: {base} widened for {why}"


def type_mix_message(column: str, json_type: str, share: float, most: float, runs: int) -> str:
    return (
        f"{column}.type_mix: {share:.1%} of the run is {json_type}; at most {most:.1%} "
        f"in {_runs(runs)}"
    )


def rescale_message(
    column: str,
    statistic: str,
    value: float,
    center: float,
    band: tuple[float, float],
    runs: int,
    *,
    whole: bool | None,
    spread: float | None = None,
) -> str:
    """A rescaled column's extreme (:mod:`faucet_core.drift.rescale`): how many times
    it is from the baseline's median, the range of the baseline's runs, and what came
    with it: the type change (``whole``), or the spread's factor (``spread``, the run's
    standard deviation over the baseline runs' median)."""
    factor = abs(value / center)
    way = "larger" if factor > 1 else "smaller"
    factor = max(factor, 1.0 / factor)
    if spread is not None:
        moved = "wider" if spread > 1 else "narrower"
        times = fmt_number(round(max(spread, 1.0 / spread), 1))
        turned = f"its values' spread became {times} times {moved}"
    elif whole:
        turned = "fractional numbers became whole"
    else:
        turned = "whole numbers became fractional"
    low, high = (fmt_number(b, statistic) for b in band)
    return (
        f"{column}.{statistic}: {statistic} {fmt_number(value, statistic)} vs baseline median "
        f"{fmt_number(center, statistic)} — {fmt_number(round(factor, 1))} times {way}, beyond "
        f"every one of {_runs(runs)} ({low} to {high}), as {turned}: a rescale"
    )


def new_value_message(column: str, value: Any, share: float, runs: int) -> str:
    return (
        f"{column}.new_value: value {fmt_value(value)} is {share:.1%} of the run; never among "
        f"the top values in {_runs(runs)}"
    )


def vanished_message(column: str, value: Any, least: float, runs: int, cutoff: float | None) -> str:
    if cutoff is None:
        what = "is gone from the run"
    else:
        what = f"fell out of the top values (below {cutoff:.1%} of the run)"
    return (
        f"{column}.vanished_value: value {fmt_value(value)} {what}; it was at least "
        f"{least:.1%} in each of {_runs(runs)}"
    )


def psi_message(
    column: str,
    psi: float,
    threshold: float,
    buckets: int,
    coverage: float,
    baseline_coverage: float,
    runs: int,
) -> str:
    return (
        f"{column}.psi: PSI {psi:.4f} over {buckets} values and other exceeds {threshold:g} "
        f"(those values cover {coverage:.1%} of the run's non-null values, "
        f"{baseline_coverage:.1%} in {_runs(runs)})"
    )
