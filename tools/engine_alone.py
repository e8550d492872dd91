"""The engine on its own: run inside a venv that holds only the faucet-core wheel.

``tools/engine_alone.sh`` (``make engine-alone``) builds faucet-core's wheel from
``faucet-core/``, installs it into a fresh venv with nothing else asked for, and runs this
script there. It fails (exit 1, one line per problem) unless, without Dagster installed:

- ``import faucet_core`` works and neither ``dagster`` nor any server package is importable;
- a pyarrow table profiles per column;
- ten runs recorded in a SQLite profile store build a baseline, and a run whose column
  turns 40 % null is recorded as drifted, headed by that column's null rate;
- under ``FAUCET_REQUIRE_COMPILED=1`` (CI), the wheel carries the compiled HyperLogLog hash
  (``faucet_core/profile/_coupons``, built when the wheel is, with the machine's C compiler).

Only faucet-core's own requirements are needed.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

NOT_INSTALLED = ("dagster", "dagster_webserver", "uvicorn", "starlette", "faucet_dagster")


def _table(day: int, nulls: int = 0) -> object:
    import pyarrow as pa

    amounts = [None if i < nulls else float(10 + (i * 7 + day) % 13) for i in range(100)]
    regions = ["eu" if (i + day) % 3 else "us" for i in range(100)]
    return pa.table({"amount": amounts, "region": regions})


def problems() -> list[str]:
    found = [
        f"{name} is importable: faucet-core must install without it"
        for name in NOT_INSTALLED
        if importlib.util.find_spec(name) is not None
    ]
    from faucet_core import ProfileStore, profile
    from faucet_core.profile import hll_hash

    if os.environ.get("FAUCET_REQUIRE_COMPILED") == "1" and not hll_hash.compiled():
        found.append(
            "the wheel carries no compiled hash (faucet_core/profile/_coupons): install a C "
            "compiler and Python's headers where the wheel is built, or unset "
            "FAUCET_REQUIRE_COMPILED to accept the numpy hash"
        )

    first = profile(_table(0))
    if first.row_count != 100 or set(first.columns) != {"amount", "region"}:
        found.append(f"profile: {first.row_count} rows, columns {sorted(first.columns)}")
    with tempfile.TemporaryDirectory() as folder:
        store = ProfileStore(f"sqlite:///{Path(folder) / 'faucet.db'}")
        try:
            for day in range(10):
                store.record("orders", profile(_table(day)), run_id=f"day-{day}")
            outcome = store.record("orders", profile(_table(10, nulls=40)), run_id="day-10")
        finally:
            store.close()
    heads = [(f.column, f.metric.value) for f in outcome.findings]
    if outcome.status.value != "drifted" or not heads or heads[0][0] != "amount":
        found.append(f"a 40 % null run: status {outcome.status.value}, findings {heads}")
    elif "null" not in heads[0][1]:
        found.append(f"a 40 % null run is headed by {heads[0][1]}, not the null rate")
    return found


def main() -> int:
    found = problems()
    for problem in found:
        print(f"engine alone: {problem}", file=sys.stderr)
    if not found:
        print("engine alone: faucet-core profiles, records and finds drift without Dagster")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
