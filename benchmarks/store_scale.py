"""What the profile store costs: recording and loading baselines for 1,000 keys.

For each backend (an SQLite file; PostgreSQL when ``FAUCET_BENCH_POSTGRES_URL`` is set):

* record: 1,000 keys x 6 runs of a 10-column profile (warming, then compared with the
  baseline and recorded, pruning included), one ``ProfileStore.record`` call each;
* load: ``ProfileStore.baseline(key)`` for each of the 1,000 keys (6 profiles each);
* size: bytes one run takes in ``faucet_profile_runs.profile`` (zlib-compressed JSON with
  the sketches), per column.

Run: ``.venv/bin/python benchmarks/store_scale.py [--keys N] [--runs R]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, markdown_table, mixed_table

from faucet_core import ProfilingConfig, profile
from faucet_core.store import ProfileStore

CFG = ProfilingConfig(min_history=5, window=20)


def _profiles(runs: int, rows: int) -> list:
    table = mixed_table(rows)
    return [profile(table.slice(i * (rows // runs), rows // runs), CFG) for i in range(runs)]


def _bench(url: str, keys: int, runs: int, profiles: list) -> list[str]:
    with ProfileStore(url) as store:
        started = time.perf_counter()
        per_call = []
        for run in range(runs):
            for k in range(keys):
                t = time.perf_counter()
                store.record(f"asset_{k}", profiles[run], CFG, run_id=f"r{run}")
                per_call.append(time.perf_counter() - t)
        record_s = time.perf_counter() - started
        started = time.perf_counter()
        loaded = sum(len(store.baseline(f"asset_{k}")) for k in range(keys))
        load_s = time.perf_counter() - started
        with store.engine.connect() as conn:
            sizes = [
                len(r[0]) for r in conn.execute(text("SELECT profile FROM faucet_profile_runs"))
            ]
    assert loaded == keys * runs
    columns = len(profiles[0].columns)
    return [
        f"{keys * runs:,} records in {record_s:.1f} s ({keys * runs / record_s:,.0f}/s; "
        f"median {statistics.median(per_call) * 1000:.1f} ms, p95 "
        f"{sorted(per_call)[int(len(per_call) * 0.95)] * 1000:.1f} ms)",
        f"{keys:,} baselines ({loaded:,} profiles) in {load_s:.2f} s "
        f"({load_s / keys * 1000:.2f} ms per key)",
        f"{statistics.median(sizes) / columns:,.0f} B per column per run "
        f"({statistics.median(sizes):,.0f} B per 10-column run)",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--rows", type=int, default=60_000)
    args = parser.parse_args()
    profiles = _profiles(args.runs, args.rows)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows.append(
            ["SQLite file", *_bench(f"sqlite:///{tmp}/f.db", args.keys, args.runs, profiles)]
        )
    pg = os.environ.get("FAUCET_BENCH_POSTGRES_URL")
    if pg:
        schema = f"bench_{uuid.uuid4().hex[:8]}"
        admin = create_engine(pg, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            url = f"{pg}?options=-csearch_path%3D{schema}"
            rows.append(["PostgreSQL 15", *_bench(url, args.keys, args.runs, profiles)])
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    print(f"## Profile store: {args.keys:,} keys x {args.runs} runs, 10-column profiles\n")
    print(markdown_table(["backend", "record", "load baselines", "stored size"], rows))
    print("\n" + machine_info())


if __name__ == "__main__":
    main()
