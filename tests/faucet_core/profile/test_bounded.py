"""Memory per column does not grow with the row count: the sketches are bounded."""

from __future__ import annotations

import base64

import numpy as np
import pyarrow as pa
import pytest

from faucet_core import TableProfile, profile


def _profile(rows: int) -> TableProfile:
    rng = np.random.default_rng(rows)
    return profile(
        pa.table(
            {
                "uid": pa.array([f"user-{i:012d}" for i in range(rows)]),
                "x": rng.normal(size=rows),
                "n": np.arange(rows),
            }
        )
    )


@pytest.fixture(scope="module")
def small() -> TableProfile:
    return _profile(10_000)


@pytest.fixture(scope="module")
def large() -> TableProfile:
    return _profile(1_000_000)


def _sketch_bytes(prof: TableProfile, column: str) -> int:
    sketches = prof[column].sketches
    return sum(len(base64.b64decode(sketches[k])) for k in ("hll", "kll", "freq") if sketches[k])


def test_serialized_size_does_not_grow_with_rows(small: TableProfile, large: TableProfile) -> None:
    assert large.row_count == 100 * small.row_count
    assert abs(len(large.to_json()) - len(small.to_json())) <= 2048
    assert len(large.to_json()) < 40_000


@pytest.mark.parametrize(
    ("column", "limit"),
    [("uid", 4200), ("x", 12_288), ("n", 12_288)],
    ids=["unique-strings", "floats", "integers"],
)
def test_each_column_sketch_is_bounded(
    small: TableProfile, large: TableProfile, column: str, limit: int
) -> None:
    # HyperLogLog: 4 KiB at lg_k 12; KLL: about 1,000 doubles at k 200; no frequent-items sketch
    # once the column is high-cardinality
    assert _sketch_bytes(large, column) <= limit
    assert abs(_sketch_bytes(large, column) - _sketch_bytes(small, column)) <= 1024
    assert large[column].high_cardinality is True
    assert large[column].sketches["freq"] is None


def test_a_low_cardinality_column_stays_small_at_any_size() -> None:
    sizes = [
        len(profile(pa.table({"s": pa.array(["a", "b", "c"] * (rows // 3))})).to_json())
        for rows in (3_000, 3_000_000)
    ]
    assert abs(sizes[1] - sizes[0]) <= 64  # only the digits of the counts grow
