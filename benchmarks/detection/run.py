"""Detection-quality benchmark: false alarms on stable days, recall on injected faults.

    .venv/bin/python benchmarks/detection/run.py              # full run, writes the results
    .venv/bin/python benchmarks/detection/run.py --seeds 2    # a quick look, prints only

Compares faucet's detector (zscore and iqr, default settings) with a literal reading of
the spec (``literal.py``) on the same profiles, and times ``detect_drift`` for 200
columns against a 20-run baseline. Writes ``benchmarks/results/detection.md``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
from corpus import CORPUS  # noqa: E402
from faults import FAULTS  # noqa: E402
from literal import literal_detect  # noqa: E402
from realreport import ranked, real_report  # noqa: E402
from realsim import RealResult, replay  # noqa: E402
from simulate import (  # noqa: E402
    EXAMPLE_DAY,
    FAULT_DAYS,
    IQR,
    PERSIST_FROM,
    ZSCORE,
    Finding,
    SeedResult,
    run_seed,
)
from tables import CALENDAR_COLUMNS, ORDERS_TYPES, TABLES, orders, to_arrow  # noqa: E402

from faucet_core import profile  # noqa: E402
from faucet_core.drift import detect_drift  # noqa: E402
from faucet_core.drift.limits import series_limit  # noqa: E402
from faucet_core.drift.stats import normal_quantile, student_t_quantile  # noqa: E402

RESULTS = HERE.parent / "results" / "detection.md"


def _run_all(seeds: int, days: int, workers: int, persist_seeds: int) -> list[SeedResult]:
    jobs = [
        (table, seed, days, table == "orders" and seed < persist_seeds)
        for table in TABLES
        for seed in range(seeds)
    ]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_seed, *job) for job in jobs]
        return [f.result() for f in futures]


SLOWEST_FIRST = ("flights", "tmy", "pizza", "glucose", "covid", "sst", "elecdemand")
"""Rough replay cost order, so that the two workers finish together."""


def _replay_corpus(workers: int) -> list[RealResult]:
    """Every corpus table, each replayed in one worker process, in corpus order."""
    names = sorted(CORPUS, key=lambda n: SLOWEST_FIRST.index(n) if n in SLOWEST_FIRST else 99)
    with ProcessPoolExecutor(max_workers=min(workers, 2)) as pool:
        done = dict(zip(names, pool.map(replay, names), strict=True))
    return [done[n] for n in CORPUS]


# -- aggregation --------------------------------------------------------------------------
View = tuple[str, str, frozenset[str]]
"""(label, detector, columns whose findings are ignored)."""

VIEWS: list[View] = [
    ("faucet zscore", "faucet zscore", frozenset()),
    ("faucet iqr", "faucet iqr", frozenset()),
    ("literal zscore", "literal zscore", frozenset()),
    ("literal zscore, date columns excluded", "literal zscore", CALENDAR_COLUMNS),
    ("literal iqr", "literal iqr", frozenset()),
    ("literal iqr, date columns excluded", "literal iqr", CALENDAR_COLUMNS),
]


def _seen(found: list[Finding], ignored: frozenset[str]) -> list[Finding]:
    return [f for f in found if f[0] not in ignored]


def _per100(count: int, total: int) -> str:
    return f"{100 * count / total:.2f}" if total else "-"


def _stable_table(results: list[SeedResult]) -> tuple[list[str], dict[str, Counter[str]]]:
    lines = [
        "| table | detector | stable table-runs | false alarms / 100 | days 5-9 (5-9 runs) "
        "| days 10+ | findings |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    causes: dict[str, Counter[str]] = {}
    for table in TABLES:
        for label, name, ignored in VIEWS:
            runs = [
                (d, _seen(found, ignored))
                for res in results
                if res.table == table
                for d, found in res.stable[name]
            ]
            alarms = sum(1 for _, found in runs if found)
            early = [found for d, found in runs if d < 10]
            late = [found for d, found in runs if d >= 10]
            lines.append(
                f"| {table} | {label} | {len(runs)} | **{_per100(alarms, len(runs))}** "
                f"| {_per100(sum(1 for f in early if f), len(early))} "
                f"| {_per100(sum(1 for f in late if f), len(late))} "
                f"| {sum(len(f) for _, f in runs)} |"
            )
            counter = causes.setdefault(f"{table} / {label}", Counter())
            for _, found in runs:
                counter.update(f"{c}.{m}" for c, m in set(found))
    return lines, causes


def _fault_table(results: list[SeedResult], key: str, views: list[View]) -> list[str]:
    lines = [
        "| fault | " + " | ".join(label for label, _, _ in views) + " |",
        "|---|" + "---:|" * len(views),
    ]
    for fault in FAULTS:
        cells = []
        for _, name, ignored in views:
            trials = [
                _seen(found, ignored)
                for res in results
                if res.table == "orders"
                for _, found in getattr(res, key)[name][fault.name]
            ]
            caught = named = other = 0
            for found in trials:
                on_column = [m for c, m in found if c == fault.column]
                caught += bool(on_column)
                named += any(m in fault.metrics for m in on_column)
                other += any(c != fault.column for c, _ in found)
            n = len(trials)
            cells.append(f"{named}/{n} ({caught}/{n}; {other})")
        lines.append(f"| {fault.name} | " + " | ".join(cells) + " |")
    return lines


def _persist_table(results: list[SeedResult], views: list[View]) -> list[str]:
    lines = [
        "| fault | " + " | ".join(label for label, _, _ in views) + " |",
        "|---|" + "---:|" * len(views),
    ]
    for fault in FAULTS:
        cells = []
        for _, name, _ignored in views:
            streaks = [r.persist[name][fault.name] for r in results if r.persist]
            cells.append(f"{statistics.median(streaks):g} ({min(streaks)}-{max(streaks)})")
        lines.append(f"| {fault.name} | " + " | ".join(cells) + " |")
    return lines


# -- timing -------------------------------------------------------------------------------
def _wide_day(seed: int, day: int) -> pa.Table:
    data = orders(seed, day)
    base = to_arrow(data, ORDERS_TYPES)
    arrays, names = [], []
    for copy in range(20):
        for name in base.column_names:
            arrays.append(base[name])
            names.append(f"{name}_{copy:02d}")
    return pa.table(arrays, names=names)


def _timing(repeats: int) -> dict[str, float]:
    days = [profile(_wide_day(0, d)) for d in range(21)]
    current, baseline = days[-1], days[:-1]
    out: dict[str, float] = {"columns": float(len(current.columns))}
    for label, fn in (
        ("faucet zscore", lambda: detect_drift(current, baseline, ZSCORE)),
        ("faucet iqr", lambda: detect_drift(current, baseline, IQR)),
        ("literal zscore", lambda: literal_detect(current, baseline, ZSCORE)),
    ):
        fn()  # warm: a long-running process has its t quantiles cached
        timed = [_timed_cpu(fn) for _ in range(repeats)]
        samples = sorted(wall for wall, _ in timed)
        out[f"{label} min ms"] = samples[0]
        out[f"{label} median ms"] = statistics.median(samples)
        out[f"{label} p90 ms"] = samples[int(0.9 * (len(samples) - 1))]
        out[f"{label} cpu ms"] = statistics.median(cpu for _, cpu in timed)
    cold, warm = [], []
    for _ in range(max(repeats // 3, 3)):  # interleaved, so machine load hits both alike
        warm.append(_timed(lambda: detect_drift(current, baseline, ZSCORE)))
        for cache in (series_limit, student_t_quantile, normal_quantile):
            cache.cache_clear()
        cold.append(_timed(lambda: detect_drift(current, baseline, ZSCORE)))
    out["faucet zscore cold-cache median ms"] = statistics.median(cold)
    out["faucet zscore warm-cache median ms"] = statistics.median(warm)
    out["findings"] = float(len(detect_drift(current, baseline, ZSCORE)))
    out["load average"] = os.getloadavg()[0]
    return out


def _timed(fn: Callable[[], object]) -> float:
    return _timed_cpu(fn)[0]


def _timed_cpu(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return 1000 * (time.perf_counter() - start), 1000 * (time.process_time() - cpu)


# -- report -------------------------------------------------------------------------------
def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"numpy {np.__version__}, pyarrow {pa.__version__}, {platform.system()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12, help="independent seeds per table")
    parser.add_argument("--days", type=int, default=60, help="days per seed")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--persist-seeds", type=int, default=4)
    parser.add_argument("--timing-repeats", type=int, default=30)
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, default=None)
    parser.add_argument(
        "--real-only",
        action="store_true",
        help="only the real public tables (needs the bench extra; seconds, prints only)",
    )
    args = parser.parse_args()
    write = args.write if args.write is not None else args.seeds >= 12 and not args.real_only

    started = time.perf_counter()
    real = _replay_corpus(args.workers)
    if args.real_only:
        print("\n".join(real_report(real)))
        seconds = ", ".join(f"{r.name} {r.seconds:.0f} s" for r in real)
        print(
            f"\nCorpus replay: {time.perf_counter() - started:.0f} s with {args.workers} "
            f"workers (per table, in its worker: {seconds}); 1-minute load average "
            f"{os.getloadavg()[0]:.1f}; {_revision()}; {_machine()}"
        )
        return
    results = _run_all(args.seeds, args.days, args.workers, args.persist_seeds)
    timing = _timing(args.timing_repeats)
    elapsed = time.perf_counter() - started

    stable, causes = _stable_table(results)
    fault_views = [VIEWS[0], VIEWS[1], VIEWS[3], VIEWS[5]]
    report = [
        "### False alarms on stable days",
        "",
        "A table-run alarms when it has any finding.",
        "",
        *stable,
        "",
        "### Injected faults (orders), each against a clean baseline",
        "",
        "Cell: runs where the fault's column was named with the right metric / trials "
        "(runs where the column was named at all; runs with a finding on another column).",
        "",
        *_fault_table(results, "faults", fault_views),
        "",
        "### The same fault again 7 days after it first joined the baseline (on_drift: warn)",
        "",
        *_fault_table(results, "repeats", fault_views),
    ]
    if any(r.persist for r in results):
        report += [
            "",
            f"### A fault that stays (from day {PERSIST_FROM}, every run joins the baseline)",
            "",
            "Runs in a row that name the fault's column before it is the norm, median (range):",
            "",
            *_persist_table(results, fault_views),
        ]
    report += ["", *real_report(real)]
    examples = next((r.examples for r in results if r.examples), {})
    if examples:
        report += [
            "",
            f"### faucet zscore's findings for each fault (seed 0, day {EXAMPLE_DAY})",
            "",
        ]
        for fault in FAULTS:
            report.append(f"- {fault.name} ({fault.description}):")
            report += [f"  - `{m}`" for m in examples.get(fault.name, [])] or ["  - (none)"]
    report += ["", "### Stable-run findings by column.metric (runs)", ""]
    for label, counter in causes.items():
        if counter:
            top = ", ".join(f"{k} {v}" for k, v in ranked(counter, 10))
            report.append(f"- {label}: {top}")
    report += [
        "",
        "### detect_drift timing",
        "",
        f"{timing['columns']:.0f} columns (the orders table 20 times) against a 20-run "
        f"baseline, {timing['findings']:.0f} findings, {args.timing_repeats} repeats, "
        f"1-minute load average {timing['load average']:.1f} on the shared machine:",
        "",
        "| detector | wall min ms | wall median ms | wall p90 ms | CPU median ms |",
        "|---|---:|---:|---:|---:|",
        *(
            f"| {label} | {timing[label + ' min ms']:.1f} | {timing[label + ' median ms']:.1f} "
            f"| {timing[label + ' p90 ms']:.1f} | {timing[label + ' cpu ms']:.1f} |"
            for label in ("faucet zscore", "faucet iqr", "literal zscore")
        ),
        "",
        "With the t-quantile caches cleared before each call (a fresh process), interleaved "
        f"with warm calls: {timing['faucet zscore cold-cache median ms']:.1f} ms median "
        f"(warm {timing['faucet zscore warm-cache median ms']:.1f} ms).",
        "",
        f"{sum(r.profiles for r in results)} profiles; fault days {FAULT_DAYS}; "
        f"elapsed {elapsed:.0f} s on {_machine()}",
    ]
    text = "\n".join(report)
    print(text)
    if write:
        _write(text, args, elapsed)


def _revision() -> str:
    """The package version and git commit the figures were measured at."""
    try:
        version = importlib.metadata.version("faucet-dagster")
    except importlib.metadata.PackageNotFoundError:
        version = "?"
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=HERE,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "?"
    return f"faucet-dagster {version}, commit {commit} + the working tree"


def _write(body: str, args: argparse.Namespace, elapsed: float) -> None:
    head = RESULTS.read_text(encoding="utf-8").split("<!-- results -->")[0]
    RESULTS.write_text(
        head
        + "<!-- results -->\n\n"
        + f"Command: `.venv/bin/python benchmarks/detection/run.py` (seeds {args.seeds}, "
        + f"days {args.days}, workers {args.workers}) at {_revision()}; run took "
        + f"{elapsed:.0f} s.\n\n"
        + body
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
