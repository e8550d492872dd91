"""The whylogs side of the throughput benchmark; runs in ``benchmarks/.venv-whylogs``.

Started by ``profile_throughput.py`` as a subprocess (whylogs 1.6 needs numpy < 2, so
it lives in its own virtualenv). Loads the Parquet file into pandas, warms up on
1,000 rows and prints one JSON line describing itself; then, for every ``run`` line on
stdin, times only ``why.log(df)`` and prints ``{"wall": s, "cpu": s}``. So the
benchmark can interleave whylogs runs with faucet runs (a busy shared machine then
slows both alike). ``quit`` or end of input stops it.

    benchmarks/.venv-whylogs/bin/python benchmarks/whylogs_worker.py PARQUET
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from importlib.metadata import version

os.environ.setdefault("WHYLOGS_NO_ANALYTICS", "True")  # no usage-statistics call home

import pandas as pd
import whylogs as why


def main() -> None:
    df = pd.read_parquet(sys.argv[1])
    result = why.log(df.head(1_000))  # warm-up: imports, resolvers
    hello = {
        "rows": len(df),
        "columns_profiled": len(result.view().get_columns()),
        "dtypes": {c: str(t) for c, t in df.dtypes.items()},
        "versions": {name: version(name) for name in ("whylogs", "pandas", "numpy", "pyarrow")},
        "python": sys.version.split()[0],
    }
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        if line.strip() != "run":
            break
        gc.collect()
        cpu, wall = time.process_time(), time.perf_counter()
        why.log(df)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(json.dumps({"wall": wall, "cpu": cpu}), flush=True)


if __name__ == "__main__":
    main()
