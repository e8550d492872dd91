"""Peak memory profiling Parquet files of 1M and 10M rows, beside DuckDB's SUMMARIZE.

Each contestant runs in a fresh process, interleaved (faucet, DuckDB, faucet, DuckDB...),
on the same file; peak RSS is ``VmHWM`` at the end of the run (imports included, as a user
sees it). Two layouts of the 10-column mixed table of benchmark 1: 65,536-row row groups
(a ``ParquetWriter`` fed batch by batch) and 1,048,576-row row groups (``write_table``'s
default). DuckDB runs with ``threads=1``.

    .venv/bin/python benchmarks/parquet_memory.py [--rows 1000000,10000000] [--repeats 1]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from _common import (
    DATA_DIR,
    markdown_table,
    mixed_batch,
    mixed_batches,
    peak_child,
    print_machine,
)

_CHILD = peak_child(
    """
if kind == "faucet":
    from faucet_core.profile.files import profile_file
    profile_file(path)
else:
    import duckdb
    con = duckdb.connect()
    con.execute("SET threads = 1")
    con.execute(f"SUMMARIZE SELECT * FROM read_parquet('{path}')").fetchall()
"""
)


def parquet_file(rows: int, group_rows: int) -> Path:
    path = DATA_DIR / f"mixed_{rows}_rg{group_rows}.parquet"
    if path.exists():
        return path
    DATA_DIR.mkdir(exist_ok=True)
    with pq.ParquetWriter(path, mixed_batch(1).schema) as writer:
        pending: list[pa.RecordBatch] = []
        held = 0
        for batch in mixed_batches(rows):
            pending.append(batch)
            held += batch.num_rows
            if held >= group_rows:
                writer.write_table(pa.Table.from_batches(pending), row_group_size=group_rows)
                pending, held = [], 0
        if pending:
            writer.write_table(pa.Table.from_batches(pending), row_group_size=group_rows)
    return path


def run(kind: str, path: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, kind, str(path)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1000000,10000000")
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    sizes = [int(r) for r in args.rows.split(",")]
    body = []
    for group_rows in (65_536, 1_048_576):
        faucet_peaks: dict[int, float] = {}
        for rows in sizes:
            path = parquet_file(rows, group_rows)
            best: dict[str, dict[str, float]] = {}
            for _ in range(args.repeats):
                for kind in ("faucet", "duckdb"):
                    r = run(kind, path)
                    if kind not in best or r["peak"] < best[kind]["peak"]:
                        best[kind] = r
            f, d = best["faucet"], best["duckdb"]
            faucet_peaks[rows] = f["peak"]
            body.append(
                [
                    f"{group_rows:,}",
                    f"{rows:,}",
                    f"{f['peak']:.1f}",
                    f"{d['peak']:.1f}",
                    f"{f['peak'] / d['peak']:.2f}x",
                    f"{f['peak'] / faucet_peaks[sizes[0]]:.2f}x",
                    f"{f['cpu']:.1f} / {f['wall']:.1f}",
                    f"{d['cpu']:.1f} / {d['wall']:.1f}",
                ]
            )
            print(" | ".join(body[-1]), flush=True)
    print()
    header = [
        "row group rows",
        "rows",
        "faucet peak RSS MiB",
        "DuckDB SUMMARIZE peak RSS MiB",
        "faucet / DuckDB",
        f"faucet vs {sizes[0]:,} rows",
        "faucet CPU / wall s",
        "DuckDB CPU / wall s",
    ]
    print(markdown_table(header, body))
    print()
    print_machine()


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"\n({time.perf_counter() - start:.0f} s)")
