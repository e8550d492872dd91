"""Benchmark 1: profiling throughput on a mixed 1,000,000-row x 10-column table.

Profiles the same seeded data (see ``_common.COLUMNS_DOC``) as a pyarrow Table, a
pandas DataFrame (default string dtype, and object-dtype strings) and a polars
DataFrame, next to whylogs 1.6 ``why.log(df)`` on pandas (run in its own virtualenv
as a subprocess, the data handed over as Parquet), polars ``describe()`` + ``n_unique()``
on one thread (``POLARS_MAX_THREADS=1``, set before polars is imported) and two
bare-pyarrow floors.
Only the profiling call is timed; data is built and converted beforehand. The
contestants run in interleaved rounds (each once per round), so that other load on a
shared machine slows all of them alike; wall and process CPU time are both reported.

    .venv/bin/python benchmarks/profile_throughput.py [--rows N] [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import os

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # the polars peer runs on one thread
import statistics
import subprocess
import time
from collections.abc import Callable
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from _common import (
    BENCH_DIR,
    COLUMNS_DOC,
    DATA_DIR,
    Timing,
    markdown_table,
    mixed_table,
    print_machine,
    rate,
    time_once,
)

import faucet_core

WHYLOGS_PYTHON = BENCH_DIR / ".venv-whylogs" / "bin" / "python"
TARGET_RATIO = 10.0
WHYLOGS_GOAL = 40.0
"""Issue 26: the pyarrow Table at least this many times faster than whylogs (CPU and wall)."""
POLARS_GOAL = 1.5
"""Issue 26: the pyarrow Table's CPU at most this many times polars describe + n_unique's."""
POLARS_LABEL = "polars `describe()` + `n_unique()`, 1 thread"
ONE_THREAD_LABEL = "faucet, pyarrow Table, 1 thread (`threads=1`)"


def floor_scan(table: pa.Table) -> None:
    """Floor A: one vectorised min/max pass per column (null counts are free metadata)."""
    for column in table.columns:
        _ = column.null_count
        pc.min_max(column)


def polars_describe(df: Any) -> None:
    """The polars peer: ``describe()`` (count, nulls, mean, std, min, quartiles, max) plus an
    exact distinct count per column."""
    import polars as pl

    df.describe()
    df.select(pl.all().n_unique())


def floor_scan_distinct(table: pa.Table) -> None:
    """Floor B: floor A plus one hash pass per column for the exact distinct count."""
    for column in table.columns:
        _ = column.null_count
        pc.min_max(column)
        len(pc.unique(column))


class WhylogsWorker:
    """``whylogs_worker.py`` in the whylogs virtualenv, kept alive to interleave runs."""

    def __init__(self, parquet: str) -> None:
        env = {**os.environ, "WHYLOGS_NO_ANALYTICS": "True"}
        env.pop("VIRTUAL_ENV", None)
        self.process = subprocess.Popen(
            [str(WHYLOGS_PYTHON), str(BENCH_DIR / "whylogs_worker.py"), parquet],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.hello: dict[str, Any] = self._read()

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"whylogs worker exited ({self.process.wait()}); see stderr above")
        return json.loads(line)

    def run(self) -> tuple[float, float]:
        assert self.process.stdin is not None
        self.process.stdin.write("run\n")
        self.process.stdin.flush()
        answer = self._read()
        return answer["wall"], answer["cpu"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-whylogs", action="store_true")
    args = parser.parse_args()
    rows, repeats = args.rows, args.repeats

    start = time.perf_counter()
    table = mixed_table(rows)
    DATA_DIR.mkdir(exist_ok=True)
    parquet = DATA_DIR / f"mixed_{rows}.parquet"
    pq.write_table(table, parquet)
    df = table.to_pandas()
    strings = [name for name in df.columns if str(df[name].dtype) in ("str", "string")]
    df_object = df.astype(dict.fromkeys(strings, object))
    frames: list[tuple[str, Any]] = [
        ("pyarrow Table", table),
        (f"pandas DataFrame (strings as `{df[strings[0]].dtype}`)", df),
        ("pandas DataFrame (strings as `object`)", df_object),
    ]
    try:
        import polars as pl

        frames.append(("polars DataFrame", pl.from_arrow(table)))
    except ImportError:
        pass
    took = time.perf_counter() - start
    print(f"generated {rows:,} rows x {table.num_columns} columns in {took:.1f} s")

    # Contestants, each (label, one timed run). Rounds interleave them, so that other work
    # on a shared machine slows every contestant alike instead of one of them.
    contestants: list[tuple[str, Callable[[], tuple[float, float]]]] = []
    small = table.slice(0, 10_000)
    faucet_core.profile(small)  # warm-up: lazy imports
    for label, data in frames:
        faucet_core.profile(data.slice(0, 10_000) if label == "pyarrow Table" else data[:10_000])
        contestants.append(
            (f"faucet, {label}", lambda data=data: time_once(lambda: faucet_core.profile(data)))
        )
    one_thread = ONE_THREAD_LABEL
    contestants.append(
        (one_thread, lambda: time_once(lambda: faucet_core.profile(table, threads=1)))
    )
    polars_frame = next((data for label, data in frames if label == "polars DataFrame"), None)
    if polars_frame is not None:
        polars_describe(polars_frame.slice(0, 10_000))
        contestants.append((POLARS_LABEL, lambda: time_once(lambda: polars_describe(polars_frame))))
    contestants.append(
        ("floor A: bare pyarrow `min_max` per column", lambda: time_once(lambda: floor_scan(table)))
    )
    contestants.append(
        (
            "floor B: floor A + exact distinct (`pc.unique`)",
            lambda: time_once(lambda: floor_scan_distinct(table)),
        )
    )
    worker = None
    if args.skip_whylogs:
        pass
    elif not WHYLOGS_PYTHON.exists():
        print(f"(whylogs skipped: {WHYLOGS_PYTHON} not found; see benchmarks/README.md)")
    else:
        worker = WhylogsWorker(str(parquet))
        contestants.append(
            ("whylogs `why.log(df)`, pandas DataFrame (strings as `object`)", worker.run)
        )

    runs: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in contestants}
    for number, (label, _) in enumerate(contestants, 1):
        print(f"[{number}] {label}")
    for round_ in range(repeats):
        for label, run in contestants:
            runs[label].append(run())
        walls = [f"[{n}] {runs[label][-1][0]:.2f}" for n, (label, _) in enumerate(contestants, 1)]
        print(f"round {round_ + 1}/{repeats}, wall s: {', '.join(walls)}", flush=True)
    if worker is not None:
        worker.close()
    results = [
        (label, Timing(tuple(w for w, _ in r), tuple(c for _, c in r))) for label, r in runs.items()
    ]

    # -- report -----------------------------------------------------------------------------
    print()
    print(
        f"### Throughput: {rows:,} rows x {table.num_columns} columns, {repeats} interleaved rounds"
    )
    print()
    header = [
        "input",
        "best s",
        "median s",
        "CPU s (best)",
        "CPU s (median)",
        "rows/s (best)",
        "rows/s (median)",
    ]
    wl = results[-1][1] if worker is not None else None
    if wl is not None:
        header += ["vs whylogs (best)", "vs whylogs (median)", "vs whylogs (CPU)"]
    body = []
    for label, timing in results:
        row = [
            label,
            f"{timing.best:.3f}",
            f"{timing.median:.3f}",
            f"{timing.best_cpu:.3f}",
            f"{statistics.median(timing.cpu):.3f}",
            rate(rows, timing.best),
            rate(rows, timing.median),
        ]
        if wl is not None:
            row += [
                f"{wl.best / timing.best:.1f}x",
                f"{wl.median / timing.median:.1f}x",
                f"{wl.best_cpu / timing.best_cpu:.1f}x",
            ]
        body.append(row)
    print(markdown_table(header, body))
    print()
    by_label = dict(results)
    table_timing = by_label["faucet, pyarrow Table"]
    if wl is not None:
        wall = wl.median / table_timing.median
        cpu = statistics.median(wl.cpu) / statistics.median(table_timing.cpu)
        verdict = "meets" if min(wall, cpu) >= WHYLOGS_GOAL else "MISSES"
        print(
            f"Goal 1a, pyarrow Table vs whylogs (medians): **{wall:.1f}x** wall, **{cpu:.1f}x** "
            f"CPU ({verdict} the {WHYLOGS_GOAL:.0f}x goal)."
        )
        print()
    if POLARS_LABEL in by_label:
        peer = by_label[POLARS_LABEL]
        cpu = statistics.median(table_timing.cpu) / statistics.median(peer.cpu)
        best = table_timing.best_cpu / peer.best_cpu
        verdict = "meets" if cpu <= POLARS_GOAL else "MISSES"
        print(
            f"Goal 1b, pyarrow Table CPU / polars describe + n_unique CPU: **{cpu:.2f}x** "
            f"(medians), {best:.2f}x (bests) ({verdict} the <= {POLARS_GOAL}x goal)."
        )
        print()
    if wl is not None and worker is not None:
        faucet_pandas = results[1][1]
        best, median = wl.best / faucet_pandas.best, wl.median / faucet_pandas.median
        cpu = wl.best_cpu / faucet_pandas.best_cpu
        verdict = "meets" if min(best, median) >= TARGET_RATIO else "MISSES"
        print(
            f"faucet (pandas) / whylogs (pandas) throughput: **{best:.1f}x** best vs best, "
            f"**{median:.1f}x** median vs median, {cpu:.1f}x by CPU time ({verdict} the "
            f"{TARGET_RATIO:.0f}x target)."
        )
        print()
        hello = worker.hello
        print(
            f"whylogs side: {', '.join(f'{k} {v}' for k, v in hello['versions'].items())}, "
            f"Python {hello['python']}; {hello['columns_profiled']} columns profiled; "
            f"dtypes {hello['dtypes']}"
        )
        print()
    print("faucet side dtypes (pandas):", {c: str(t) for c, t in df.dtypes.items()})
    print()
    print("Columns:")
    print()
    print(COLUMNS_DOC)
    print_machine()


if __name__ == "__main__":
    main()
