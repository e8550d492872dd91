"""Catalog scale: ingesting OpenLineage events, and a catalog of 10,000 datasets and
50,000 edges, on SQLite and PostgreSQL.

    .venv/bin/python benchmarks/catalog_scale.py                       # SQLite only
    .venv/bin/python benchmarks/catalog_scale.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test

Prints markdown (the figures, the machine, the command). PostgreSQL runs in a fresh schema
that is dropped afterwards. Figures of the last recorded run: results/catalog.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from faucet_core.catalog import (
    Catalog,
    DatasetRef,
    FieldRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
    SchemaField,
)
from faucet_core.lineage import parse_text

SEED = 42
NS = "postgres://warehouse:5432"


def _event(i: int, state: str, inputs: list[str], output: str, when: str) -> dict[str, Any]:
    run_id = str(uuid.UUID(int=i // 2 + 1))
    out: dict[str, Any] = {"namespace": NS, "name": output, "facets": {}}
    if state == "COMPLETE":
        out["facets"] = {
            "schema": {"fields": [{"name": f"c{k}", "type": "VARCHAR"} for k in range(8)]},
            "columnLineage": {
                "fields": {
                    f"c{k}": {
                        "inputFields": [
                            {
                                "namespace": NS,
                                "name": src,
                                "field": f"c{k}",
                                "transformations": [{"type": "DIRECT", "subtype": "IDENTITY"}],
                            }
                            for src in inputs
                        ]
                    }
                    for k in range(8)
                }
            },
            "ownership": {"owners": [{"name": f"team:{i % 17}"}]},
        }
    return {
        "eventTime": when,
        "producer": "https://example.com/bench",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "eventType": state,
        "run": {"runId": run_id},
        "job": {"namespace": "bench", "name": f"job_{(i // 2) % 5000}"},
        "inputs": [{"namespace": NS, "name": s} for s in inputs],
        "outputs": [out],
    }


def events_file(count: int, datasets: int, folder: Path) -> Path:
    """``count`` events (START + COMPLETE per run), 2 inputs and 1 output each, over
    ``datasets`` table names, with schema, column lineage and ownership facets."""
    rng = random.Random(SEED)
    path = folder / f"events_{count}.jsonl"
    with path.open("w") as f:
        for i in range(count):
            run = i // 2
            r = random.Random(run)
            output = f"db.public.t{r.randrange(datasets)}"
            inputs = [f"db.public.t{r.randrange(datasets)}" for _ in range(2)]
            state = "START" if i % 2 == 0 else "COMPLETE"
            second = run * 60 + (i % 2) * 30 + rng.randrange(10)
            day, rest = 1 + second // 86400 % 28, second % 86400
            when = f"2026-01-{day:02d}T{rest // 3600:02d}:{rest // 60 % 60:02d}:{rest % 60:02d}Z"
            f.write(json.dumps(_event(i, state, inputs, output, when)) + "\n")
    return path


def graph_records(datasets: int, edges: int) -> list[RunRecord]:
    """One COMPLETE run per dataset with ``edges / datasets`` inputs from earlier datasets
    (a DAG), 6 columns each, column lineage on every edge."""
    rng = random.Random(SEED)
    per = edges // datasets
    refs = [DatasetRef(NS, f"db.public.t{i}") for i in range(datasets)]
    out = []
    import datetime as dt

    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    for i, ref in enumerate(refs):
        pool = refs[max(0, i - 500) : i] or [refs[-1]]
        sources = rng.sample(pool, min(per, len(pool))) if i >= per else refs[-per - 1 : -1]
        lineage = {f"c{k}": tuple(FieldRef(s, f"c{k}") for s in sources) for k in range(6)}
        out.append(
            RunRecord(
                job=JobRef("bench", f"build_{i}"),
                run_id=str(uuid.UUID(int=i + 1)),
                state=RunState.COMPLETE,
                event_time=t0 + dt.timedelta(seconds=i),
                inputs=tuple(Observation(s) for s in sources),
                outputs=(
                    Observation(
                        ref,
                        schema=tuple(SchemaField(f"c{k}", "VARCHAR") for k in range(6)),
                        owners=(f"team:{i % 23}",),
                        column_lineage=lineage,
                    ),
                ),
            )
        )
    return out


@contextmanager
def backend(name: str, pg: str | None, folder: Path) -> Iterator[str]:
    if name == "sqlite":
        yield f"sqlite:///{folder / f'catalog_{uuid.uuid4().hex[:6]}.db'}"
        return
    assert pg
    base = make_url(pg)
    schema = f"faucet_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False
        )
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def median_ms(fn: Callable[[], Any], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        seconds, _ = timed(fn)
        samples.append(seconds * 1000)
    return statistics.median(samples)


def bench_ingest(url: str, path: Path) -> dict[str, Any]:
    """What ``ingest(catalog, [path])`` does, timed in its two stages: read + parse +
    validate every event, then record them all in one transaction."""
    with Catalog(url) as catalog:
        parse_s, (records, rejected, total) = timed(
            lambda: parse_text(path.read_text(encoding="utf-8"), str(path))
        )
        assert not rejected
        write_s, summary = timed(lambda: catalog.record(records))
        counts = catalog.counts()
    total_s = parse_s + write_s
    return {
        "events": total,
        "parse_s": parse_s,
        "total_s": total_s,
        "write_s": write_s,
        "events_per_s": total / total_s,
        "counts": counts,
        "summary": summary.to_dict(),
    }


def bench_graph(url: str, datasets: int, edges: int, repeats: int) -> dict[str, Any]:
    records = graph_records(datasets, edges)
    rng = random.Random(SEED)
    with Catalog(url) as catalog:
        build_s, _ = timed(lambda: catalog.record(records))
        counts = catalog.counts()
        ids = [r.outputs[0].dataset.id for r in records]
        early = ids[: datasets // 10]
        picks = [rng.choice(ids) for _ in range(repeats)]
        early_picks = iter([rng.choice(early) for _ in range(repeats)])
        pick_iter = iter(picks)
        figures = {
            "build_s": build_s,
            "counts": counts,
            "list_ms": median_ms(catalog.datasets, max(3, repeats // 5)),
            "show_ms": median_ms(lambda: catalog.detail(next(pick_iter)), repeats),
            "resolve_ms": median_ms(lambda: catalog.resolve(rng.choice(ids)[:6]), repeats),
            "walk_ms": 0.0,
            "walk_edges": 0,
        }
        walked: list[int] = []

        def walk() -> None:
            walked.append(len(catalog.downstream(next(early_picks), depth=5)))

        figures["walk_ms"] = median_ms(walk, repeats)
        figures["walk_edges"] = int(statistics.median(walked))
        rerun_s, _ = timed(lambda: catalog.record(records[:1000]))
        figures["rerecord_1000_s"] = rerun_s
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--event-datasets", type=int, default=5_000)
    parser.add_argument("--datasets", type=int, default=10_000)
    parser.add_argument("--edges", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--postgres", default=os.environ.get("FAUCET_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    backends = ["sqlite"] + (["postgres"] if args.postgres else [])
    load0 = os.getloadavg()[0]
    print("# Catalog scale\n")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = events_file(args.events, args.event_datasets, folder)
        size_mb = path.stat().st_size / 1e6
        print(
            f"## Ingest {args.events:,} OpenLineage events ({size_mb:.0f} MB of JSON lines, "
            f"START + COMPLETE per run, 2 inputs / 1 output over {args.event_datasets:,} "
            "tables, schema + columnLineage (8 columns) + ownership facets)\n"
        )
        print(
            "| backend | total | read + parse + validate | write (1 transaction) | events/s "
            "| datasets | edges | runs |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for name in backends:
            with backend(name, args.postgres, folder) as url:
                r = bench_ingest(url, path)
            c = r["counts"]
            print(
                f"| {name} | {r['total_s']:.1f} s | {r['parse_s']:.1f} s | {r['write_s']:.1f} s | "
                f"{r['events_per_s']:,.0f} | {c['datasets']:,} | {c['edges']:,} | {c['runs']:,} |"
            )
        print(
            f"\n## A catalog of {args.datasets:,} datasets and {args.edges:,} edges "
            "(6 columns each, column lineage on every edge)\n"
        )
        print(
            "| backend | build (1 transaction) | re-record 1,000 runs | `datasets()` (list all) "
            "| `detail(id)` (show) | `resolve(prefix)` | downstream walk, depth 5 |"
        )
        print("|---|---|---|---|---|---|---|")
        for name in backends:
            with backend(name, args.postgres, folder) as url:
                g = bench_graph(url, args.datasets, args.edges, args.repeats)
            c = g["counts"]
            assert c["datasets"] == args.datasets, c
            assert c["edges"] == args.edges, c
            print(
                f"| {name} | {g['build_s']:.1f} s | {g['rerecord_1000_s']:.2f} s | "
                f"{g['list_ms']:,.0f} ms | {g['show_ms']:.1f} ms | {g['resolve_ms']:.2f} ms | "
                f"{g['walk_ms']:.0f} ms ({g['walk_edges']:,} edges) |"
            )
    print("\n## Machine\n")
    print(f"- {platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} cores")
    print(f"- load average (1 min): {load0:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    if args.postgres:
        with create_engine(args.postgres).connect() as conn:
            version = conn.execute(text("SHOW server_version")).scalar()
        print(f"- PostgreSQL {version} on the same machine (127.0.0.1), psycopg 3")
    import sqlite3

    print(f"- SQLite {sqlite3.sqlite_version} (WAL, a file in a temporary folder)")
    cmd = " ".join(["python", *sys.argv]).replace(args.postgres or "\0", "$PG_URL")
    print(f"\nCommand: `{cmd}`")
    print(f"medians of {args.repeats} lookups on random datasets (walks start in the oldest 10 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
