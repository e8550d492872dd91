"""Faults injected on the corpus tables' quiet days (see ``corpus.md``).

Each fault edits one day's arrow table. The column it edits is chosen per table by rule,
from the whole table, never from findings: the *numeric* column is the first non-date
integer or floating column with at least 10 distinct values that is not named as an
identifier (``id`` a word of its name: ``subject_id``, ``id_str``); the *categorical*
column is the first non-date text column with 3-50 distinct values whose second most
common value covers at least 5 % of the rows. A table without one skips that column's
faults.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["CORPUS_FAULTS", "ROW_COUNT", "CorpusFault", "FaultContext", "fault_context"]

ROW_COUNT = "row_count"
"""The metric value of the table-level volume finding the detector is getting."""

_ID_NAME = re.compile(r"(^|_)id($|_)")
NEW_VALUE = "zz-new-value"
TEXT = "unknown"


@dataclass(frozen=True)
class FaultContext:
    numeric: str | None
    categorical: str | None
    top_two: tuple[str, str] | None
    """The categorical column's two most common values over the table (the vanished
    fault uses its baseline window's instead, so that the value it removes is one that the
    baseline has)."""


def _concat(days: Sequence[pa.Table]) -> pa.Table:
    return pa.concat_tables(days, promote_options="default")


def fault_context(days: Sequence[pa.Table], date_columns: frozenset[str]) -> FaultContext:
    full = _concat(days)
    rows = full.num_rows
    numeric = categorical = None
    top_two = None
    for field in full.schema:
        name = field.name
        if name in date_columns:
            continue
        col = full[name]
        kind = field.type
        if (
            numeric is None
            and (pa.types.is_integer(kind) or pa.types.is_floating(kind))
            and not _ID_NAME.search(name.lower())
            and pc.count_distinct(col).as_py() >= 10
        ):
            numeric = name
        if categorical is None and (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            counts = pc.value_counts(col.drop_null())
            if 3 <= len(counts) <= 50:
                pairs = sorted(
                    zip(
                        counts.field("counts").to_pylist(),
                        counts.field("values").to_pylist(),
                        strict=True,
                    ),
                    key=lambda p: (-p[0], p[1]),
                )
                if pairs[1][0] >= 0.05 * rows:
                    categorical = name
                    top_two = (pairs[0][1], pairs[1][1])
    return FaultContext(numeric, categorical, top_two)


Edit = Callable[[pa.Table, FaultContext, Sequence[pa.Table], np.random.Generator], pa.Table]


@dataclass(frozen=True)
class CorpusFault:
    name: str
    description: str
    target: str
    """"numeric", "categorical" or "table" (judged by a row_count finding)."""
    metrics: frozenset[str]
    edit: Edit


def _set(table: pa.Table, name: str, column: pa.Array | pa.ChunkedArray) -> pa.Table:
    return table.set_column(table.column_names.index(name), name, column)


def _mask(n: int, share: float, rng: np.random.Generator) -> pa.Array:
    return pa.array(rng.random(n) < share)


def _nulls(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    col = table[ctx.numeric]
    blank = pa.nulls(len(col), col.type)
    return _set(table, ctx.numeric, pc.if_else(_mask(len(col), 0.40, rng), blank, col))


def _times100(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    return _set(table, ctx.numeric, pc.multiply(table[ctx.numeric], 100))


def _div1000(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    col = pc.cast(table[ctx.numeric], pa.float64())
    return _set(table, ctx.numeric, pc.divide(col, 1000.0))


def _text(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    col = pc.cast(table[ctx.numeric], pa.string())
    text = pa.array([TEXT] * len(col), pa.string())
    return _set(table, ctx.numeric, pc.if_else(_mask(len(col), 0.10, rng), text, col))


def _shift(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    """+ max(3 sd of the baseline's daily means, twice the mean's 1 % floor)."""
    means = [m for m in (pc.mean(b[ctx.numeric]).as_py() for b in base) if m is not None]
    center = statistics.fmean(means) if means else 0.0
    sd = statistics.stdev(means) if len(means) > 1 else 0.0
    delta = max(3 * sd, 0.02 * abs(center)) or 1.0
    col = table[ctx.numeric]
    if pa.types.is_integer(col.type):
        return _set(table, ctx.numeric, pc.add(col, math.ceil(delta)))
    return _set(table, ctx.numeric, pc.add(col, delta))


def _shift_values(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    """+ 3 x the column's own standard deviation: the median over the baseline's days, or,
    when fewer than half of those days hold two values (a table of one row a day), the
    standard deviation of the baseline's values pooled."""
    sds = [s for s in (pc.stddev(b[ctx.numeric], ddof=1).as_py() for b in base) if s]
    if 2 * len(sds) < len(base):
        pooled = pc.stddev(_concat(base)[ctx.numeric], ddof=1).as_py() if base else None
        sds = [pooled] if pooled else []
    delta = 3 * statistics.median(sds) if sds else 1.0
    col = table[ctx.numeric]
    if pa.types.is_integer(col.type):
        return _set(table, ctx.numeric, pc.add(col, math.ceil(delta)))
    return _set(table, ctx.numeric, pc.add(col, delta))


def _new(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    col = table[ctx.categorical]
    new = pa.array([NEW_VALUE] * len(col), col.type)
    return _set(table, ctx.categorical, pc.if_else(_mask(len(col), 0.20, rng), new, col))


def _top_two(columns: Sequence[pa.ChunkedArray]) -> tuple[str, str] | None:
    counts: Counter[str] = Counter()
    for col in columns:
        vc = pc.value_counts(col.drop_null())
        counts.update(
            dict(zip(vc.field("values").to_pylist(), vc.field("counts").to_pylist(), strict=True))
        )
    ranked = sorted(counts.items(), key=lambda p: (-p[1], p[0]))
    return (ranked[0][0], ranked[1][0]) if len(ranked) > 1 else None


def _vanish(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    """The baseline window's second most common value folded into its most common."""
    top = _top_two([b[ctx.categorical] for b in base]) or ctx.top_two
    assert top is not None
    first, second = top
    col = table[ctx.categorical]
    folded = pc.if_else(pc.equal(col, second), pa.scalar(first, col.type), col)
    return _set(table, ctx.categorical, folded)


def _row_loss(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    return table.filter(pa.array(rng.random(table.num_rows) >= 0.40))


def _empty(table: pa.Table, ctx: FaultContext, base: Sequence[pa.Table], rng) -> pa.Table:
    return table.slice(0, 0)


_SCALE = frozenset({"mean", "min", "max"})

CORPUS_FAULTS: tuple[CorpusFault, ...] = (
    CorpusFault(
        "null_40", "40 % of the numeric column null", "numeric", frozenset({"null_rate"}), _nulls
    ),
    CorpusFault("x100", "the numeric column x 100", "numeric", _SCALE, _times100),
    CorpusFault("div1000", "the numeric column / 1000", "numeric", _SCALE, _div1000),
    CorpusFault(
        "new_category",
        f'20 % of the categorical column becomes "{NEW_VALUE}"',
        "categorical",
        frozenset({"new_value"}),
        _new,
    ),
    CorpusFault(
        "vanished_category",
        "the baseline window's second most common value folded into its most common",
        "categorical",
        frozenset({"vanished_value"}),
        _vanish,
    ),
    CorpusFault(
        "text_in_numeric",
        f'the numeric column as text, 10 % of it "{TEXT}"',
        "numeric",
        frozenset({"type_mix"}),
        _text,
    ),
    CorpusFault(
        "shift_3sigma",
        "the numeric column + max(3 sd of the baseline daily means, 2 x the 1 % floor)",
        "numeric",
        frozenset({"mean"}),
        _shift,
    ),
    CorpusFault(
        "shift_3sd_values",
        "the numeric column + 3 x its own standard deviation (the baseline days' median; "
        "pooled over the baseline's values when its days hold one value)",
        "numeric",
        frozenset({"mean"}),
        _shift_values,
    ),
    CorpusFault(
        "row_loss_40", "40 % of the rows dropped", "table", frozenset({ROW_COUNT}), _row_loss
    ),
    CorpusFault("empty_run", "0 rows", "table", frozenset({ROW_COUNT}), _empty),
)
