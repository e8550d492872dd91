"""Peak memory of the DuckDB pushdown beside DuckDB's own SUMMARIZE, on the same table.

The table is ``sql_pushdown.py``'s DuckDB file (8 mixed columns, made by SQL and cached in
``benchmarks/.data``). Each run is a fresh process, the two interleaved; peak RSS is
``VmHWM`` at the end of the run, imports included; the child also says whether pandas was
imported on the way.

    .venv/bin/python benchmarks/sql_memory.py [--rows 10000000] [--repeats 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from _common import markdown_table, peak_child, print_machine
from sql_pushdown import duckdb_file

_CHILD = peak_child(
    """
if kind == "pushdown":
    import sqlalchemy as sa
    from faucet_core.profile import SqlTable, profile_sql
    engine = sa.create_engine(f"duckdb:///{path}", connect_args={"read_only": True})
    profile_sql(SqlTable(engine, "orders"))
else:
    import duckdb
    con = duckdb.connect(path, read_only=True)
    con.execute("SET enable_progress_bar = false")
    con.execute("SUMMARIZE orders").fetchall()
""",
    ', "pandas": "pandas" in sys.modules',
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    path = duckdb_file(args.rows)
    body = []
    peaks: dict[str, list[float]] = {"pushdown": [], "summarize": []}
    for round_ in range(1, args.repeats + 1):
        load = os.getloadavg()[0]
        for kind in ("pushdown", "summarize"):
            done = subprocess.run(
                [sys.executable, "-c", _CHILD, kind, str(path)],
                capture_output=True,
                text=True,
                check=True,
            )
            r = json.loads(done.stdout.strip().splitlines()[-1])
            peaks[kind].append(r["peak"])
            label = "faucet profile_sql" if kind == "pushdown" else "DuckDB SUMMARIZE"
            row = [str(round_), f"{load:.2f}", label, f"{r['peak']:.1f}"]
            row += [f"{r['cpu']:.2f}", f"{r['wall']:.1f}", "yes" if r["pandas"] else "no"]
            body.append(row)
            print(" | ".join(row), flush=True)
    print()
    header = ["round", "load", "run", "peak RSS MiB", "CPU s", "wall s", "pandas imported"]
    print(markdown_table(header, body))
    ratio = min(peaks["pushdown"]) / min(peaks["summarize"])
    print(f"\nbest pushdown peak / best SUMMARIZE peak: {ratio:.2f}x ({args.rows:,} rows)\n")
    print_machine()


if __name__ == "__main__":
    main()
