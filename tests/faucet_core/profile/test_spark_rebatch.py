"""A Spark task joins Spark's small Arrow batches before profiling them (no pyspark here:
the task function runs on plain batches)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from faucet_core import ProfilingConfig, profile
from faucet_core.profile import TableProfile
from faucet_core.profile.spark import _rebatched, partial_profiles


def _batch(start: int, rows: int) -> pa.RecordBatch:
    ids = np.arange(start, start + rows)
    return pa.RecordBatch.from_arrays(
        [pa.array(ids), pa.array([f"v{i % 7}" for i in ids], pa.string())], names=["id", "v"]
    )


def test_batches_are_joined_in_order_without_losing_rows() -> None:
    sizes = [10_000, 3_000, 0, 70_000, 10_000, 10_000, 5]
    starts = np.cumsum([0, *sizes[:-1]])
    batches = [_batch(int(s), n) for s, n in zip(starts, sizes, strict=True)]
    out = list(_rebatched(iter(batches), 20_000))
    assert [b.num_rows for b in out] == [20_000] * 5 + [3_005]
    ids = np.concatenate([b.column(0).to_numpy() for b in out])
    assert ids.tolist() == list(range(sum(sizes)))
    assert all(b.schema == batches[0].schema for b in out)


def test_a_batch_of_the_size_passes_as_it_is_and_a_larger_one_is_cut() -> None:
    exact = _batch(0, 65_536)
    assert list(_rebatched(iter([exact]), 65_536)) == [exact]
    assert [b.num_rows for b in _rebatched(iter([_batch(0, 100_000)]), 65_536)] == [
        65_536,
        34_464,
    ]
    assert list(_rebatched(iter([]), 65_536)) == []


def test_a_partition_of_small_batches_profiles_as_one_pass() -> None:
    batches = [_batch(i * 10_000, 10_000) for i in range(20)]
    out = list(partial_profiles(ProfilingConfig(), {}, iter(batches)))
    partial = TableProfile.from_json(out[0].column(0)[0].as_py())
    whole = profile(pa.Table.from_batches(batches))
    assert partial.row_count == 200_000
    # p50/p95 aside (the KLL sketch is randomized); the moments to float precision (the
    # batches are combined in another grouping)
    mine, theirs = partial["id"].to_dict(sketches=False), whole["id"].to_dict(sketches=False)
    for key in ("mean", "stddev"):
        assert mine["numeric"].pop(key) == pytest.approx(theirs["numeric"].pop(key), rel=1e-9)
    for key in ("p50", "p95"):  # within 3% of the rows' ranks (the KLL error is 1.33%)
        assert mine["numeric"].pop(key) == pytest.approx(theirs["numeric"].pop(key), abs=6_000)
    assert mine == theirs
    assert partial["v"].to_dict(sketches=False) == whole["v"].to_dict(sketches=False)
