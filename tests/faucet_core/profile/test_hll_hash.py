"""The HyperLogLog hash computed for whole arrays (compiled, and in numpy) matches
datasketches', and feeding only the values that change the sketch leaves it byte for byte as
feeding every value does. Every test runs on both hashes: ``hash_path`` switches the compiled
one off for the numpy runs."""

from __future__ import annotations

import os
import struct
from collections import deque
from typing import Any

import datasketches as ds
import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faucet_core.profile import hll_hash
from faucet_core.profile.arrow_path import update_from_arrow
from faucet_core.profile.sketches import SketchParams, new_hll
from faucet_core.profile.state import ColumnState

EMPTY = "\x00stand-in"
_COMPILED = hll_hash._compiled


@pytest.fixture(autouse=True, params=["compiled", "numpy"])
def hash_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test on the compiled hash, then on the numpy one. Where the package was built
    without a C compiler the compiled runs skip, or fail under FAUCET_REQUIRE_COMPILED=1."""
    if request.param == "compiled" and _COMPILED is None:
        reason = "faucet_core.profile._coupons was not built (no C compiler at install)"
        if os.environ.get("FAUCET_REQUIRE_COMPILED") == "1":
            pytest.fail(f"{reason}, but FAUCET_REQUIRE_COMPILED=1")
        pytest.skip(reason)
    if request.param == "numpy":
        monkeypatch.setattr(hll_hash, "_compiled", None)
    return request.param


def library_coupon(value: Any) -> int:
    """The coupon datasketches stores for ``value``: a sketch of one value is in list mode,
    whose compact image is an 8-byte preamble and the coupons as uint32."""
    sketch = new_hll()
    sketch.update(value)
    image = sketch.serialize_compact()
    assert len(image) == 12, "one coupon in list mode"
    return int(struct.unpack("<I", image[8:12])[0])


def test_integer_coupons_match_the_library() -> None:
    rng = np.random.default_rng(7)
    values = np.concatenate(
        [
            np.array([0, 1, -1, 2**63 - 1, -(2**63), 255, 256, 2**32, -(2**32)], np.int64),
            rng.integers(-(2**63), 2**63 - 1, 400, dtype=np.int64),
        ]
    )
    coupons = hll_hash.int_coupons(values).coupon()
    assert coupons.tolist() == [library_coupon(int(v)) for v in values]
    # other integer widths count as their int64
    small = np.array([-3, 0, 7, 127], np.int8)
    assert hll_hash.int_coupons(small).coupon().tolist() == [library_coupon(int(v)) for v in small]


def test_float_coupons_match_the_library() -> None:
    rng = np.random.default_rng(8)
    values = np.concatenate(
        [
            np.array([0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, 5e-324, 1.7976931348623157e308]),
            rng.lognormal(0.0, 20.0, 400) * rng.choice([-1.0, 1.0], 400),
        ]
    )
    coupons = hll_hash.float_coupons(values).coupon()
    assert coupons.tolist() == [library_coupon(float(v)) for v in values]
    assert coupons[0] == coupons[1], "-0.0 counts as 0.0"


@pytest.mark.parametrize("arrow_type", [pa.string(), pa.large_string()])
def test_string_coupons_match_the_library(arrow_type: pa.DataType) -> None:
    rng = np.random.default_rng(9)
    alphabet = list("ab€😀日\x00z")
    texts = ["x" * n for n in range(0, 70)] + [
        "".join(rng.choice(alphabet, int(n))) for n in rng.integers(1, 60, 300)
    ]
    array = pa.array(["skipped", *texts], arrow_type).slice(1)  # a sliced array
    coupons = hll_hash.string_coupons(array, EMPTY)
    assert coupons is not None
    expected = [library_coupon(t if t else EMPTY) for t in texts]
    assert coupons.coupon().tolist() == expected


def test_strings_beyond_the_block_limit_are_left_to_the_caller(hash_path: str) -> None:
    """The numpy hash leaves strings over its block limit to the caller; the compiled one
    hashes them as the library does."""
    long = "y" * (16 * hll_hash.MAX_STRING_BLOCKS + 16) + "é"
    coupons = hll_hash.string_coupons(pa.array(["a", long]), EMPTY)
    if hash_path == "numpy":
        assert coupons is None
    else:
        assert coupons is not None
        assert coupons.coupon().tolist() == [library_coupon("a"), library_coupon(long)]


def test_arrays_longer_than_a_block_hash_as_one_block(
    monkeypatch: pytest.MonkeyPatch, hash_path: str
) -> None:
    """Arrays are hashed HASH_BLOCK values at a time; the coupons are those of hashing the
    whole array at once, at every block boundary (a block size of 7 puts many in view)."""
    rng = np.random.default_rng(10)
    ints = rng.integers(-(2**63), 2**63 - 1, 100, dtype=np.int64)
    floats = rng.normal(0.0, 1e6, 100)
    texts = ["", *("".join(rng.choice(list("ab€z"), int(n))) for n in rng.integers(0, 40, 99))]
    strings = pa.array(["skipped", *texts]).slice(1)
    whole = (
        hll_hash.int_coupons(ints).coupon(),
        hll_hash.float_coupons(floats).coupon(),
        hll_hash.string_coupons(strings, EMPTY),
    )
    monkeypatch.setattr(hll_hash, "HASH_BLOCK", 7)
    assert hll_hash.int_coupons(ints).coupon().tolist() == whole[0].tolist()
    assert hll_hash.float_coupons(floats).coupon().tolist() == whole[1].tolist()
    blocked = hll_hash.string_coupons(strings, EMPTY)
    assert blocked is not None
    assert whole[2] is not None
    assert blocked.coupon().tolist() == whole[2].coupon().tolist()
    assert blocked.coupon().tolist() == [library_coupon(t if t else EMPTY) for t in texts]
    # a string too long for the numpy hash in a later block leaves the array to the caller
    long = "y" * (16 * hll_hash.MAX_STRING_BLOCKS + 16)
    if hash_path == "numpy":
        assert hll_hash.string_coupons(pa.array([*texts[:20], long]), EMPTY) is None


def test_ranks_count_leading_zeros_exactly() -> None:
    words = [0, 1, 2**11 - 1, 2**11, 2**12 + 5, 2**52, 2**53 - 1, 2**53, 2**63, 2**64 - 1]
    words += [2**b - 1 for b in range(1, 65)] + [2**b for b in range(64)]
    ranks = hll_hash.ranks(np.array(words, np.uint64))
    assert ranks.tolist() == [min(64 - w.bit_length(), 62) + 1 for w in words]


def _all_at_once(sketch: ds.hll_sketch, values: list[Any]) -> bytes:
    deque(map(sketch.update, values), maxlen=0)
    return bytes(sketch.serialize_updatable())


def _batches(rng: np.random.Generator) -> list[np.ndarray]:
    return [
        rng.integers(0, 30, 5_000),  # stays in list/set mode
        rng.integers(0, 300, 5_000),  # set mode, then HLL mode part-way through
        rng.integers(0, 10**12, 50_000),  # mostly distinct
        rng.integers(0, 2_000, 50_000),  # repeats of what the sketch already holds
        np.arange(10**6, 10**6 + 200_000),
    ]


def test_feeding_the_changing_values_leaves_the_sketch_as_feeding_all() -> None:
    rng = np.random.default_rng(10)
    fed, reference = new_hll(), new_hll()
    for batch in _batches(rng):
        hll_hash.feed_changing(fed, hll_hash.int_coupons(batch), lambda at, b=batch: b[at].tolist())
        assert bytes(fed.serialize_updatable()) == _all_at_once(reference, batch.tolist())
        assert fed.get_estimate() == reference.get_estimate()


def test_feeding_a_merged_sketch_matches_too() -> None:
    """A union's result (out-of-order, HLL mode) takes updates like any other sketch."""
    rng = np.random.default_rng(11)
    union = ds.hll_union(12)
    for part in (rng.integers(0, 10**9, 20_000), rng.integers(0, 10**9, 30_000)):
        sketch = new_hll()
        _all_at_once(sketch, part.tolist())
        union.update(sketch)
    fed = union.get_result(ds.tgt_hll_type.HLL_8)
    reference = union.get_result(ds.tgt_hll_type.HLL_8)
    batch = rng.integers(0, 10**9, 100_000)
    hll_hash.feed_changing(fed, hll_hash.int_coupons(batch), lambda at: batch[at].tolist())
    assert bytes(fed.serialize_updatable()) == _all_at_once(reference, batch.tolist())


def test_strings_fed_through_the_hash_match_the_library() -> None:
    rng = np.random.default_rng(12)
    texts = [f"ord-{v}" for v in rng.integers(0, 10**15, 60_000)] + ["", "é" * 40] * 50
    array = pa.array(texts)
    coupons = hll_hash.string_coupons(array, EMPTY)
    assert coupons is not None
    fed, reference = new_hll(), new_hll()

    def pick(at: np.ndarray) -> list[str]:
        return [t or EMPTY for t in array.take(pa.array(at)).to_pylist()]

    hll_hash.feed_changing(fed, coupons, pick)
    assert bytes(fed.serialize_updatable()) == _all_at_once(reference, [t or EMPTY for t in texts])


@pytest.mark.parametrize(
    "array",
    [
        pa.array(np.random.default_rng(1).integers(0, 10**6, 150_000)),
        pa.array(np.random.default_rng(2).integers(0, 50, 150_000).astype(np.uint32)),
        pa.array(np.random.default_rng(3).normal(0, 1, 150_000)),
        pa.array(np.random.default_rng(4).normal(0, 1, 150_000).astype(np.float32)),
        pa.array([f"v{i % 40_000}" for i in range(150_000)]),
        pa.array([f"v{i}" if i % 7 else "" for i in range(150_000)], pa.large_string()),
        pa.array(np.arange(150_000) * 1_000_003, pa.timestamp("us")),
        pa.array((np.arange(150_000) % 3_000).astype(np.int32)).cast(pa.date32()),
    ],
    ids=["int64", "uint32", "float64", "float32", "string", "large-string", "timestamp", "date"],
)
def test_the_profile_keeps_the_sketch_of_feeding_every_value(array: pa.Array) -> None:
    """The arrow path (hashed feed, in 65,536-row batches) against a reference state fed
    every candidate value one call each, as before the hashed feed."""
    params = SketchParams()
    state = ColumnState("c", params)
    for start in range(0, len(array), 65_536):
        update_from_arrow(state, array.slice(start, 65_536))
    reference = ColumnState("c", params)
    feed_every_value(reference, array)
    assert state.to_profile().sketches["hll"] == reference.to_profile().sketches["hll"]
    assert state.distinct() == reference.distinct()


def feed_every_value(state: ColumnState, array: pa.Array) -> None:
    """Feed ``state``'s HyperLogLog every value of ``array`` as the arrow path hands them to
    the sketch (Python ints for integers and instants, floats, texts with a stand-in for
    the empty string)."""
    from faucet_core.profile import arrow_distinct, arrow_path

    t = array.type
    if pa.types.is_temporal(t):
        values = arrow_path._instants(array)[0].to_pylist()
    elif pa.types.is_float32(t):
        values = pa.compute.cast(pa.compute.cast(array, pa.string()), pa.float64()).to_pylist()
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        values = [v or arrow_distinct.EMPTY_STRING for v in array.to_pylist()]
    else:
        values = array.to_pylist()
    state.add_distinct(values)


def _both(compute: Any) -> tuple[list[int], list[int]]:
    """``compute()``'s coupons from the compiled hash and from the numpy one."""
    assert _COMPILED is not None
    saved = hll_hash._compiled
    try:
        hll_hash._compiled = _COMPILED
        compiled = compute()
        hll_hash._compiled = None
        reference = compute()
    finally:
        hll_hash._compiled = saved
    return compiled.coupon().tolist(), reference.coupon().tolist()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    ints=st.lists(st.integers(-(2**63), 2**63 - 1), max_size=300),
    floats=st.lists(st.floats(allow_nan=False), max_size=300),
    texts=st.lists(st.text(max_size=90), max_size=300),
    skip=st.integers(0, 5),
    wide=st.booleans(),
)
def test_the_compiled_hash_agrees_with_the_numpy_one(
    hash_path: str, ints: list[int], floats: list[float], texts: list[str], skip: int, wide: bool
) -> None:
    if hash_path == "numpy":
        return  # one comparison of the two: run under the compiled parameter
    int_array, float_array = np.array(ints, np.int64), np.array(floats, np.float64)
    compiled, reference = _both(lambda: hll_hash.int_coupons(int_array))
    assert compiled == reference
    compiled, reference = _both(lambda: hll_hash.float_coupons(float_array))
    assert compiled == reference
    strings = pa.array(["s"] * skip + texts, pa.large_string() if wide else pa.string())
    compiled, reference = _both(lambda: hll_hash.string_coupons(strings.slice(skip), EMPTY))
    assert compiled == reference


def test_the_compiled_hash_refuses_buffers_that_do_not_fit(hash_path: str) -> None:
    """Offsets past the text, falling offsets and outputs of the wrong size raise, naming
    what is wrong, and write nothing outside the buffers given."""
    if hash_path == "numpy":
        return
    assert _COMPILED is not None
    address, rank = np.zeros(2, np.uint32), np.zeros(2, np.uint8)
    with pytest.raises(ValueError, match="outside the 3 bytes of text"):
        _COMPILED.strings(np.array([0, 2, 9], np.int32), False, b"abc", b"", address, rank)
    with pytest.raises(ValueError, match="string 1's offsets"):
        _COMPILED.strings(np.array([0, 2, 1], np.int64), True, b"abc", b"", address, rank)
    with pytest.raises(ValueError, match="hold 3 uint32 addresses"):
        _COMPILED.words(np.zeros(3, np.uint64), False, address, rank)
    with pytest.raises(ValueError, match="8-byte keys"):
        _COMPILED.words(b"abc", False, address, rank)
    with pytest.raises(TypeError):
        _COMPILED.words(np.zeros(2, np.uint64), False, b"read-only", rank)
