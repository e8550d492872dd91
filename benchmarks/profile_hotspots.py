"""Where the profiler's time goes, on the 1,000,000-row mixed table as a pandas DataFrame.

Diagnostics, not a pass/fail benchmark. Prints:

1. cProfile's top functions (by own time) of ``faucet_core.profile(df)``, and who
   calls the HyperLogLog feed;
2. the same run split by stage: each pyarrow compute kernel, the sketch feeds
   (``ColumnState.add_distinct`` / ``add_numbers`` / ``add_counts``), pandas -> Arrow,
   and the rest (Python glue, including ``to_pylist`` / ``tolist`` of the uniques);
3. the cost of each column profiled alone (pyarrow Table);
4. per-value costs of the primitives involved (1,000,000 values each);
5. a what-if: the Arrow batch size (``profiler.ARROW_BATCH_ROWS``) at 16k..1M rows;
6. cProfile's top functions on the records path (200,000 dicts).

Stage timing wraps functions in this process only; nothing in ``faucet_core`` is edited.

    .venv/bin/python benchmarks/profile_hotspots.py [--rows N]
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import functools
import os
import pstats
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import datasketches as ds
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from _common import markdown_table, mixed_table, print_machine

import faucet_core
from faucet_core.profile import frames, profiler, state

KERNELS_ALWAYS = ("cast", "drop_null", "unique", "value_counts")
"""Kernels reached through Array methods (``arr.cast()``, ``arr.drop_null()``) or always used."""


def kernels_used() -> list[str]:
    """The ``pc.<name>(`` calls in faucet_core/profile, found in the source (so the list
    follows the code), plus :data:`KERNELS_ALWAYS`."""
    folder = Path(state.__file__).parent
    names = set(KERNELS_ALWAYS)
    for source in folder.glob("*.py"):
        names.update(re.findall(r"\bpc\.([a-z_0-9]+)\(", source.read_text(encoding="utf-8")))
    return sorted(n for n in names if callable(getattr(pc, n, None)))


STATE_METHODS = ("add_distinct", "add_numbers", "add_counts", "add_lengths")


def best_of(fn: Callable[[], Any], repeats: int = 3) -> float:
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


# -- 1. cProfile ----------------------------------------------------------------------------
def cprofile_top(fn: Callable[[], Any], top: int) -> tuple[float, list[list[str]], pstats.Stats]:
    prof = cProfile.Profile()
    start = time.perf_counter()
    prof.runcall(fn)
    wall = time.perf_counter() - start
    stats = pstats.Stats(prof)
    rows = []
    entries = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)  # type: ignore[attr-defined]
    for (filename, line, name), (_cc, calls, tottime, cumtime, _callers) in entries[:top]:
        where = _short_path(filename)
        label = f"`{name}`" if filename == "~" else f"`{where}:{line}({name})`"
        rows.append([label, f"{calls:,}", f"{tottime:.3f}", f"{cumtime:.3f}"])
    return wall, rows, stats


def _short_path(filename: str) -> str:
    for marker in ("faucet_core/", "site-packages/"):
        if marker in filename:
            return (
                filename.split(marker, 1)[1]
                if marker == "site-packages/"
                else (marker + filename.split(marker, 1)[1])
            )
    return os.path.basename(filename)


def callers_of(stats: pstats.Stats, func_name: str) -> list[list[str]]:
    rows = []
    for (_f, _l, name), (_cc, _nc, _tt, _ct, callers) in stats.stats.items():  # type: ignore[attr-defined]
        if name != func_name:
            continue
        for (cf, cl, cname), (_c1, ncalls, tt, _ct) in sorted(
            callers.items(), key=lambda kv: kv[1][3], reverse=True
        ):
            rows.append([f"`{_short_path(cf)}:{cl}({cname})`", f"{ncalls:,}", f"{tt:.3f}"])
    return rows


# -- 2. stages ------------------------------------------------------------------------------
@contextmanager
def stage_timers() -> Iterator[dict[str, list[float]]]:
    """Wrap pyarrow kernels and ColumnState feeds with timers (this process only)."""
    spent: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0])
    undo: list[tuple[Any, str, Any]] = []

    def wrap(owner: Any, attr: str, label: str) -> None:
        original = getattr(owner, attr, None)
        if original is None:
            return

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                cell = spent[label]
                cell[0] += time.perf_counter() - start
                cell[1] += 1

        setattr(owner, attr, timed)
        undo.append((owner, attr, original))

    for kernel in kernels_used():
        wrap(pc, kernel, f"pyarrow `pc.{kernel}`")
    labels = {
        "add_distinct": "HyperLogLog feed `ColumnState.add_distinct` (1 Python call per value)",
        "add_numbers": "moments + KLL `ColumnState.add_numbers`",
        "add_counts": "frequent items `ColumnState.add_counts`",
        "add_lengths": "string lengths `ColumnState.add_lengths`",
    }
    for method in STATE_METHODS:
        wrap(state.ColumnState, method, labels[method])
    wrap(frames, "_pandas_column", "pandas -> Arrow `pa.array(series, from_pandas=True)`")
    try:
        yield spent
    finally:
        for owner, attr, original in reversed(undo):
            setattr(owner, attr, original)


def stage_table(fn: Callable[[], Any], repeats: int = 3) -> tuple[float, list[list[str]]]:
    """The stages of the fastest of ``repeats`` timed runs (the least disturbed one)."""
    fn()  # warm
    wall = float("inf")
    spent: dict[str, list[float]] = {}
    for _ in range(repeats):
        with stage_timers() as run_spent:
            start = time.perf_counter()
            fn()
            run_wall = time.perf_counter() - start
        if run_wall < wall:
            wall, spent = run_wall, dict(run_spent)
    rows = []
    accounted = 0.0
    for label, (seconds, calls) in sorted(spent.items(), key=lambda kv: -kv[1][0]):
        accounted += seconds
        rows.append([label, f"{calls:,}", f"{seconds:.3f}", f"{seconds / wall:.0%}"])
    rest = wall - accounted
    rows.append(
        [
            "rest: Python glue, `to_pylist()` / `tolist()` of uniques, slicing",
            "",
            f"{rest:.3f}",
            f"{rest / wall:.0%}",
        ]
    )
    rows.append(["**total (wall)**", "", f"{wall:.3f}", "100%"])
    return wall, rows


# -- 4. per-value costs ---------------------------------------------------------------------
def per_value_costs(n: int = 1_000_000) -> list[list[str]]:
    rng = np.random.default_rng(7)
    ints = pa.array(rng.permutation(n).astype(np.int64))
    floats = pa.array(rng.random(n))
    strings = pc.binary_join_element_wise("ord-", pc.cast(ints, pa.string()), "")
    lowcard = pa.array(np.array(["DE", "FR", "US", "GB", "NL", "ES"])[rng.integers(0, 6, n)])
    py_ints, py_floats, py_strs = ints.to_pylist(), floats.to_pylist(), strings.to_pylist()
    kll_input = floats.to_numpy().copy()

    def hll_loop(values: list[Any]) -> Callable[[], None]:
        def run() -> None:
            update = ds.hll_sketch(12, ds.tgt_hll_type.HLL_8).update
            for _ in map(update, values):
                pass

        return run

    def hll_deque(values: list[Any]) -> Callable[[], None]:
        def run() -> None:
            update = ds.hll_sketch(12, ds.tgt_hll_type.HLL_8).update
            collections.deque(map(update, values), maxlen=0)

        return run

    def call_floor() -> None:
        for _ in map(id, py_ints):
            pass

    def kll_batches() -> None:
        sketch = ds.kll_doubles_sketch(200)
        for offset in range(0, n, 65_536):
            sketch.update(kll_input[offset : offset + 65_536])

    cases: list[tuple[str, Callable[[], Any]]] = [
        ("Python call floor: `for _ in map(id, ints)`", call_floor),
        ("`hll.update(int)`, `for _ in map(...)` (as in state.py)", hll_loop(py_ints)),
        ("`hll.update(float)`, same loop", hll_loop(py_floats)),
        ("`hll.update(str)`, same loop", hll_loop(py_strs)),
        ("`hll.update(int)`, `deque(map(...), maxlen=0)`", hll_deque(py_ints)),
        ("`hll.update(str)`, `deque(map(...), maxlen=0)`", hll_deque(py_strs)),
        ("int64 `to_numpy().tolist()`", lambda: ints.to_numpy().tolist()),
        ("string `to_pylist()`", lambda: strings.to_pylist()),
        ("`pc.unique` int64, all distinct", lambda: pc.unique(ints)),
        ("`pc.unique` float64, all distinct", lambda: pc.unique(floats)),
        ("`pc.unique` string, all distinct", lambda: pc.unique(strings)),
        ("`pc.unique` string, 6 values", lambda: pc.unique(lowcard)),
        ("`pc.value_counts` string, 6 values", lambda: pc.value_counts(lowcard)),
        ("`kll_doubles_sketch.update(ndarray)`, 65,536 per call", kll_batches),
    ]
    return [[label, f"{best_of(fn) / n * 1e9:.1f}"] for label, fn in cases]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--records", type=int, default=200_000)
    args = parser.parse_args()
    rows = args.rows

    table = mixed_table(rows)
    df = table.to_pandas()
    faucet_core.profile(df.head(10_000))  # warm-up

    def run() -> None:
        faucet_core.profile(df)

    print(f"## Hot spots: `faucet_core.profile(df)`, pandas, {rows:,} rows x 10 columns")
    print()
    wall, top, stats = cprofile_top(run, 15)
    print(f"### 1. cProfile, top 15 by own time (wall under cProfile {wall:.2f} s)")
    print()
    print(markdown_table(["function", "calls", "own s", "cumulative s"], top))
    print()
    print("Callers of `add_distinct` (the HyperLogLog feed):")
    print()
    print(
        markdown_table(["caller", "calls", "s in add_distinct"], callers_of(stats, "add_distinct"))
    )
    print()

    wall, stages = stage_table(run)
    print(f"### 2. By stage (fastest of 3 timed runs, {wall:.2f} s wall)")
    print()
    print(markdown_table(["stage", "calls", "s", "share"], stages))
    print()

    print("### 3. Each column alone (pyarrow Table, best of 3)")
    print()
    whole = best_of(lambda: faucet_core.profile(table))
    body = []
    for name in table.column_names:
        one = table.select([name])
        seconds = best_of(lambda one=one: faucet_core.profile(one))
        body.append(
            [
                f"`{name}`",
                str(table.schema.field(name).type),
                f"{seconds:.3f}",
                f"{seconds / whole:.0%}",
            ]
        )
    body.append(["**all 10 together**", "", f"{whole:.3f}", "100%"])
    print(markdown_table(["column", "type", "s", "share of all"], body))
    print()

    print("### 4. Per-value cost of the primitives (1,000,000 values, best of 3)")
    print()
    print(markdown_table(["operation", "ns per value"], per_value_costs()))
    print()

    print("### 5. What-if: Arrow batch size (`faucet_core.profile.profiler.ARROW_BATCH_ROWS`)")
    print()
    default = profiler.ARROW_BATCH_ROWS
    body = []
    try:
        for batch_rows in (16_384, 65_536, 262_144, 1_048_576):
            profiler.ARROW_BATCH_ROWS = batch_rows
            seconds = best_of(lambda: faucet_core.profile(table))
            mark = " (default)" if batch_rows == default else ""
            body.append(
                [f"{batch_rows:,}{mark}", f"{seconds:.3f}", f"{rows / seconds / 1e6:.2f} M"]
            )
    finally:
        profiler.ARROW_BATCH_ROWS = default
    print(markdown_table(["batch rows", "best s (pyarrow Table)", "rows/s"], body))
    print()

    records = table.slice(0, args.records).to_pylist()
    faucet_core.profile(records[:5_000])
    wall, top, _ = cprofile_top(lambda: faucet_core.profile(records), 12)
    print(
        f"### 6. Records path: cProfile top 12 by own time, {len(records):,} dicts "
        f"(wall under cProfile {wall:.2f} s)"
    )
    print()
    print(markdown_table(["function", "calls", "own s", "cumulative s"], top))
    print()
    print_machine()


if __name__ == "__main__":
    main()
