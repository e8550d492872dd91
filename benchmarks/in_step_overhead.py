"""Wall time of ``dagster asset materialize`` on a 3-asset project: no checks, faucet's
separate checks (``build_profile_checks``), and profiling in the asset's step
(``profiled_asset``).

The project (written to a temporary folder) has ``raw_orders -> orders -> daily_revenue``,
pandas frames of ``--rows`` rows, the default filesystem IO manager and Dagster's default
executor (multiprocess under the CLI: each step is a process that imports the project). The
three variants run in interleaved rounds, each with its own ``DAGSTER_HOME`` and faucet
store, so that load on the machine slows all of them alike; the figure is the median wall
time of the whole CLI command, next to the summed step durations of each run (Dagster's
step stats: the steps' own work, without process start-up and orchestration). Both checked
variants use the same profiling config; after
the rounds their stored profiles are compared (all but the KLL quantile estimates, which
are randomised per profile).

Run: ``.venv/bin/python benchmarks/in_step_overhead.py [--rows N] [--rounds R]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, markdown_table

from faucet_core.store import ProfileStore

VARIANTS = ("no checks", "separate checks", "in-step checks")
ASSETS = ("raw_orders", "orders", "daily_revenue")
CONFIG = {"min_history": 5, "on_drift": "warn"}

PROJECT = """
import os

import dagster as dg
import numpy as np
import pandas as pd

from faucet_dagster import FaucetResource, build_profile_checks, profiled_asset

ROWS = {rows}
CONFIG = {config!r}
VARIANT = os.environ["BENCH_VARIANT"]


def _raw() -> pd.DataFrame:
    rng = np.random.default_rng(int(os.environ.get("BENCH_DAY", "0")))
    return pd.DataFrame({{
        "order_id": np.arange(ROWS),
        "amount": rng.lognormal(3, 1, ROWS).round(2),
        "country": rng.choice(["de", "fr", "us", "jp"], ROWS),
        "day": rng.integers(1, 29, ROWS),
    }})


def _orders(raw_orders: pd.DataFrame) -> pd.DataFrame:
    return raw_orders[raw_orders["amount"] > 5].assign(vat=lambda f: (f["amount"] * 0.2).round(2))


def _daily_revenue(orders: pd.DataFrame) -> pd.DataFrame:
    return orders.groupby(["day", "country"], as_index=False)["amount"].sum()


def asset(**kwargs):
    if VARIANT == "in-step checks":
        return profiled_asset(config=CONFIG, **kwargs)
    return dg.asset(**kwargs)


raw_orders = asset(name="raw_orders")(_raw)
orders = asset(name="orders")(_orders)
daily_revenue = asset(name="daily_revenue")(_daily_revenue)
assets = [raw_orders, orders, daily_revenue]
checks = build_profile_checks(assets, config=CONFIG) if VARIANT == "separate checks" else []

defs = dg.Definitions(assets=assets, asset_checks=checks, resources={{"faucet": FaucetResource()}})
"""


def _home(root: Path, variant: str) -> Path:
    home = root / variant.replace(" ", "_")
    home.mkdir(parents=True, exist_ok=True)
    return home


def _step_seconds(home: Path) -> float:
    """The summed step durations of the newest run in ``home`` (from Dagster's step stats)."""
    import dagster as dg

    with dg.DagsterInstance.from_config(str(home)) as instance:
        run = instance.get_run_records(limit=1)[0].dagster_run
        stats = instance.get_run_step_stats(run.run_id)
    return sum((s.end_time or 0) - (s.start_time or 0) for s in stats)


def _run(project: Path, home: Path, variant: str, day: int) -> tuple[float, float]:
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "FAUCET_STORE_URL": f"sqlite:///{home / 'faucet.db'}",
        "BENCH_VARIANT": variant,
        "BENCH_DAY": str(day),
    }
    command = [
        str(Path(sys.executable).parent / "dagster"),
        "asset",
        "materialize",
        "-f",
        str(project),
        "--select",
        "*",
    ]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{variant}: dagster asset materialize failed:\n{done.stderr[-3000:]}")
    return seconds, _step_seconds(home)


def _exact(profile: dict[str, Any]) -> dict[str, Any]:
    columns = []
    for column in profile["columns"]:
        kept = {k: v for k, v in column.items() if k != "sketches"}
        if kept.get("numeric"):
            kept["numeric"] = {k: v for k, v in kept["numeric"].items() if k not in ("p50", "p95")}
        columns.append(kept)
    return {**profile, "columns": columns}


def _same_profiles(root: Path) -> list[list[str]]:
    rows = []
    separate = ProfileStore(f"sqlite:///{_home(root, VARIANTS[1]) / 'faucet.db'}")
    in_step = ProfileStore(f"sqlite:///{_home(root, VARIANTS[2]) / 'faucet.db'}")
    for asset in ASSETS:
        a = [_exact(r.profile.to_dict()) for r in separate.history(asset)]
        b = [_exact(r.profile.to_dict()) for r in in_step.history(asset)]
        rows.append([asset, str(len(a)), str(len(b)), "yes" if a == b and a else "NO"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {v: [] for v in VARIANTS}
    steps: dict[str, list[float]] = {v: [] for v in VARIANTS}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        project = root / "bench_project.py"
        project.write_text(textwrap.dedent(PROJECT.format(rows=args.rows, config=CONFIG)))
        for day in range(args.rounds):
            order = VARIANTS[day % 3 :] + VARIANTS[: day % 3]  # rotate who runs first
            for variant in order:
                wall, in_steps = _run(project, _home(root, variant), variant, day)
                times[variant].append(wall)
                steps[variant].append(in_steps)
        same = _same_profiles(root)
    load_after = os.getloadavg()
    base = statistics.median(times[VARIANTS[0]])
    base_steps = statistics.median(steps[VARIANTS[0]])
    table = []
    for variant in VARIANTS:
        median = statistics.median(times[variant])
        in_steps = statistics.median(steps[variant])
        table.append(
            [
                variant,
                f"{median:.2f}",
                f"{min(times[variant]):.2f}",
                f"{max(times[variant]):.2f}",
                f"{(median / base - 1) * 100:+.1f} %",
                f"{in_steps:.2f} ({(in_steps / base_steps - 1) * 100:+.1f} %)",
                " ".join(f"{t:.2f}" for t in times[variant]),
            ]
        )
    print(
        f"## `dagster asset materialize`, 3 assets of {args.rows:,} rows, "
        f"multiprocess executor, {args.rounds} interleaved rounds\n"
    )
    print(
        markdown_table(
            [
                "variant",
                "median s",
                "min s",
                "max s",
                "median vs no checks",
                "steps s, median (vs no checks)",
                "each run, s",
            ],
            table,
        )
    )
    print("\n### The same profiles both ways (all but the KLL quantile estimates)\n")
    print(markdown_table(["asset", "runs, separate", "runs, in-step", "same"], same))
    print(
        "\nload average (1, 5, 15 min): before "
        f"{', '.join(f'{x:.1f}' for x in load_before)}, after "
        f"{', '.join(f'{x:.1f}' for x in load_after)}"
    )
    print(f"\n{machine_info()}")
    print(f"\ncommand: `{sys.executable} {' '.join(sys.argv)}`")


if __name__ == "__main__":
    main()
