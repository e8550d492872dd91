"""Change impact: ``plan_impact`` over a catalog of N datasets and 5 N column-lineage edges,
walked at depth 5, on SQLite (and PostgreSQL with ``--postgres URL``).

    .venv/bin/python benchmarks/impact_walk.py                 # 10,000 and 100,000 datasets
    .venv/bin/python benchmarks/impact_walk.py --sizes 10000 --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test

Each dataset has 5 columns and 5 outgoing edges to datasets at most N/5 further on (a
DAG, so the sink's depth-5 cone is a large share of the graph); each edge maps every
output column to one random input column. The plan drops two of the sink's columns.
Prints markdown; figures of the last recorded run: results/impact.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from faucet_core.catalog import Catalog, DatasetRef, SchemaField
from faucet_core.catalog.write import insert_rows
from faucet_core.impact import from_declared, plan_impact
from faucet_core.impact.report import Severity
from faucet_core.store.schema import (
    catalog_datasets,
    catalog_edges,
    catalog_run_datasets,
    catalog_runs,
)

COLS = [f"c{i}" for i in range(5)]
FANOUT = 5


def build(catalog: Catalog, n: int, seed: int = 42) -> DatasetRef:
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
            edges.append(
                {
                    "source_id": refs[i].id,
                    "sink_id": refs[j].id,
                    "job_namespace": "bench",
                    "job_name": f"job{j}",
                    "run_id": f"r{j}",
                    "event_time": now,
                    "column_lineage": json.dumps(lineage, separators=(",", ":")),
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


def measure(url: str, n: int, repeat: int) -> dict[str, object]:
    planned = from_declared(tuple(SchemaField(c, "integer") for c in COLS[2:]))
    with Catalog(url) as catalog:
        sink = build(catalog, n)
        times = []
        report = None
        for _ in range(repeat):
            t0 = time.perf_counter()
            report = plan_impact(catalog, sink.uri, planned, depth=5)
            times.append(time.perf_counter() - t0)
        assert report is not None
        breaking = sum(1 for a in report.affected if a.severity is Severity.BREAKING)
        return {
            "datasets": n,
            "edges": catalog.counts()["edges"],
            "affected": len(report.affected),
            "breaking": breaking,
            "median_s": statistics.median(times),
            "min_s": min(times),
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--postgres", help="also run on this PostgreSQL URL (fresh schema)")
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{Path(tmp) / 'bench.db'}"
            rows.append(("SQLite", measure(url, n, args.repeat)))
        if args.postgres:
            base = make_url(args.postgres)
            schema = f"bench_{uuid.uuid4().hex[:8]}"
            admin = create_engine(base, isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE SCHEMA "{schema}"'))
            try:
                url = base.update_query_dict({"options": f"-csearch_path={schema}"})
                rows.append(("PostgreSQL", measure(url.render_as_string(False), n, args.repeat)))
            finally:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
                admin.dispose()
    print(f"\nmachine: {platform.platform()}, Python {platform.python_version()}\n")
    print("| store | datasets | edges | affected (breaking) | plan_impact median | min |")
    print("|---|---|---|---|---|---|")
    for store, r in rows:
        print(
            f"| {store} | {r['datasets']:,} | {r['edges']:,} | {r['affected']:,} "
            f"({r['breaking']:,}) | {r['median_s']:.3f} s | {r['min_s']:.3f} s |"
        )


if __name__ == "__main__":
    main()
