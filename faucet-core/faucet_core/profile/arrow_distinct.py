"""The distinct count and the top values of one typed Arrow batch: which values reach the
HyperLogLog, and how, and the value counts the frequent-items sketch takes.

While a column still tracks its values (it may be categorical), one ``value_counts`` pass
gives both the distinct candidates (in first-occurrence order, as ``unique`` gives them)
and the counts. Otherwise the batch is deduplicated only where that pays (few distinct
values); a batch of many distinct values is hashed as it is. From
:data:`HASHED_FEED_MIN` candidates on, the values are hashed in numpy and only those that
change the sketch are handed to it (:mod:`faucet_core.profile.hll_hash`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from faucet_core.profile.hll_hash import Coupons, string_coupons
from faucet_core.profile.state import ColumnState

__all__ = [
    "EMPTY_STRING",
    "HASHED_FEED_MIN",
    "add_value_counts",
    "candidates",
    "feed_numbers",
    "feed_texts",
    "too_many_to_count",
]

EMPTY_STRING = "\x00faucet:empty-string"
"""The HyperLogLog ignores an empty string: it is counted under this stand-in."""
HASHED_FEED_MIN = 2048
"""From this many candidates on, the HyperLogLog is fed through :mod:`hll_hash`; fewer go
one call each."""
_DEDUP_SKIP_RATIO = 0.5
_DEDUP_SKIP_RATIO_LARGE = 0.05
"""A batch of at least :data:`_LARGE` rows whose column had more distinct values than this
share in its last deduplicated batch is hashed without deduplicating: it holds hundreds of
distinct values, so the sketch is in HLL mode, where hashing a repeat costs less than
finding it."""
_LARGE = 8192
_SAMPLE = 1024
"""A large batch of a column that still tracks its values is counted only if its first this
many values hold at most ``categorical_max_distinct`` distinct ones, or once the HyperLogLog
has the whole batch and is still below that."""


def candidates(state: ColumnState, valid: pa.Array) -> tuple[pa.Array, pa.StructArray | None]:
    """(values to feed the HyperLogLog, value counts while the column tracks its values)."""
    n = len(valid)
    if state.tracks_values and not too_many_to_count(state, valid):
        counts = pc.value_counts(valid)
        uniques = counts.field("values")
        state.unique_ratio = len(uniques) / n if n else 0.0
        return uniques, counts
    skip = _DEDUP_SKIP_RATIO_LARGE if n >= _LARGE else _DEDUP_SKIP_RATIO
    if state.unique_ratio > skip:
        return valid, None
    uniques = pc.unique(valid)
    state.unique_ratio = len(uniques) / n if n else 0.0
    return uniques, None


def too_many_to_count(state: ColumnState, valid: pa.Array) -> bool:
    """Whether a batch of a column that still tracks its values surely holds more distinct
    values than ``categorical_max_distinct``, judged by its first :data:`_SAMPLE` values:
    then the HyperLogLog, fed the batch, makes the column high-cardinality and its value
    counts would be dropped, so they are not computed first (:func:`add_value_counts`
    counts them after all if the column still tracks its values)."""
    if len(valid) < _LARGE:
        return False
    sample = len(pc.unique(valid.slice(0, _SAMPLE)))
    if sample <= state.params.categorical_max_distinct:
        return False
    state.unique_ratio = sample / _SAMPLE
    return True


def feed_numbers(
    state: ColumnState, values: np.ndarray, coupons: Callable[[np.ndarray], Coupons]
) -> None:
    """Feed int64 or float64 ``values`` to the HyperLogLog, as Python ints or floats."""
    if values.size < HASHED_FEED_MIN:
        state.add_distinct(values.tolist())
    else:
        state.add_distinct_coupons(coupons(values), lambda at: values[at].tolist())


def feed_texts(state: ColumnState, texts: pa.Array, has_empty: bool) -> None:
    """Feed string values to the HyperLogLog (an empty one as :data:`EMPTY_STRING`)."""
    coupons = None
    offsets = pa.types.is_string(texts.type) or pa.types.is_large_string(texts.type)
    if len(texts) >= HASHED_FEED_MIN and offsets:
        coupons = string_coupons(texts, EMPTY_STRING)
    if coupons is not None:
        state.add_distinct_coupons(coupons, lambda at: _texts_at(texts, at))
        return
    values = texts.to_pylist()
    if has_empty:
        values = [t if t else EMPTY_STRING for t in values]
    state.add_distinct(values)


def _texts_at(texts: pa.Array, at: np.ndarray) -> list[str]:
    picked: list[str] = texts.take(pa.array(at, pa.int64())).to_pylist()
    return [t if t else EMPTY_STRING for t in picked]


def add_value_counts(
    state: ColumnState,
    valid: pa.Array,
    counts: pa.StructArray | None,
    encode: Callable[[Any], str],
) -> None:
    """Count the batch's values in the frequent-items sketch, if the column still tracks
    them (``counts``: its ``value_counts`` when already computed)."""
    if not state.tracks_values:
        return
    if counts is None:
        counts = pc.value_counts(valid)
    keys = [encode(v) for v in counts.field("values").to_pylist()]
    state.add_counts(keys, counts.field("counts").to_pylist())
