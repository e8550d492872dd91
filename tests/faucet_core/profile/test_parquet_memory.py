"""Streaming a Parquet file holds one row group at a time: peak memory does not grow with
the file.

Each file is profiled in a fresh Python process (so that its peak resident set is its own);
the child reports the peak of Arrow's memory pool (where pre-buffered or read-ahead column
chunks live) and its peak resident set (``VmHWM``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

_GROUP_ROWS = 4_096
_CHILD = """
import json, sys
import pyarrow as pa
from faucet_core.profile.files import profile_file

def hwm():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM"):
                return int(line.split()[1]) * 1024
    return 0

profile_file(sys.argv[2])  # warm-up: every import and kernel the run touches
before = hwm()
prof = profile_file(sys.argv[1])
print(json.dumps({"rows": prof.row_count, "pool": pa.default_memory_pool().max_memory(),
                  "hwm_growth": hwm() - before}))
"""


def _write(path: Path, rows: int) -> Path:
    """``rows`` rows of incompressible data (random text, floats, integers) in row groups of
    :data:`_GROUP_ROWS` rows."""
    with pq.ParquetWriter(path, _schema()) as writer:
        for start in range(0, rows, _GROUP_ROWS):
            n = min(_GROUP_ROWS, rows - start)
            rng = np.random.default_rng(start)
            text = rng.integers(0, 2**62, n).astype(str)
            batch = pa.record_batch(
                [pa.array(text), pa.array(rng.normal(size=n)), pa.array(rng.integers(0, n, n))],
                schema=_schema(),
            )
            writer.write_batch(batch, row_group_size=_GROUP_ROWS)
    return path


def _schema() -> pa.Schema:
    return pa.schema([("s", pa.string()), ("x", pa.float64()), ("n", pa.int64())])


def _measure(path: Path, warm: Path) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), str(warm)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, int], dict[str, int]]:
    folder = tmp_path_factory.mktemp("parquet-memory")
    warm = _write(folder / "warm.parquet", 1_000)
    small = _write(folder / "small.parquet", 8 * _GROUP_ROWS)
    large = _write(folder / "large.parquet", 80 * _GROUP_ROWS)  # about 12 MB of data
    return _measure(small, warm), _measure(large, warm)


def test_arrow_memory_does_not_grow_with_the_file(
    measured: tuple[dict[str, int], dict[str, int]],
) -> None:
    small, large = measured
    assert (small["rows"], large["rows"]) == (8 * _GROUP_ROWS, 80 * _GROUP_ROWS)
    # ten times the rows; a reader that pre-buffers or reads ahead holds ~10x the bytes
    assert large["pool"] <= 1.5 * small["pool"] + (1 << 20), (small, large)


def test_resident_memory_does_not_grow_with_the_file(
    measured: tuple[dict[str, int], dict[str, int]],
) -> None:
    small, large = measured
    # the large file holds ~11 MB more data than the small one: none of it may stay resident
    assert large["hwm_growth"] <= small["hwm_growth"] + (4 << 20), (small, large)
