"""A large sorted batch reaches the KLL sketch already compacted (``kll_batch``): the sketch
it becomes counts every value once, moves no rank by more than its compactions allow, is
unbiased, and the column's quantiles keep the sketch's rank error."""

from __future__ import annotations

import math
import os
import platform
import subprocess
import sys

import datasketches as ds
import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import profile
from faucet_core.profile import kll_batch
from faucet_core.profile.kll_batch import COMPACT_FROM, batch_sketch, compacted_sketch
from faucet_core.profile.sketches import KLL_K

from .helpers import KLL_RANK_ERROR, rank_error


def _levels(sketch: ds.kll_doubles_sketch) -> int:
    """How many times the batch was halved: the sketch's levels (byte 18 of its serialized
    form) less one."""
    return sketch.serialize()[18] - 1


def _fewest_levels(n: int) -> int:
    """The halvings that bring ``n`` values to at most 400 (one more may be needed so that
    they fit a sketch of that many levels)."""
    return max(0, math.ceil(math.log2(n / (2 * KLL_K))))


def _worst_move(ordered: np.ndarray, sketch: ds.kll_doubles_sketch) -> float:
    """The largest gap, in values, between the sketch's count at or below a point and the
    true count, over every distinct value of the batch."""
    points = np.unique(ordered)
    true = np.searchsorted(ordered, points, side="right")
    est = np.array([sketch.get_rank(float(p), inclusive=True) for p in points]) * ordered.size
    return float(np.max(np.abs(np.rint(est) - true)))


@pytest.mark.parametrize("n", [2 * KLL_K + 1, 667, 801, 4_095, COMPACT_FROM, 65_536, 100_003])
def test_the_batch_sketch_counts_every_value_and_moves_ranks_within_its_levels(n: int) -> None:
    rng = np.random.default_rng(n)
    ordered = np.sort(rng.lognormal(1.0, 2.0, n))
    sketch = compacted_sketch(ordered)
    assert sketch.n == n
    assert (sketch.get_min_value(), sketch.get_max_value()) == (ordered[0], ordered[-1])
    assert sketch.get_rank(float(ordered[-1]), inclusive=True) == 1.0
    h = _levels(sketch)
    assert _fewest_levels(n) <= h <= _fewest_levels(n) + 1
    assert sketch.num_retained <= 2 * KLL_K + h
    assert _worst_move(ordered, sketch) <= 2**h - 1
    # what the library writes back reads back the same
    again = ds.kll_doubles_sketch.deserialize(sketch.serialize())
    assert again.get_quantiles([0.1, 0.5, 0.9]) == sketch.get_quantiles([0.1, 0.5, 0.9])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.integers(-3, 3).map(float),
            st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False),
        ),
        min_size=2 * KLL_K + 1,
        max_size=3_000,
    )
)
def test_any_finite_batch_keeps_its_count_and_its_bound(values: list[float]) -> None:
    ordered = np.sort(np.array(values, dtype=np.float64))
    sketch = compacted_sketch(ordered)
    assert sketch.n == ordered.size
    assert (sketch.get_min_value(), sketch.get_max_value()) == (ordered[0], ordered[-1])
    assert _worst_move(ordered, sketch) <= 2 ** _levels(sketch) - 1


def test_the_compactions_start_at_random_so_ranks_are_unbiased() -> None:
    # Always keeping the first of each pair would count the values at or below the
    # median about 2**h / 2 too many on every batch; a random start moves it either way.
    ordered = np.sort(np.random.default_rng(5).normal(size=20_001))
    median = float(ordered[10_000])
    sketches = [compacted_sketch(ordered) for _ in range(400)]
    moves = [s.get_rank(median, inclusive=True) * ordered.size - 10_001 for s in sketches]
    spread = 2 ** _levels(sketches[0])
    assert abs(float(np.mean(moves))) < 0.1 * spread
    assert float(np.std(moves)) > 0.05 * spread  # the start does vary


def test_fewer_values_than_the_sketch_holds_are_refused() -> None:
    with pytest.raises(ValueError, match="more than 400 values, got 400"):
        compacted_sketch(np.arange(2 * KLL_K, dtype=np.float64))
    with pytest.raises(ValueError, match="more than 400 values, got 3"):
        batch_sketch(np.array([1.0, 2.0, 3.0]), 1.0, 3.0)


@pytest.fixture(autouse=True)
def count_where_it_can(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test here takes the counted path where a batch can be counted, as a host
    without numpy's SIMD sort does; ``test_a_simd_sort_sorts_every_batch`` the other one."""
    monkeypatch.setattr(kll_batch, "SORTS_WITH_SIMD", False)


def _both_ways(values: np.ndarray, seed: int) -> tuple[bytes, bytes]:
    """The batch sketch of ``values`` and the sketch of them sorted, from the same coin
    flips."""
    kll_batch._random.seed(seed)
    batch = batch_sketch(values, float(values.min()), float(values.max())).serialize()
    kll_batch._random.seed(seed)
    return batch, compacted_sketch(np.sort(values)).serialize()


@pytest.mark.parametrize(
    "values",
    [
        np.random.default_rng(1).integers(1, 21, 65_536),  # a quantity
        np.random.default_rng(2).integers(0, 200_000, 65_536),  # ids with repeats
        np.random.default_rng(3).integers(-5_000, 5_000, 30_001),  # negative too
        np.random.default_rng(4).integers(0, 10**9, 20_000),  # too wide: sorted
        np.random.default_rng(5).normal(size=20_000),  # not integers: sorted
        np.concatenate([np.arange(20_000), [2.0**53 + 2]]),  # beyond exact: sorted
        np.arange(50_000)[::-1],  # descending
        np.arange(50_000),  # ascending: taken as it is
        np.round(np.random.default_rng(6).lognormal(3.0, 1.0, 65_536), 2),  # prices
        np.round(np.random.default_rng(7).normal(12.0, 8.0, 20_000), 1),  # temperatures
        np.round(np.random.default_rng(8).random(20_000) / 100, 6),  # 6 places
        np.round(np.random.default_rng(9).random(20_000) / 1000, 7),  # 7: sorted
        np.round(np.random.default_rng(9).normal(0.0, 1.0, 20_000), 6),  # too wide: sorted
        np.concatenate([np.round(np.random.default_rng(10).random(20_000), 2), [0.125]]),
    ],
    ids=[
        "quantity",
        "ids",
        "negative",
        "wide",
        "floats",
        "huge",
        "descending",
        "ascending",
        "prices",
        "temperatures",
        "six-places",
        "seven-places",
        "six-places-wide",
        "one-more-digit",
    ],
)
def test_a_batch_in_any_order_gives_the_sketch_of_its_sorted_values(
    values: np.ndarray, request: pytest.FixtureRequest
) -> None:
    values = values.astype(np.float64)
    batch, ordered = _both_ways(values, seed=17)
    assert batch == ordered
    counted = kll_batch._decimal_counts(values, float(values.min()), float(values.max()))
    name = request.node.callspec.id
    assert (counted is not None) == (name in COUNTED), name
    if counted is not None:
        assert counted[2].sum() == values.size


COUNTED = {
    *("quantity", "ids", "negative", "descending", "ascending", "prices", "temperatures"),
    *("six-places", "one-more-digit"),  # the last at three places, after two fail
}
"""The batches above that can be counted, not sorted (``batch_sketch`` takes ``ascending``
as it is, before counting)."""


@settings(max_examples=80, deadline=None)
@given(
    st.integers(-(2**40), 2**40),
    st.integers(1, 2_000),
    st.integers(2 * KLL_K + 1, 5_000),
    st.integers(0, 2**32),
)
def test_integers_counted_give_the_sketch_of_their_sorted_values(
    low: int, span: int, n: int, seed: int
) -> None:
    values = np.random.default_rng(seed).integers(low, low + span, n).astype(np.float64)
    batch, ordered = _both_ways(values, seed)
    assert batch == ordered


@settings(max_examples=80, deadline=None)
@given(
    st.integers(-(10**9), 10**9),
    st.integers(1, 5_000),
    st.integers(0, 7),
    st.integers(2 * KLL_K + 1, 5_000),
    st.integers(0, 2**32),
)
def test_decimals_counted_give_the_sketch_of_their_sorted_values(
    low: int, span: int, places: int, n: int, seed: int
) -> None:
    whole = np.random.default_rng(seed).integers(low, low + span, n)
    values = whole / 10.0**places
    batch, ordered = _both_ways(values, seed)
    assert batch == ordered
    if places <= kll_batch.MAX_DECIMALS and span <= kll_batch.RANGE_PER_VALUE * n:
        assert kll_batch._decimal_counts(values, values.min(), values.max()) is not None


@pytest.mark.parametrize("seed", range(8))
def test_profiled_quantiles_keep_the_rank_error(seed: int) -> None:
    rng = np.random.default_rng(seed)
    data = np.concatenate([rng.normal(50, 5, 300_000), rng.exponential(3.0, 200_000)])
    rng.shuffle(data)
    numeric = profile(pa.table({"x": data}), threads=1)["x"].numeric
    assert numeric is not None
    ordered = np.sort(data)
    for q, value in ((0.5, numeric.p50), (0.95, numeric.p95)):
        assert rank_error(ordered, value, q) <= KLL_RANK_ERROR


def test_a_profile_of_batches_merges_like_one_profile() -> None:
    rng = np.random.default_rng(3)
    data = rng.gamma(2.0, 10.0, 400_000)
    whole = profile(pa.table({"x": data}), threads=1)
    halves = profile(pa.table({"x": data[:200_000]}), threads=1).merge(
        profile(pa.table({"x": data[200_000:]}), threads=1)
    )
    ordered = np.sort(data)
    for result in (whole, halves):
        numeric = result["x"].numeric
        assert numeric is not None
        assert rank_error(ordered, numeric.p50, 0.5) <= KLL_RANK_ERROR
        assert rank_error(ordered, numeric.p95, 0.95) <= KLL_RANK_ERROR
        assert (numeric.min, numeric.max) == (ordered[0], ordered[-1])


def test_a_negative_zero_is_kept_as_zero_whichever_way_the_batch_is_read() -> None:
    # one-decimal readings hold -0.0 (round(-0.04, 1)); a sort may put either zero first,
    # and the counted path rebuilds zero as 0.0: the kept items must not depend on which
    values = np.round(np.random.default_rng(11).normal(0.0, 0.5, 20_000), 1)
    values[values == 0.0] = -0.0
    batch, ordered = _both_ways(values, seed=3)
    assert batch == ordered
    kll_batch._random.seed(3)
    sketch = compacted_sketch(np.sort(values))
    zeros = [item for item, _ in sketch if item == 0.0]
    assert zeros
    assert all(math.copysign(1.0, item) > 0 for item in zeros)


def test_a_simd_sort_sorts_every_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """With numpy's SIMD sort a countable batch is sorted, never counted, to the same
    sketch."""
    values = np.round(np.random.default_rng(6).lognormal(3.0, 1.0, 65_536), 2)
    counted, _ = _both_ways(values, seed=5)
    monkeypatch.setattr(kll_batch, "SORTS_WITH_SIMD", True)
    calls: list[int] = []
    monkeypatch.setattr(kll_batch, "_decimal_counts", lambda *a: calls.append(1))
    sorted_, _ = _both_ways(values, seed=5)
    assert sorted_ == counted
    assert not calls


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86 features")
def test_whether_numpy_sorts_with_simd_follows_its_cpu_features() -> None:
    """Turning off numpy's AVX2 level (as a core without it would) turns counting back on."""
    script = "from faucet_core.profile import kll_batch; print(kll_batch.SORTS_WITH_SIMD)"
    from numpy._core._multiarray_umath import __cpu_features__ as features

    level = "X86_V3" if "X86_V3" in features else "AVX2"
    off = [n for n in ("AVX512_SPR", "AVX512_ICL", "X86_V4", "AVX512_SKX", level) if n in features]
    env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": " ".join(off)}
    printed = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert printed == "False", (off, printed)
    if features.get(level):
        assert kll_batch._sorts_with_simd() is True
