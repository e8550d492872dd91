"""What inferring column lineage costs a ``faucet plan --impact``: ``plan_impact`` with the
inference (``infer=True``, the default) against the same plan without it, on a catalog
where no edge carries column lineage, so every edge the walk crosses is inferred.

The catalog (SQLite): ``--datasets`` datasets of ``--columns`` columns, each with
``--runs`` profiled runs of ``--rows`` rows (faucet's profiler, HyperLogLog sketches
stored); dataset ``i`` reads dataset ``(i - 1) // 2`` (a binary tree), copying all but
two columns and computing those. The plan drops a column of the first dataset and walks
``--depth`` hops (30 datasets: 4 hops reach them all). Each timing is a
fresh process; the two contestants alternate; medians of wall and CPU time.

    .venv/bin/python benchmarks/lineage_inference_cost.py
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from _common import machine_info  # noqa: E402


def _table(index: int, run: int, rows: int, columns: int):  # type: ignore[no-untyped-def]
    import numpy as np
    import pyarrow as pa

    rng = np.random.default_rng(index * 1000 + run)
    base = np.random.default_rng(run)  # the copied columns: the same values all the way
    data: dict[str, object] = {}
    for c in range(columns):
        copied = c < columns - 2
        gen = base if copied else rng
        kind = c % 4
        if kind == 0:
            data[f"c{c}"] = gen.integers(0, rows * 4, rows)
        elif kind == 1:
            data[f"c{c}"] = np.round(gen.lognormal(3, 0.5, rows), 2)
        elif kind == 2:
            data[f"c{c}"] = [f"k{n}" for n in gen.integers(0, rows, rows)]
        else:
            data[f"c{c}"] = gen.choice(["de", "fr", "us", "jp", "br"], rows)
    return pa.table(data)


def build(store: str, args: argparse.Namespace) -> None:
    from faucet_core.catalog import (
        Catalog,
        DatasetRef,
        JobRef,
        Observation,
        RunRecord,
        RunState,
        SchemaField,
    )
    from faucet_core.profile import profile

    t0 = dt.datetime(2026, 9, 1, tzinfo=dt.timezone.utc)
    refs = [DatasetRef("bench", f"ds{i:03d}") for i in range(args.datasets)]
    schema = tuple(SchemaField(f"c{c}", "integer") for c in range(args.columns))
    with Catalog(store) as catalog:
        for run in range(args.runs):
            when = t0 + dt.timedelta(days=run)
            records = []
            for i, ref in enumerate(refs):
                inputs = [refs[(i - 1) // 2]] if i else []
                records.append(
                    RunRecord(
                        job=JobRef("bench", f"job{i}"),
                        run_id=f"r{run}-{i}",
                        state=RunState.COMPLETE,
                        event_time=when + dt.timedelta(minutes=i),
                        inputs=tuple(Observation(r) for r in inputs),
                        outputs=(Observation(ref, schema=schema),),  # no column lineage
                    )
                )
            catalog.record(records)
            for i, ref in enumerate(refs):
                catalog.record_profile(
                    ref,
                    run_id=f"r{run}-{i}",
                    profile=profile(_table(i, run, args.rows, args.columns)),
                    status="ok",
                    recorded_at=when + dt.timedelta(minutes=i),
                )


def child(store: str, who: str, depth: int) -> None:
    """One plan, timed; ``...again``: a second plan in the same process, the one timed
    (with inference: cached from the first, as in ``faucet serve`` or a change set)."""
    from faucet_core.catalog import Catalog
    from faucet_core.impact import from_declared, plan_impact

    infer = not who.startswith("plain")
    with Catalog(store) as catalog:
        entry = catalog.dataset("bench://ds000")
        assert entry.schema is not None
        planned = from_declared(tuple(entry.schema[1:]))  # c0 dropped
        if who.endswith("again"):
            plan_impact(catalog, "bench://ds000", planned, depth=depth, infer=infer)
        wall, cpu = time.perf_counter(), time.process_time()
        report = plan_impact(catalog, "bench://ds000", planned, depth=depth, infer=infer)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    inferred = sum(1 for a in report.affected if a.inferred)
    print(
        json.dumps(
            {"wall": wall, "cpu": cpu, "affected": len(report.affected), "inferred": inferred}
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=30)
    parser.add_argument("--columns", type=int, default=12)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--child", choices=["infer", "again", "plain", "plain-again"])
    parser.add_argument("--store")
    args = parser.parse_args()
    if args.child:
        child(args.store, args.child, args.depth)
        return
    with tempfile.TemporaryDirectory() as tmp:
        store = f"sqlite:///{Path(tmp) / 'cost.db'}"
        build(store, args)
        got: dict[str, list[dict[str, float]]] = {
            w: [] for w in ("infer", "again", "plain", "plain-again")
        }
        for _ in range(args.reps):
            for who in got:
                out = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--child",
                        who,
                        "--store",
                        store,
                        "--depth",
                        str(args.depth),
                    ],
                    check=True,
                    capture_output=True,
                    text=True,
                    env={**os.environ, "PYTHONHASHSEED": "0"},
                )
                got[who].append(json.loads(out.stdout.strip().splitlines()[-1]))
    lines = [
        "| plan | wall ms (median) | CPU ms (median) | datasets affected | of them inferred |",
        "|---|---|---|---|---|",
    ]
    for who, label in (
        ("infer", "with inference (default), first plan of the process"),
        ("again", "with inference, second plan of the process (cached)"),
        ("plain", "without inference (`infer=False`), first plan of the process"),
        ("plain-again", "without inference, second plan of the process"),
    ):
        runs = got[who]
        lines.append(
            f"| {label} | {statistics.median(r['wall'] for r in runs) * 1000:.0f} | "
            f"{statistics.median(r['cpu'] for r in runs) * 1000:.0f} | "
            f"{runs[0]['affected']} | {runs[0]['inferred']} |"
        )
    lines += [
        "",
        f"- command: `.venv/bin/python benchmarks/lineage_inference_cost.py --datasets "
        f"{args.datasets} --columns {args.columns} --runs {args.runs} --rows {args.rows} "
        f"--depth {args.depth} --reps {args.reps}`",
        machine_info(),
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
