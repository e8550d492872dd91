"""Why ``profile()`` runs slower inside the throughput benchmark's process than alone.

Diagnostics, not a pass/fail benchmark. Each state runs in a fresh process that profiles
the 1,000,000-row mixed pyarrow Table with ``threads=1``, one warm-up then 7 timed calls,
and reports the median wall time, minor page faults and system time per call:

* ``table only``: the process holds the table, and ``gc.collect()`` runs before each call;
* ``frames, collected``: it also holds what ``profile_throughput.py`` holds (a pandas
  frame, a polars frame and a pandas frame with ``object`` strings: millions of Python
  strings), and ``gc.collect()`` runs before each call, as ``_common.time_once`` does;
* ``frames, collector off``: the same state with ``gc.disable()``;
* ``frames, collected, top pad``: ``frames, collected`` with glibc's ``MALLOC_TOP_PAD_``
  set to 256 MiB in the child's environment (glibc then keeps that much free memory at
  the top of its heap instead of returning it to the system after every batch's arrays
  are freed, so the next batch's arrays reuse pages already mapped);
* ``frames, collected, system pool``: ``frames, collected`` with Arrow's buffers from
  the system allocator (``ARROW_DEFAULT_MEMORY_POOL=system``) instead of mimalloc.

    .venv/bin/python benchmarks/profile_gc_faults.py [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from _common import BENCH_DIR, markdown_table, print_machine

CHILD = """
import gc, json, resource, statistics, sys, time
sys.path.insert(0, {bench!r})
from _common import mixed_table
import faucet_core
state = {state!r}
table = mixed_table(1_000_000)
if state != "table only":
    import polars as pl
    held = [table.to_pandas(), pl.from_arrow(table), table.to_pandas()]
    for name in ("country", "status", "order_ref"):
        held[2][name] = held[2][name].astype(object)
if state == "frames, collector off":
    gc.disable()
faucet_core.profile(table, threads=1)
wall, faults, system = [], [], []
for _ in range(7):
    if state != "frames, collector off":
        gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    faucet_core.profile(table, threads=1)
    wall.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_SELF)
    faults.append(after.ru_minflt - before.ru_minflt)
    system.append(after.ru_stime - before.ru_stime)
print(json.dumps({{"wall": statistics.median(wall), "faults": statistics.median(faults),
                  "system": statistics.median(system)}}))
"""

STATES = (
    "table only",
    "frames, collected",
    "frames, collector off",
    "frames, collected, top pad",
    "frames, collected, system pool",
)
ENVIRONMENT = {
    "frames, collected, top pad": {"MALLOC_TOP_PAD_": str(256 * 1024 * 1024)},
    "frames, collected, system pool": {"ARROW_DEFAULT_MEMORY_POOL": "system"},
}
"""Variables set in a state's child process (the state's code is that of its first part)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {state: [] for state in STATES}
    for _ in range(args.rounds):
        for state in STATES:
            base = "frames, collected" if state in ENVIRONMENT else state
            code = CHILD.format(bench=str(BENCH_DIR), state=base)
            env = {**os.environ, **ENVIRONMENT.get(state, {})}
            out = subprocess.run(
                [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env
            ).stdout
            results[state].append(json.loads(out.strip().splitlines()[-1]))
            print(state, results[state][-1], flush=True)
    rows = []
    for state, runs in results.items():
        rows.append(
            [
                state,
                ", ".join(f"{r['wall']:.3f}" for r in runs),
                ", ".join(f"{r['faults']:,.0f}" for r in runs),
                ", ".join(f"{r['system']:.3f}" for r in runs),
            ]
        )
    print()
    print(
        markdown_table(
            ["process state", "wall s (median of 7)", "minor page faults", "system s"], rows
        )
    )
    print()
    print_machine()


if __name__ == "__main__":
    main()
