"""A large batch handed to the KLL quantile sketch already compacted.

Feeding a KLL sketch one value at a time costs about 20 ns a value (the sketch's update
loop, holding the GIL), a large part of profiling a numeric column. The sketch's own first
step on a sorted buffer is a *compaction*: keep every other value, starting at a random one
of the first two, at twice the weight; a buffer of odd length keeps its first value where
it is. Done here on the whole batch, sorted (or, for whole numbers and short decimals of a
narrow range, counted), as strided views of its positions, until at most ``2 * k`` values
are left, the result is a sketch of the batch with at most one value at each of the lower
levels and the rest on top, which is merged into the column's sketch (the merge compacts
further as the sketch's own schedule asks).

Accuracy: compacting a sorted buffer of weight-``w`` values moves the count of values at or
below any point by at most ``w`` (those values form a prefix; keeping every other one of a
prefix of length p keeps p/2 rounded either way), with the random start making the move
zero on average. Over the ``h`` levels done here a batch's ranks move by at most
``2**h - 1`` values (at most 255 for a 65,536-value batch, 0.39 % of it; over 65 points of
a normal batch the largest move averaged 0.28 %), and the batch's total weight is exactly
its size. The moves of separate batches are independent and cancel on average. The sketch
itself then compacts fewer, larger buffers than it would have, so the merged sketch's rank
error stays within the bound that
:func:`datasketches.kll_doubles_sketch.get_normalized_rank_error` states for ``k`` (checked
in ``tests/faucet_core/profile/test_kll_batch.py``).

The batch sketch is written in the KLL sketch's serialized form (the library's documented,
language-independent binary layout, version 1) and read back with its own ``deserialize``,
so every later step is the library's.
"""

from __future__ import annotations

import importlib
import random
import struct

import datasketches as ds
import numpy as np

from faucet_core.profile.sketches import KLL_K

__all__ = [
    "COMPACT_FROM",
    "MAX_DECIMALS",
    "RANGE_PER_VALUE",
    "SORTS_WITH_SIMD",
    "batch_sketch",
    "compacted_sketch",
]

COMPACT_FROM = 16_384
"""Batches of at least this many values are compacted here; smaller ones are fed value by
value (the update costs less than building a sketch for them)."""

RANGE_PER_VALUE = 4
"""A batch of whole numbers of ``1 / 10**d`` spanning at most this many such numbers per
value it holds is counted (``numpy.bincount``, linear) instead of sorted."""

MAX_DECIMALS = 6
"""The most decimal places a counted batch may have."""

_PROBE = 64
"""Values tried first at each number of decimal places (most batches of measurements fail
at once)."""

_M = 8
"""The sketch's smallest level capacity (the library's default, which ``new_kll`` uses)."""

_PREAMBLE_INTS = 5
_SERIAL_VERSION = 1
_FAMILY_KLL = 15
_LEVEL_ZERO_SORTED = 1 << 1

_random = random.Random()


def _sorts_with_simd() -> bool:
    """Whether numpy sorts float64 with SIMD here: numpy 2 on an x86 core with AVX2 (its
    x86-simd-sort kernels; numpy 2.4 and later name the level X86_V3). Read from numpy's
    record of the features it dispatches on, which ``NPY_DISABLE_CPU_FEATURES`` also
    turns off; False where that record is not found."""
    if int(np.__version__.split(".")[0]) < 2:
        return False
    try:
        umath = importlib.import_module("numpy._core._multiarray_umath")
    except ImportError:
        return False
    features = getattr(umath, "__cpu_features__", {})
    level = "X86_V3" if "X86_V3" in features else "AVX2"
    return bool(features.get(level, False))


SORTS_WITH_SIMD = _sorts_with_simd()
"""Sort every unordered batch instead of counting it. numpy's SIMD sort of a 65,536-value
float64 batch takes 0.33 ms with AVX-512 and 0.8 ms with AVX2, while counting one (checking
the decimals, ``bincount``, running sums) takes 0.5-1.4 ms: the count only pays where the
sort is numpy's scalar one (6 ms). Either way the sketch is the same: the counted path reads
the values at the kept positions that the sorted one takes (``benchmarks/kll_sort_count.py``
times both)."""


def _level_capacity(k: int, depth: int) -> int:
    """``k * (2/3) ** depth`` rounded as the library rounds it (integer arithmetic)."""
    while depth > 30:
        k, depth = _level_capacity(k, 30), depth - 30
    return int((2 * k << depth) // 3**depth + 1) >> 1


def _total_capacity(k: int, levels: int) -> int:
    """The item slots of a sketch of ``levels`` levels: where its serialized items end."""
    return sum(max(_M, _level_capacity(k, levels - 1 - h)) for h in range(levels))


def _kept_ranks(n: int, k: int) -> list[np.ndarray]:
    """The positions in sorted order that the compactions keep, level by level (views of
    one ``arange``): at most one at each lower level, the rest on top."""
    levels: list[np.ndarray] = []
    items = np.arange(n)
    left = 0  # positions left at the lower levels
    # at most 2k on top, and no more in all than a sketch of that many levels holds
    while items.size > 2 * k or left + items.size > _total_capacity(k, len(levels) + 1):
        odd = items.size % 2
        levels.append(items[:odd])
        left += odd
        items = items[odd + _random.getrandbits(1) :: 2]
    levels.append(items)
    return levels


def _sketch(
    n: int, k: int, levels: list[np.ndarray], lo: float, hi: float
) -> ds.kll_doubles_sketch:
    """The sketch of ``n`` values given the values kept at each level, in the library's
    serialized form read back by the library."""
    count = len(levels)
    retained = sum(int(level.size) for level in levels)
    offsets = [_total_capacity(k, count) - retained]
    for level in levels[:-1]:
        offsets.append(offsets[-1] + int(level.size))
    header = struct.pack(
        f"<BBBBHBBQHBB{count}Idd",
        _PREAMBLE_INTS,
        _SERIAL_VERSION,
        _FAMILY_KLL,
        _LEVEL_ZERO_SORTED,
        k,
        _M,
        0,
        n,
        k,
        count,
        0,
        *offsets,
        lo,
        hi,
    )
    body = np.concatenate(levels).astype("<f8", copy=False).tobytes()
    return ds.kll_doubles_sketch.deserialize(header + body)


def _check_size(n: int, k: int) -> None:
    if n <= 2 * k:
        raise ValueError(f"a compacted sketch needs more than {2 * k} values, got {n}")


def compacted_sketch(ordered: np.ndarray, k: int = KLL_K) -> ds.kll_doubles_sketch:
    """A KLL sketch of ``ordered`` (finite float64 values in ascending order, more than
    ``2 * k`` of them), compacted level by level until at most ``2 * k`` values remain and
    they fit the item slots of a sketch of that many levels."""
    n = int(ordered.size)
    _check_size(n, k)
    # + 0.0 turns -0.0 into 0.0: a sort may put either zero first, and the kept items
    # (and the counted path, which rebuilds zero as 0.0) must not depend on which
    levels = [ordered[ranks] + 0.0 for ranks in _kept_ranks(n, k)]
    return _sketch(n, k, levels, float(ordered[0]) + 0.0, float(ordered[-1]) + 0.0)


def _decimal_counts(
    values: np.ndarray, lo: float, hi: float
) -> tuple[float, int, np.ndarray] | None:
    """``(scale, first, counts)`` when every value is a whole number of ``1 / scale``
    (``scale`` a power of ten up to ``10 ** MAX_DECIMALS``) that reads back exactly, and the
    whole numbers span at most :data:`RANGE_PER_VALUE` per value: ``counts[i]`` values equal
    ``(first + i) / scale``. Otherwise None.

    ``v -> rint(v * scale)`` never reverses an order, and when ``rint(v * scale) / scale``
    gives back each ``v`` it maps no two values to one number, so counting the numbers
    counts the values in order."""
    n = int(values.size)
    head = values[:_PROBE]
    for digits in range(MAX_DECIMALS + 1):
        scale = 10.0**digits
        if (hi - lo) * scale > RANGE_PER_VALUE * n or max(-lo, hi) * scale >= 2.0**53:
            return None  # more digits only widen the range
        if not np.array_equal(np.rint(head * scale) / scale, head):
            continue
        whole = np.rint(values * scale)
        if not np.array_equal(whole / scale, values):
            continue
        numbers = whole.astype(np.int64)
        first = int(np.rint(lo * scale))
        return (
            scale,
            first,
            np.bincount(numbers - first, minlength=int(np.rint(hi * scale)) - first + 1),
        )
    return None


def batch_sketch(values: np.ndarray, lo: float, hi: float, k: int = KLL_K) -> ds.kll_doubles_sketch:
    """A KLL sketch of a batch of finite float64 values in any order, more than ``2 * k``
    of them, whose minimum and maximum are ``lo`` and ``hi``: the batch sorted (unless it
    is in order already) and compacted; where numpy has no SIMD sort
    (:data:`SORTS_WITH_SIMD`), a batch of whole numbers or decimals of a narrow range
    (:func:`_decimal_counts`) is counted instead of sorted, and the values at the kept
    positions read from the running counts."""
    n = int(values.size)
    _check_size(n, k)
    if (values[1:] >= values[:-1]).all():  # in order already (an id, a time)
        return compacted_sketch(values, k)
    counted = None if SORTS_WITH_SIMD else _decimal_counts(values, lo, hi)
    if counted is None:
        return compacted_sketch(np.sort(values), k)
    scale, first, counts = counted
    running = np.cumsum(counts)
    levels = [
        (first + np.searchsorted(running, ranks, side="right")) / scale
        for ranks in _kept_ranks(n, k)
    ]
    return _sketch(n, k, levels, lo + 0.0, hi + 0.0)
