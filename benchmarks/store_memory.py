"""What the detector's memory costs the store: runs kept past the window, read on a finding.

For each backend (an SQLite file; PostgreSQL when ``FAUCET_BENCH_POSTGRES_URL`` is set),
two stores side by side, their calls interleaved: ``memory: 0`` (no memory) and the
default ``memory: 365``. Each records ``--keys`` keys x ``--runs`` runs of a 10-column
profile (window 20, so every run after the 20th pushes one into the memory), then one
run per key whose null rate jumps (a finding, so the memory is read).

Reported: the median and p95 ``record`` time of the runs past the window (the memory's
write: one profile decoded, stripped of its sketches and inserted), of the runs with a
finding (the memory's read), and the bytes a remembered run takes per column.

Run: ``.venv/bin/python benchmarks/store_memory.py [--keys N] [--runs R]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, markdown_table, mixed_table

from faucet_core import ProfilingConfig, profile
from faucet_core.store import ProfileStore

CONFIGS = {"memory 0": ProfilingConfig(memory=0), "memory 365": ProfilingConfig()}


def _profiles(runs: int, rows: int) -> tuple[list, object]:
    table = mixed_table(rows * runs)
    days = [profile(table.slice(i * rows, rows)) for i in range(runs)]
    day = table.slice(0, rows)
    first = day.column_names[0]
    nulls = pc.if_else(pa.array([i % 2 == 0 for i in range(rows)]), None, day.column(first))
    return days, profile(day.set_column(0, first, nulls))


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"{statistics.median(values) * 1000:.1f} / {p95 * 1000:.1f}"


def _bench(urls: dict[str, str], keys: int, runs: int, days: list, faulty) -> list[list[str]]:
    past: dict[str, list[float]] = {name: [] for name in urls}
    found: dict[str, list[float]] = {name: [] for name in urls}
    with ExitStack() as stack:
        stores = {name: stack.enter_context(ProfileStore(url)) for name, url in urls.items()}
        for run in range(runs):
            for k in range(keys):
                for name, store in stores.items():
                    t = time.perf_counter()
                    store.record(f"asset_{k}", days[run], CONFIGS[name], run_id=f"r{run}")
                    if run >= 20:
                        past[name].append(time.perf_counter() - t)
        for k in range(keys):
            for name, store in stores.items():
                t = time.perf_counter()
                out = store.record(f"asset_{k}", faulty, CONFIGS[name], run_id="fault")
                found[name].append(time.perf_counter() - t)
                assert out.findings, "the faulty run must be a finding"
        sizes = {}
        for name, store in stores.items():
            with store.engine.connect() as conn:
                blobs = [
                    len(r[0])
                    for r in conn.execute(text("SELECT profile FROM faucet_profile_memory"))
                ]
            sizes[name] = blobs
    columns = len(days[0].columns)
    rows = []
    for name in urls:
        blobs = sizes[name]
        size = (
            f"{len(blobs):,} runs, {statistics.median(blobs) / columns:,.0f} B per column"
            if blobs
            else "none"
        )
        rows.append([name, _ms(past[name]), _ms(found[name]), size])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=50)
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--rows", type=int, default=2_000)
    args = parser.parse_args()
    days, faulty = _profiles(args.runs, args.rows)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        urls = {name: f"sqlite:///{tmp}/{i}.db" for i, name in enumerate(CONFIGS)}
        out += [["SQLite file", *r] for r in _bench(urls, args.keys, args.runs, days, faulty)]
    pg = os.environ.get("FAUCET_BENCH_POSTGRES_URL")
    if pg:
        schemas = {name: f"bench_{uuid.uuid4().hex[:8]}" for name in CONFIGS}
        admin = create_engine(pg, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            for schema in schemas.values():
                conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            urls = {n: f"{pg}?options=-csearch_path%3D{s}" for n, s in schemas.items()}
            rows = _bench(urls, args.keys, args.runs, days, faulty)
            out += [["PostgreSQL", *r] for r in rows]
        finally:
            with admin.connect() as conn:
                for schema in schemas.values():
                    conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    print(
        f"## The detector's memory: {args.keys} keys x {args.runs} runs, "
        f"{len(days[0].columns)}-column profiles, window 20\n"
    )
    headers = [
        "backend",
        "setting",
        "record past the window, median / p95 ms",
        "record with a finding, median / p95 ms",
        "remembered",
    ]
    print(markdown_table(headers, out))
    print("\n" + machine_info())


if __name__ == "__main__":
    main()
