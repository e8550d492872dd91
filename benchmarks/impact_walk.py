"""Change impact: ``plan_impact`` over a catalog of N datasets and 5 N column-lineage edges,
walked at depth 5, on SQLite (and PostgreSQL with ``--postgres URL``), against a plain
in-memory BFS over the same edges computed in the same run.

    .venv/bin/python benchmarks/impact_walk.py                 # 10,000 and 100,000 datasets
    .venv/bin/python benchmarks/impact_walk.py --sizes 10000 --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test

Each dataset has 5 columns and 5 outgoing edges to datasets at most N/5 further on (a
DAG, so the sink's depth-5 cone is a large share of the graph); each edge maps every
output column to one random input column, except ``--opaque`` of them (0.5 % by default)
that carry no column lineage. The plan drops two of the sink's columns.

The baseline loads every edge of the store into a dict once (timed as "load"), then walks
hop by hop in memory with the same rules (known columns flow over lineage edges, opacity
over every edge). Its result must equal the plan's on every dataset and column: the
script fails otherwise. Prints markdown; figures of the last recorded run:
results/impact.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from faucet_core.catalog import Catalog, DatasetRef, SchemaField
from faucet_core.catalog.write import insert_rows
from faucet_core.db.schema import (
    catalog_datasets,
    catalog_edges,
    catalog_run_datasets,
    catalog_runs,
)
from faucet_core.impact import from_declared, plan_impact
from faucet_core.impact.report import ImpactSeverity

COLS = [f"c{i}" for i in range(5)]
FANOUT = 5
DEPTH = 5

Lineage = dict[str, list[str]] | None
Adjacency = dict[str, list[tuple[str, Lineage]]]


def load_edges(catalog: Catalog) -> Adjacency:
    """Every edge of the store, in memory: source id -> [(sink id, {out: [in...]} | None)]."""
    adj: Adjacency = {}
    with catalog.engine.connect() as conn:
        rows = conn.execute(
            select(
                catalog_edges.c.source_id, catalog_edges.c.sink_id, catalog_edges.c.column_lineage
            )
        )
        for source, sink, lineage in rows:
            fields = None if lineage is None else json.loads(lineage).get("fields", {})
            adj.setdefault(source, []).append((sink, fields))
    return adj


def bfs(
    adj: Adjacency, sink: str, dropped: set[str], depth: int
) -> dict[str, tuple[set[str], bool]]:
    """The plain walk: dataset -> (affected columns, opaque), hop by hop, in memory."""
    state: dict[str, tuple[set[str], bool]] = {sink: (set(dropped), False)}
    frontier = {sink}
    for _ in range(depth):
        snapshot = {k: (set(state[k][0]), state[k][1]) for k in frontier}
        grown = set()
        for source in frontier:
            cols, opaque = snapshot[source]
            for target, fields in adj.get(source, ()):
                got = (
                    set() if fields is None else {o for o, ins in fields.items() if cols & set(ins)}
                )
                dark = opaque or (fields is None and bool(cols))
                if not got and not dark:
                    continue
                old_cols, old_dark = state.get(target, (set(), False))
                new = (old_cols | got, old_dark or dark)
                if new != (old_cols, old_dark) or target not in state:
                    state[target] = new
                    grown.add(target)
        frontier = grown
    return state


def build(catalog: Catalog, n: int, seed: int = 42, opaque: float = 0.005) -> DatasetRef:
    rng = random.Random(seed)
    now = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    refs = [DatasetRef("file", f"/lake/d{i:06d}.parquet") for i in range(n)]
    schema = json.dumps([{"name": c, "type": "integer"} for c in COLS])
    datasets = [
        {
            "id": r.id,
            "uri": r.uri,
            "namespace": r.namespace,
            "name": r.name,
            "owners": json.dumps([f"team-{i % 50}"]),
            "schema": schema,
            "created_at": now,
            "updated_at": now,
        }
        for i, r in enumerate(refs)
    ]
    edges = []
    seen = set()
    for i in range(n - 1):
        for _ in range(FANOUT):
            j = rng.randint(i + 1, min(n - 1, i + max(2, n // 5)))
            if (i, j) in seen:
                continue
            seen.add((i, j))
            lineage = {"fields": {c: [rng.choice(COLS)] for c in COLS}}
            dark = rng.random() < opaque
            edges.append(
                {
                    "source_id": refs[i].id,
                    "sink_id": refs[j].id,
                    "job_namespace": "bench",
                    "job_name": f"job{j}",
                    "run_id": f"r{j}",
                    "event_time": now,
                    "column_lineage": None if dark else json.dumps(lineage, separators=(",", ":")),
                }
            )
    with catalog.engine.begin() as conn:
        for start in range(0, len(datasets), 5000):
            insert_rows(conn, catalog_datasets, datasets[start : start + 5000])
        for start in range(0, len(edges), 5000):
            insert_rows(conn, catalog_edges, edges[start : start + 5000])
        insert_rows(
            conn,
            catalog_runs,
            [
                {
                    "job_namespace": "bench",
                    "job_name": "job0",
                    "run_id": "r0",
                    "source": "bench",
                    "state": "COMPLETE",
                    "event_time": now,
                }
            ],
        )
        run_pk = conn.execute(text("SELECT id FROM faucet_catalog_runs")).scalar_one()
        insert_rows(
            conn,
            catalog_run_datasets,
            [{"run": run_pk, "dataset_id": refs[0].id, "role": "output"}],
        )
    print(f"  built {n} datasets, {len(edges)} edges")
    return refs[0]


def measure(url: str, n: int, repeat: int, opaque: float) -> dict[str, object]:
    planned = from_declared(tuple(SchemaField(c, "integer") for c in COLS[2:]))
    with Catalog(url) as catalog:
        sink = build(catalog, n, opaque=opaque)
        times, loads, walks = [], [], []
        report = None
        for _ in range(repeat):
            t0 = time.perf_counter()
            report = plan_impact(catalog, sink.uri, planned, depth=DEPTH)
            times.append(time.perf_counter() - t0)
        for _ in range(repeat):
            t0 = time.perf_counter()
            adj = load_edges(catalog)
            t1 = time.perf_counter()
            plain = bfs(adj, sink.id, set(COLS[:2]), DEPTH)
            loads.append(t1 - t0)
            walks.append(time.perf_counter() - t1)
        assert report is not None
        ours = {
            a.id: ({r.column for r in a.reads}, a.opaque_from is not None)
            for a in report.affected
            if a.depth > 0
        }
        plain.pop(sink.id)
        diff = sorted(k for k in set(ours) | set(plain) if ours.get(k) != plain.get(k))
        if diff:
            raise SystemExit(f"plan and plain BFS differ on {len(diff)} dataset(s): {diff[:5]}")
        pairs = sum(len(cols) for cols, _ in plain.values())
        breaking = sum(1 for a in report.affected if a.severity is ImpactSeverity.BREAKING)
        unknown = sum(1 for a in report.affected if a.severity is ImpactSeverity.UNKNOWN)
        mixed = sum(1 for cols, dark in plain.values() if cols and dark)
        median = statistics.median(times)
        return {
            "datasets": n,
            "edges": catalog.counts()["edges"],
            "opaque_edges": sum(len([e for e in v if e[1] is None]) for v in adj.values()),
            "affected": len(report.affected),
            "breaking": breaking,
            "unknown": unknown,
            "mixed": mixed,
            "pairs": pairs,
            "median_s": median,
            "min_s": min(times),
            "load_s": statistics.median(loads),
            "bfs_s": statistics.median(walks),
            "ratio_walk": median / statistics.median(walks),
            "ratio_all": median / (statistics.median(loads) + statistics.median(walks)),
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--opaque", type=float, default=0.005, help="share of opaque edges")
    parser.add_argument("--postgres", help="also run on this PostgreSQL URL (fresh schema)")
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{Path(tmp) / 'bench.db'}"
            rows.append(("SQLite", measure(url, n, args.repeat, args.opaque)))
        if args.postgres:
            base = make_url(args.postgres)
            schema = f"bench_{uuid.uuid4().hex[:8]}"
            admin = create_engine(base, isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE SCHEMA "{schema}"'))
            try:
                url = base.update_query_dict({"options": f"-csearch_path={schema}"})
                pg = measure(url.render_as_string(False), n, args.repeat, args.opaque)
                rows.append(("PostgreSQL", pg))
            finally:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
                admin.dispose()
    print(
        f"\nmachine: {platform.platform()}, Python {platform.python_version()}, "
        f"load average at start {os.getloadavg()[0]:.2f}\n"
    )
    print(
        "| store | datasets | edges (opaque) | affected: breaking / unknown (both paths) "
        "| plan_impact median (min) | plain BFS: load + walk | ratio to walk / to load+walk "
        "| plan = BFS |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for store, r in rows:
        print(
            f"| {store} | {r['datasets']:,} | {r['edges']:,} ({r['opaque_edges']:,}) "
            f"| {r['breaking']:,} / {r['unknown']:,} ({r['mixed']:,}) "
            f"| {r['median_s']:.3f} s ({r['min_s']:.3f} s) "
            f"| {r['load_s']:.3f} s + {r['bfs_s']:.3f} s "
            f"| {r['ratio_walk']:.1f}x / {r['ratio_all']:.2f}x "
            f"| yes ({r['pairs']:,} dataset-column pairs) |"
        )


if __name__ == "__main__":
    main()
