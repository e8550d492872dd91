"""Benchmark 2: the records path (dicts) on 200,000 records x 10 columns.

The same 10 mixed columns as benchmark 1, as Python dicts (ints, floats, str, bool,
None for the 1 % null floats, ``datetime`` for the timestamps). Measured:

* a materialized ``list`` of dicts (built before timing);
* a generator over that list (the profiler's streaming path: batches of 8,192 records);
* a generator that builds the dicts on the fly, and the generation alone, so the
  profiler's own cost is the difference.

    .venv/bin/python benchmarks/profile_records.py [--rows N] [--repeats R]
"""

from __future__ import annotations

import argparse
import time

from _common import markdown_table, mixed_records, print_machine, rate, time_runs

import faucet_core


def drain(records: object) -> None:
    for _ in records:  # type: ignore[attr-defined]
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows, repeats = args.rows, args.repeats

    start = time.perf_counter()
    records = list(mixed_records(rows))
    print(f"built {rows:,} dict records in {time.perf_counter() - start:.1f} s")
    warm = records[:5_000]
    cases = [
        ("faucet, list of dicts", lambda: faucet_core.profile(records)),
        ("faucet, generator over the list", lambda: faucet_core.profile(r for r in records)),
        (
            "faucet, generator building dicts on the fly (includes generation)",
            lambda: faucet_core.profile(mixed_records(rows)),
        ),
        ("generation alone (drain the same generator)", lambda: drain(mixed_records(rows))),
    ]
    timings = []
    for label, fn in cases:
        timing = time_runs(fn, repeats, warmup=lambda: faucet_core.profile(warm))
        timings.append((label, timing))
        print(f"{label}: {[round(s, 3) for s in timing.seconds]} s", flush=True)

    print()
    print(f"### Records path: {rows:,} records x 10 columns, best and median of {repeats}")
    print()
    body = [
        [label, f"{t.best:.3f}", f"{t.median:.3f}", rate(rows, t.best), rate(rows, t.median)]
        for label, t in timings
    ]
    net = timings[2][1].median - timings[3][1].median
    body.append(
        ["faucet on the fly minus generation (medians)", "", f"{net:.3f}", "", rate(rows, net)]
    )
    print(markdown_table(["input", "best s", "median s", "rows/s (best)", "rows/s (median)"], body))
    print()
    print_machine()


if __name__ == "__main__":
    main()
