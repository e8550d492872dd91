"""What the profile check costs next to the materialization it checks.

A Dagster asset returns a 1,000,000-row x 10-column pandas DataFrame (the mixed
table of ``_common.py``); the default filesystem IO manager pickles it. The
same asset is materialized in process three times with its faucet profile check
and the step durations are read from Dagster's own step stats:

* ``asset step``: building the frame and storing it through the IO manager;
* ``check step``: loading it back through the IO manager, profiling, recording
  in the SQLite store and building the check's metadata.

Run: ``.venv/bin/python benchmarks/check_overhead.py [ROWS] [REPEATS] [--numpy-hash]``
(default 1,000,000 rows, 3 materializations; ``FAUCET_PROFILE_THREADS`` sets the profiler's
threads; ``--numpy-hash`` switches the compiled HyperLogLog hash off, to compare the two).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import dagster as dg
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, markdown_table, mixed_table

from faucet_core import profile
from faucet_core.profile import hll_hash
from faucet_dagster import FaucetResource, build_profile_checks

NUMPY_HASH = "--numpy-hash" in sys.argv
_ARGS = [a for a in sys.argv[1:] if a != "--numpy-hash"]
ROWS = int(_ARGS[0]) if _ARGS else 1_000_000
REPEATS = int(_ARGS[1]) if len(_ARGS) > 1 else 3
FRAME = mixed_table(ROWS).to_pandas()


@dg.asset
def big_orders() -> pd.DataFrame:
    return FRAME.copy()


def main() -> None:
    if NUMPY_HASH:
        hll_hash._compiled = None  # the whole benchmark runs in this process
    checks = build_profile_checks([big_orders])
    rows = []
    with tempfile.TemporaryDirectory() as tmp, dg.instance_for_test() as instance:
        resources = {"faucet": FaucetResource(store_url=f"sqlite:///{tmp}/faucet.db")}
        for _ in range(REPEATS):
            result = dg.materialize([big_orders, *checks], instance=instance, resources=resources)
            stats = {s.step_key: s for s in instance.get_run_step_stats(result.run_id)}
            asset = stats["big_orders"]
            check = next(s for k, s in stats.items() if k != "big_orders")
            rows.append((asset.end_time - asset.start_time, check.end_time - check.start_time))
    bares = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        profile(FRAME)
        bares.append(time.perf_counter() - started)
    bare = statistics.median(bares)
    asset_s = statistics.median(r[0] for r in rows)
    check_s = statistics.median(r[1] for r in rows)
    print(f"## Profile check overhead ({ROWS:,} rows x 10 columns, pandas)\n")
    print(
        markdown_table(
            ["", f"seconds (median of {REPEATS})", "vs asset step"],
            [
                ["asset step (build + pickle through the IO manager)", f"{asset_s:.2f}", "1.00x"],
                [
                    "check step (load + profile + record + metadata)",
                    f"{check_s:.2f}",
                    f"{check_s / asset_s:.2f}x",
                ],
                ["of which profile() alone on the frame", f"{bare:.2f}", f"{bare / asset_s:.2f}x"],
            ],
        )
    )
    threads = os.environ.get("FAUCET_PROFILE_THREADS") or "unset (the default)"
    hashed = "compiled" if hll_hash._compiled is not None else "numpy"
    print(f"\nthe HyperLogLog hash: {hashed}")
    print(f"FAUCET_PROFILE_THREADS: {threads}; load average {os.getloadavg()[0]:.2f} at the end")
    print("\n" + machine_info())


if __name__ == "__main__":
    main()
