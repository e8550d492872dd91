"""SQL pushdown vs pulling the rows: the same table profiled in DuckDB and in PostgreSQL.

For each database, one generated table (8 mixed columns, made in the database with SQL so
setup stays fast) is profiled two ways, each in a fresh worker process so that its peak
RSS is its own:

- ``pushdown``: :func:`faucet_core.profile.profile_sql`, aggregate queries run by the
  database; bytes moved = the result rows the queries return (each value's text, UTF-8);
- ``pull``: every row fetched as Arrow batches into the streaming
  :class:`~faucet_core.profile.Profiler` (DuckDB: ``to_arrow_reader``, called
  ``fetch_record_batch`` before 2.0; PostgreSQL: a psycopg server-side cursor, 65,536 rows
  per fetch, turned into Arrow batches); bytes moved = the Arrow bytes of the batches.

Run from the repository root (PostgreSQL from ``FAUCET_TEST_POSTGRES_URL``; the table is
made in a fresh schema, dropped at the end)::

    .venv/bin/python benchmarks/sql_pushdown.py --rows 10000000
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import _common
from _common import DATA_DIR, LOAD_AT_START, markdown_table, peak_rss_mib, print_machine

BATCH = 65_536
COUNTRIES = "'DE','FR','US','GB','NL','ES','IT','PL','SE','JP','BR','IN'"

DUCKDB_TABLE = f"""
CREATE TABLE orders AS
SELECT g AS id,
       (g * 7919) % 200000 AS customer_id,
       CAST(1 + g % 20 AS INTEGER) AS quantity,
       CASE WHEN g % 100 = 0 THEN NULL ELSE ((g * 2654435761) % 100000) / 100.0 END AS amount,
       [{COUNTRIES}][1 + CAST(g % 12 AS INTEGER)] AS country,
       'ord-' || CAST(g AS VARCHAR) AS order_ref,
       g % 10 < 7 AS is_paid,
       TIMESTAMP '2024-01-01' + to_microseconds(g * 3154) AS created_at
FROM range(1, {{rows}} + 1) t(g)
"""

POSTGRES_TABLE = f"""
CREATE TABLE {{schema}}.orders AS
SELECT g AS id,
       (g * 7919) % 200000 AS customer_id,
       (1 + g % 20)::integer AS quantity,
       CASE WHEN g % 100 = 0 THEN NULL
            ELSE ((g * 2654435761) % 100000)::double precision / 100.0 END AS amount,
       (ARRAY[{COUNTRIES}])[1 + g % 12] AS country,
       'ord-' || g AS order_ref,
       g % 10 < 7 AS is_paid,
       TIMESTAMP '2024-01-01' + make_interval(secs => g * 0.003154) AS created_at
FROM generate_series(1::bigint, {{rows}}::bigint) g
"""


# -- setup ------------------------------------------------------------------------------------
def duckdb_file(rows: int) -> Path:
    import duckdb

    path = DATA_DIR / f"sql_orders_{rows}.duckdb"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        with duckdb.connect(str(partial)) as conn:
            conn.execute(DUCKDB_TABLE.format(rows=rows))
        partial.rename(path)
    return path


def postgres_table(url: str, rows: int) -> tuple[str, float]:
    import sqlalchemy as sa

    schema = f"faucet_bench_{uuid.uuid4().hex[:10]}"
    engine = sa.create_engine(url)
    start = time.perf_counter()
    with engine.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
        conn.execute(sa.text(POSTGRES_TABLE.format(schema=schema, rows=rows)))
    with engine.connect() as conn:
        conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
            f"VACUUM ANALYZE {schema}.orders"
        )
    engine.dispose()
    return schema, time.perf_counter() - start


def drop_schema(url: str, schema: str) -> None:
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    engine.dispose()


# -- workers (each in its own process) -------------------------------------------------------
def worker_pushdown(url: str, schema: str) -> dict[str, Any]:
    import sqlalchemy as sa

    from faucet_core.profile import SqlTable, profile_sql

    engine = sa.create_engine(url)
    sent: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, statement: str, params: Any, *_: Any) -> None:
        sent.append((statement, params))

    sa.event.listen(engine, "before_cursor_execute", record)
    start = time.perf_counter()
    prof = profile_sql(SqlTable(engine, "orders", schema=schema))
    seconds = time.perf_counter() - start
    sa.event.remove(engine, "before_cursor_execute", record)
    # bytes moved: run the same statements again (untimed) and measure what they return
    moved = 0
    with engine.connect() as conn:
        for statement, params in sent:
            for row in conn.exec_driver_sql(statement, params):
                moved += sum(len(str(v).encode()) for v in row if v is not None)
    engine.dispose()
    return {"seconds": seconds, "bytes": moved, "queries": len(sent), **_summary(prof)}


def worker_pull_duckdb(path: str) -> dict[str, Any]:
    import duckdb

    from faucet_core.profile import Profiler

    start = time.perf_counter()
    moved = 0
    profiler = Profiler()
    with duckdb.connect(path, read_only=True) as conn:
        result = conn.execute("SELECT * FROM orders")
        # DuckDB 2 names it to_arrow_reader; 1.x fetch_record_batch
        to_reader = getattr(result, "to_arrow_reader", None) or result.fetch_record_batch
        reader = to_reader(BATCH)
        for batch in reader:
            moved += batch.nbytes
            profiler.add_arrow(batch)
    prof = profiler.finish()
    return {"seconds": time.perf_counter() - start, "bytes": moved, **_summary(prof)}


def worker_pull_postgres(url: str, schema: str) -> dict[str, Any]:
    import psycopg
    import pyarrow as pa
    from sqlalchemy.engine import make_url

    from faucet_core.profile import Profiler

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    start = time.perf_counter()
    moved = 0
    profiler = Profiler()
    with psycopg.connect(dsn) as conn, conn.cursor(name="faucet_pull") as cur:
        cur.itersize = BATCH
        cur.execute(f"SELECT * FROM {schema}.orders")
        names = [d.name for d in cur.description or []]
        while rows := cur.fetchmany(BATCH):
            columns = [pa.array(values) for values in zip(*rows, strict=True)]
            batch = pa.RecordBatch.from_arrays(columns, names=names)
            moved += batch.nbytes
            profiler.add_arrow(batch)
    prof = profiler.finish()
    return {"seconds": time.perf_counter() - start, "bytes": moved, **_summary(prof)}


def _summary(prof: Any) -> dict[str, Any]:
    return {
        "rows": prof.row_count,
        "distinct": {n: c.distinct for n, c in prof.columns.items()},
        "p50": {n: c.numeric.p50 for n, c in prof.columns.items() if c.numeric is not None},
    }


def run_worker(args: list[str], python: str = sys.executable) -> dict[str, Any]:
    return _common.run_worker(__file__, args, python)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--pg-rows", type=int, default=None, help="default: --rows")
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--worker", nargs="+")
    args = parser.parse_args()
    if args.worker:
        kind, *rest = args.worker
        if kind == "pushdown":
            out = worker_pushdown(rest[0], rest[1] if len(rest) > 1 else "main")
        elif kind == "pull-duckdb":
            out = worker_pull_duckdb(rest[0])
        else:
            out = worker_pull_postgres(rest[0], rest[1])
        out["peak_rss_mib"] = peak_rss_mib()
        print(json.dumps(out))
        return

    print(f"load average at start: {LOAD_AT_START:.2f} (1 min), cores: {os.cpu_count()}")
    results: list[tuple[str, int, str, dict[str, Any]]] = []
    start = time.perf_counter()
    path = duckdb_file(args.rows)
    print(f"DuckDB table: {args.rows:,} rows ({time.perf_counter() - start:.1f} s incl. cache)")
    url = f"duckdb:///{path}"
    results.append(("DuckDB", args.rows, "pushdown", run_worker(["pushdown", url, "main"])))
    results.append(("DuckDB", args.rows, "pull", run_worker(["pull-duckdb", str(path)])))
    pg_url = os.environ.get("FAUCET_TEST_POSTGRES_URL", "")
    if pg_url and not args.skip_postgres:
        pg_rows = args.pg_rows or args.rows
        schema, setup = postgres_table(pg_url, pg_rows)
        print(f"PostgreSQL table: {pg_rows:,} rows, generated in {setup:.1f} s")
        try:
            results.append(
                ("PostgreSQL", pg_rows, "pushdown", run_worker(["pushdown", pg_url, schema]))
            )
            results.append(
                ("PostgreSQL", pg_rows, "pull", run_worker(["pull-postgres", pg_url, schema]))
            )
        finally:
            drop_schema(pg_url, schema)
    rows_out = []
    by_db: dict[str, dict[str, dict[str, Any]]] = {}
    for db, rows, way, r in results:
        by_db.setdefault(db, {})[way] = r
        rows_out.append(
            [
                db,
                f"{rows:,}",
                way,
                f"{r['seconds']:.1f}",
                f"{r['bytes']:,}",
                f"{r['peak_rss_mib']:.0f}",
                str(r.get("queries", "-")),
            ]
        )
    print()
    print(
        markdown_table(
            ["database", "rows", "way", "seconds", "bytes moved", "peak RSS MiB", "queries"],
            rows_out,
        )
    )
    print()
    for db, ways in by_db.items():
        push, pull = ways["pushdown"], ways["pull"]
        print(
            f"- {db}: seconds pushdown {push['seconds']:.1f} vs pull {pull['seconds']:.1f} "
            f"(pull / pushdown = {pull['seconds'] / push['seconds']:.2f}), "
            f"{pull['bytes'] / max(push['bytes'], 1):,.0f}x fewer bytes moved, peak RSS "
            f"{push['peak_rss_mib']:.0f} vs {pull['peak_rss_mib']:.0f} MiB; row counts "
            f"{push['rows']:,} / {pull['rows']:,}; distinct pushdown {push['distinct']} vs "
            f"pull {pull['distinct']}; p50 pushdown {push['p50']} vs pull {pull['p50']}"
        )
    print()
    print_machine()


if __name__ == "__main__":
    main()
