"""Benchmark 3: peak memory while streaming 10,000,000 rows through the profiler.

Each run is a fresh Python process (``--child``) so that its peak RSS (``VmHWM`` from
``/proc/self/status``, ``ru_maxrss`` elsewhere) belongs to that run alone. Sources, both
generated on the fly (never materialized):

* ``arrow``: a ``pyarrow.RecordBatchReader`` over 65,536-row batches of the 10 mixed
  columns of benchmark 1;
* ``dicts``: a generator of dict records with the same content, built 8,192 at a time.

Each is run at 100,000 rows (the reference), 1,000,000 and 10,000,000 rows, plus a
control that drains the largest source without profiling it (the source's own memory).

    .venv/bin/python benchmarks/profile_memory.py [--max-rows N] [--dict-max-rows N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from _common import (
    current_rss_mib,
    markdown_table,
    mixed_batch,
    mixed_batches,
    mixed_records,
    peak_rss_mib,
    print_machine,
    rate,
)


def child(kind: str, rows: int, profile: bool) -> None:
    import pyarrow as pa

    import faucet_core

    # Import everything the run will touch (pandas is never imported on these paths).
    faucet_core.profile(mixed_batch(1_000))
    faucet_core.profile(mixed_batch(1_000).to_pylist())
    rss_ready = current_rss_mib()
    peak_ready = peak_rss_mib()
    if kind == "arrow":
        source = pa.RecordBatchReader.from_batches(mixed_batch(1).schema, mixed_batches(rows))
    else:
        source = mixed_records(rows)
    start = time.perf_counter()
    if profile:
        result = faucet_core.profile(source)
        assert result.row_count == rows, result.row_count
    else:
        for _ in source:
            pass
    seconds = time.perf_counter() - start
    print(
        json.dumps(
            {
                "rss_ready": rss_ready,
                "peak_ready": peak_ready,
                "peak": peak_rss_mib(),
                "seconds": seconds,
            }
        )
    )


def run(kind: str, rows: int, profile: bool) -> dict[str, float]:
    argv = [sys.executable, __file__, "--child", kind, str(rows)]
    if not profile:
        argv.append("--no-profile")
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-rows", type=int, default=10_000_000)
    parser.add_argument("--dict-max-rows", type=int, default=10_000_000)
    parser.add_argument("--child", nargs=2, metavar=("KIND", "ROWS"), help=argparse.SUPPRESS)
    parser.add_argument("--no-profile", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), not args.no_profile)
        return

    plan = []
    for kind, top in (("arrow", args.max_rows), ("dicts", args.dict_max_rows)):
        sizes = sorted({100_000, min(1_000_000, top), top})
        plan += [(kind, rows, True) for rows in sizes]
        plan.append((kind, top, False))
    body = []
    reference: dict[str, float] = {}
    for kind, rows, profile in plan:
        r = run(kind, rows, profile)
        grown = r["peak"] - r["peak_ready"]
        if profile and rows == 100_000:
            reference[kind] = r["peak"]
        label = {
            "arrow": "RecordBatchReader (65,536-row batches)",
            "dicts": "generator of dicts",
        }[kind]
        what = "profile" if profile else "drain only (no profiling)"
        vs_ref = f"{r['peak'] - reference[kind]:+.1f}" if profile else ""
        body.append(
            [
                label,
                what,
                f"{rows:,}",
                f"{r['seconds']:.1f}",
                rate(rows, r["seconds"]),
                f"{r['rss_ready']:.1f}",
                f"{r['peak']:.1f}",
                f"{grown:+.1f}",
                vs_ref,
            ]
        )
        print(" | ".join(body[-1]), flush=True)

    print()
    print("### Peak RSS, one fresh process per run (MiB)")
    print()
    header = [
        "source",
        "run",
        "rows",
        "seconds",
        "rows/s",
        "RSS ready",
        "peak RSS",
        "peak - ready peak",
        "peak vs 100k run",
    ]
    print(markdown_table(header, body))
    print()
    print(
        "RSS ready: resident set after imports and a 1,000-row warm-up, before the source "
        "is opened. peak - ready peak: growth of VmHWM during the run."
    )
    print()
    print_machine()


if __name__ == "__main__":
    main()
