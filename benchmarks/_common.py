"""Shared helpers for the profiler benchmarks: seeded test data, timing, machine facts.

Not a test module and not part of the package: the benchmark scripts next to it
import it by file name (``python benchmarks/<script>.py`` puts this folder on
``sys.path``).
"""

from __future__ import annotations

import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

LOAD_AT_START = os.getloadavg()[0]
"""1-minute load average when the benchmark script started (other work skews timings)."""
BENCH_DIR = Path(__file__).resolve().parent
DATA_DIR = BENCH_DIR / ".data"
SEED = 42
BATCH_ROWS = 65_536
"""Rows per generated batch (the profiler's own Arrow batch size)."""

COUNTRIES = np.array(["DE", "FR", "US", "GB", "NL", "ES", "IT", "PL", "SE", "JP", "BR", "IN"])
STATUSES = np.array(["new", "paid", "shipped", "delivered", "returned", "cancelled"])
_EPOCH_US = int(np.datetime64("2024-01-01T00:00:00", "us").astype(np.int64))
_YEAR_US = 365 * 86_400 * 1_000_000
_ODD = 0x9E3779B97F4A7C15 & ((1 << 40) - 1) | 1
"""An odd multiplier: ``id * _ODD mod 2**40`` is a bijection, so order refs stay unique."""

COLUMNS_DOC = """\
| column | Arrow type | content |
|---|---|---|
| `id` | int64 | unique, sequential |
| `customer_id` | int64 | uniform in [0, 200,000): high cardinality with repeats |
| `quantity` | int64 | uniform in [1, 20]: low-cardinality integer |
| `amount` | float64 | log-normal, 1 % nulls |
| `discount` | float64 | uniform [0, 0.3), 1 % nulls |
| `country` | string | 12 values |
| `status` | string | 6 values |
| `order_ref` | string | unique, e.g. `ord-734029184512` (up to 17 chars) |
| `is_paid` | bool | 70 % true |
| `created_at` | timestamp[us] | uniform over 2024, microsecond resolution |
"""


def mixed_batch(rows: int, start: int = 0, seed: int = SEED) -> pa.RecordBatch:
    """``rows`` rows of the 10-column mixed table, row ids ``start .. start + rows - 1``.

    Deterministic for a given (rows, start, seed): a stream of batches and one big
    table built from the same starts hold the same ids and order refs.
    """
    rng = np.random.default_rng([seed, start])
    ids = np.arange(start, start + rows, dtype=np.int64)
    refs = (ids * _ODD) & ((1 << 40) - 1)
    null_amount = rng.random(rows) < 0.01
    null_discount = rng.random(rows) < 0.01
    created = _EPOCH_US + rng.integers(0, _YEAR_US, rows, dtype=np.int64)
    return pa.RecordBatch.from_pydict(
        {
            "id": pa.array(ids),
            "customer_id": pa.array(rng.integers(0, 200_000, rows, dtype=np.int64)),
            "quantity": pa.array(rng.integers(1, 21, rows, dtype=np.int64)),
            "amount": pa.array(np.round(rng.lognormal(3.0, 1.0, rows), 2), mask=null_amount),
            "discount": pa.array(rng.random(rows) * 0.3, mask=null_discount),
            "country": pa.array(COUNTRIES[rng.integers(0, len(COUNTRIES), rows)]),
            "status": pa.array(STATUSES[rng.integers(0, len(STATUSES), rows)]),
            "order_ref": pc.binary_join_element_wise(
                "ord-", pc.cast(pa.array(refs), pa.string()), ""
            ),
            "is_paid": pa.array(rng.random(rows) < 0.7),
            "created_at": pa.array(created.astype("datetime64[us]")),
        }
    )


def mixed_batches(rows: int, batch_rows: int = BATCH_ROWS) -> Iterator[pa.RecordBatch]:
    """The mixed table as a stream of batches, generated on the fly (bounded memory)."""
    for start in range(0, rows, batch_rows):
        yield mixed_batch(min(batch_rows, rows - start), start)


def mixed_table(rows: int) -> pa.Table:
    """The mixed table in memory, combined into one chunk per column."""
    return pa.Table.from_batches(list(mixed_batches(rows))).combine_chunks()


def mixed_records(rows: int, batch_rows: int = 8_192) -> Iterator[dict[str, Any]]:
    """The mixed table as dict records (Python ints, floats, str, bool, None, datetime),
    generated batch by batch: never more than ``batch_rows`` dicts alive at once."""
    for batch in mixed_batches(rows, batch_rows):
        yield from batch.to_pylist()


# -- timing -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Timing:
    """Wall-clock and process CPU seconds of repeated runs of one measurement."""

    seconds: tuple[float, ...]
    cpu: tuple[float, ...] = ()

    @property
    def best(self) -> float:
        return min(self.seconds)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def best_cpu(self) -> float:
        return min(self.cpu) if self.cpu else float("nan")


def time_once(fn: Callable[[], Any]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call of ``fn``, after a garbage collection."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def time_runs(
    fn: Callable[[], Any], repeats: int, warmup: Callable[[], Any] | None = None
) -> Timing:
    """Run ``warmup`` once (untimed), then time ``fn`` ``repeats`` times."""
    if warmup is not None:
        warmup()
    runs = [time_once(fn) for _ in range(repeats)]
    return Timing(tuple(w for w, _ in runs), tuple(c for _, c in runs))


def rate(rows: int, seconds: float) -> str:
    """Rows per second, human-sized."""
    per_s = rows / seconds
    if per_s >= 1e6:
        return f"{per_s / 1e6:.2f} M"
    return f"{per_s / 1e3:.0f} k"


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# -- memory -------------------------------------------------------------------------------
def peak_rss_mib() -> float:
    """This process's peak resident set size (VmHWM; ru_maxrss where /proc is missing)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / 1024 / (1024 if sys.platform == "darwin" else 1)


def current_rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


# -- machine --------------------------------------------------------------------------------
def peak_child(body: str, extra: str = "") -> str:
    """A ``python -c`` script that runs ``body`` (with ``kind`` and ``path`` from its
    arguments) and prints its peak resident memory (MiB, ``VmHWM``), CPU and wall seconds
    as one JSON line; ``extra`` adds ``, "key": value`` pairs to that line."""
    return (
        "import json, sys, time\n"
        "def hwm():\n"
        '    with open("/proc/self/status") as fh:\n'
        "        for line in fh:\n"
        '            if line.startswith("VmHWM"):\n'
        "                return int(line.split()[1]) / 1024\n"
        "kind, path = sys.argv[1], sys.argv[2]\n"
        "cpu, wall = time.process_time(), time.perf_counter()\n"
        f"{body.strip()}\n"
        'print(json.dumps({"peak": hwm(), "cpu": time.process_time() - cpu,\n'
        f'                  "wall": time.perf_counter() - wall{extra}}}))\n'
    )


def run_worker(script: str, args: list[str], python: str = sys.executable) -> dict[str, Any]:
    """Run ``script --worker *args`` in a fresh process (its own peak RSS, a cold start) and
    return the JSON object its last line of output holds."""
    import json
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(BENCH_DIR.parent)}
    done = subprocess.run(
        [python, str(Path(script).resolve()), "--worker", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"worker {args} failed:\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def print_machine() -> None:
    """The closing section every benchmark prints: the machine and the exact command."""
    print("Machine:")
    print()
    print(machine_info())
    print(f"- command: `{' '.join([os.path.relpath(sys.executable), *sys.argv])}`")


def machine_info() -> str:
    """A markdown list: CPU, cores, memory, Python and library versions."""
    from importlib.metadata import version

    import pandas as pd

    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "unknown"
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            kib = int(info.readline().split()[1])
            mem = f"{kib / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    libs = ", ".join(
        f"{name} {version(name)}"
        for name in ("faucet-dagster", "pyarrow", "pandas", "numpy", "datasketches", "polars")
        if _installed(name)
    )
    return "\n".join(
        [
            f"- CPU: {cpu}, {os.cpu_count()} cores (`nproc`)",
            f"- memory: {mem} total",
            f"- OS: {platform.platform()}",
            f"- Python {platform.python_version()} ({sys.executable})",
            f"- {libs}",
            f"- pandas default string dtype here: {pd.Series(['a']).dtype}",
            f"- code: {code_version()}",
            f"- load average (1 min) at start {LOAD_AT_START:.2f}, at end {os.getloadavg()[0]:.2f} "
            "(this run itself adds about 1.0; more means other work shared the 2 cores)",
        ]
    )


def code_version() -> str:
    """Git commit, whether the tree is dirty, and a digest of faucet_core/profile/*.py
    (the profiler changes under uncommitted work too: the digest says which code ran)."""
    import hashlib
    import subprocess

    root = BENCH_DIR.parent
    digest = hashlib.sha256()
    for source in sorted((root / "faucet-core" / "faucet_core" / "profile").glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            [
                "git",
                "-C",
                str(root),
                "status",
                "--porcelain",
                "--",
                "faucet-core/faucet_core/profile",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "unknown", ""
    state = " + uncommitted changes in faucet_core/profile" if dirty else ""
    return f"commit {commit}{state}; faucet_core/profile sha256 {digest.hexdigest()[:12]}"


def _installed(name: str) -> bool:
    from importlib.metadata import PackageNotFoundError, version

    try:
        version(name)
    except PackageNotFoundError:
        return False
    return True
