"""Benchmark: profiling a Parquet table on Spark (``local[1]``/``local[2]``) vs one process.

The same seeded 10-column table (see ``_common.COLUMNS_DOC``) is written once as Parquet
under ``benchmarks/.data/`` (1M and 10M rows). Each contestant runs in its own fresh
process, so its peak RSS is its own:

* ``stream``: ``faucet_core.profile.files.profile_file`` (one process, Arrow batches);
* ``spark-N``: ``profile(spark.read.parquet(...))`` on ``local[N]``: one partial profile
  per partition on the executors, merged on the driver. Reported: the profile call's wall
  time (session start-up and a warm-up job excluded and given apart), the Python driver's
  peak RSS, the JVM's
  peak RSS (driver and executors share it in local mode), bytes of each partial returned to
  the driver, and the driver's cost to decode and merge one partial;
* ``whylogs-spark``: whylogs' own Spark integration, if ``benchmarks/.venv-whylogs-spark``
  exists.

    .venv/bin/python benchmarks/spark_profile.py [--rows 1000000 10000000] [--cores 1 2]

``--floor`` measures instead faucet against the transfer floor on ``local[2]``: in each of
``--processes`` fresh processes, one Spark session warms up on the same Parquet file (one
untimed drain and one untimed profile), then runs ``--rounds`` interleaved rounds of a
``mapInArrow`` task that only drains its Arrow batches (counts their rows) and
``profile(spark.read.parquet(path))`` end to end (the seed profile, the job and the merge).

    .venv/bin/python benchmarks/spark_profile.py --floor [--rows 10000000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import _common
import pyarrow as pa
import pyarrow.parquet as pq
from _common import BENCH_DIR, DATA_DIR, LOAD_AT_START, mixed_batches, peak_rss_mib

PARTITION_BYTES = 32 * 1024 * 1024  # Spark splits the files into ~32 MB partitions
WHYLOGS_SPARK_PYTHON = BENCH_DIR / ".venv-whylogs-spark" / "bin" / "python"


def parquet_file(rows: int) -> Path:
    path = DATA_DIR / f"spark_mixed_{rows}.parquet"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        writer = None
        for batch in mixed_batches(rows):
            if writer is None:
                writer = pq.ParquetWriter(tmp, batch.schema)
            writer.write_batch(batch, row_group_size=1_000_000)
        assert writer is not None
        writer.close()
        tmp.rename(path)
    return path


def _jvm_peak_kib() -> int:
    """Peak RSS of this process's Java children (the local Spark JVM)."""
    peak = 0
    me = str(os.getpid())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("PPid", "").strip() == me and "java" in fields.get("Name", ""):
            peak = max(peak, int(fields.get("VmHWM", "0 kB").split()[0]))
    return peak


def worker_stream(path: str) -> dict[str, Any]:
    from faucet_core.profile.files import profile_file

    start = time.perf_counter()
    prof = profile_file(path)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "rows": prof.row_count}


def worker_spark(path: str, cores: int) -> dict[str, Any]:
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    from faucet_core import profile
    from faucet_core.profile import TableProfile
    from faucet_core.profile.spark import partial_payloads

    t0 = time.perf_counter()
    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.files.maxPartitionBytes", str(PARTITION_BYTES))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    # warm-up: the JVM's first jobs and the Python workers' start (imports) are start-up
    profile(spark.range(0, 10_000, numPartitions=cores))
    startup = time.perf_counter() - t0
    # profile_spark's two steps, timed apart: the Spark job, then the merge on the driver
    start = time.perf_counter()
    seed, payloads = partial_payloads(spark.read.parquet(path))
    job_seconds = time.perf_counter() - start
    start = time.perf_counter()
    merged = seed
    for payload in payloads:
        merged = merged.merge(TableProfile.from_json(payload))
    merge_seconds = time.perf_counter() - start
    seconds = job_seconds + merge_seconds
    prof = merged
    sizes = [len(p) for p in payloads]
    result = {
        "seconds": seconds,
        "startup_seconds": startup,
        "rows": prof.row_count,
        "partitions": len(payloads),
        "partial_bytes_mean": sum(sizes) / len(sizes),
        "partial_bytes_max": max(sizes),
        "merge_ms_per_partial": 1000 * merge_seconds / len(payloads),
        "job_seconds": job_seconds,
        "jvm_peak_mib": _jvm_peak_kib() / 1024,
    }
    spark.stop()
    return result


def drain(batches: Any) -> Any:
    """The floor's task: read every Arrow batch Spark hands the Python worker, keep nothing."""
    rows = 0
    for batch in batches:
        rows += batch.num_rows
    yield pa.RecordBatch.from_arrays([pa.array([rows], pa.int64())], names=["rows"])


def worker_floor(path: str, cores: int, rounds: int) -> dict[str, Any]:
    """Interleaved drain / profile rounds in one warmed-up session (see the module doc)."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    from faucet_core import profile

    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.files.maxPartitionBytes", str(PARTITION_BYTES))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")

    def run_drain() -> float:
        start = time.perf_counter()
        rows = spark.read.parquet(path).mapInArrow(drain, "rows long").collect()
        seconds = time.perf_counter() - start
        assert sum(r["rows"] for r in rows) > 0
        return seconds

    def run_profile() -> float:
        start = time.perf_counter()
        profile(spark.read.parquet(path))
        return time.perf_counter() - start

    def run_drain_large() -> float:
        # the same drain with the batches the profile job asks Spark for (65,536 rows)
        from faucet_core.profile.profiler import ARROW_BATCH_ROWS
        from faucet_core.profile.spark import arrow_batches_of

        with arrow_batches_of(spark.read.parquet(path), ARROW_BATCH_ROWS):
            return run_drain()

    warm = {"drain": run_drain(), "profile": run_profile(), "drain_large": run_drain_large()}
    drains, profiles, large = [], [], []
    for _ in range(rounds):
        drains.append(run_drain())
        profiles.append(run_profile())
        large.append(run_drain_large())
    spark.stop()
    return {"warm_up": warm, "drain": drains, "profile": profiles, "drain_large": large}


def floor_main(rows: int, rounds: int, processes: int) -> None:
    import statistics

    path = str(parquet_file(rows))
    print(f"load average at start: {LOAD_AT_START:.2f} (1 min), cores: {os.cpu_count()}")
    drains: list[float] = []
    profiles: list[float] = []
    large: list[float] = []
    for number in range(processes):
        out = run_worker(["floor", path, "2", str(rounds)])
        drains += out["drain"]
        profiles += out["profile"]
        large += out["drain_large"]
        print(f"process {number + 1}: {json.dumps(out)}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    drain_s, profile_s = statistics.median(drains), statistics.median(profiles)
    print()
    print(f"| local[2], {rows:,} rows | median s | best s | runs |")
    print("|---|---|---|---|")
    floor = "drain-only `mapInArrow` (floor)"
    print(f"| {floor} | {drain_s:.2f} | {min(drains):.2f} | {len(drains)} |")
    large_s = statistics.median(large)
    print(f"| the same, 65,536-row batches | {large_s:.2f} | {min(large):.2f} | {len(large)} |")
    print(f"| faucet `profile(df)` | {profile_s:.2f} | {min(profiles):.2f} | {len(profiles)} |")
    print()
    ratio = profile_s / drain_s
    verdict = "meets" if ratio <= 1.2 else "MISSES"
    print(
        f"faucet / floor: **{ratio:.2f}x** (medians), {min(profiles) / min(drains):.2f}x (bests) "
        f"({verdict} the <= 1.2x goal); against the drain of 65,536-row batches "
        f"{profile_s / large_s:.2f}x (medians)"
    )


def run_worker(args: list[str], python: str = sys.executable) -> dict[str, Any]:
    return _common.run_worker(__file__, args, python)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--cores", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--whylogs-max-rows", type=int, default=1_000_000)
    parser.add_argument("--worker", nargs="+")
    parser.add_argument("--floor", action="store_true", help="faucet vs a drain-only task")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    if args.worker:
        kind, path, *rest = args.worker
        if kind == "floor":
            print(json.dumps(worker_floor(path, int(rest[0]), int(rest[1]))))
            return
        out = worker_stream(path) if kind == "stream" else worker_spark(path, int(rest[0]))
        out["driver_peak_mib"] = peak_rss_mib()
        print(json.dumps(out))
        return
    if args.floor:
        floor_main(max(args.rows), args.rounds, args.processes)
        return
    print(f"load average at start: {LOAD_AT_START:.2f} (1 min), cores: {os.cpu_count()}")
    lines = [
        "| contestant | rows | seconds | rows/s | driver peak RSS MiB | JVM peak RSS MiB "
        "| partitions | bytes per partial (mean / max) | merge ms per partial |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for rows in args.rows:
        path = str(parquet_file(rows))
        runs = [("stream", run_worker(["stream", path]))]
        runs += [(f"spark local[{c}]", run_worker(["spark", path, str(c)])) for c in args.cores]
        if WHYLOGS_SPARK_PYTHON.exists() and rows <= args.whylogs_max_rows:
            worker = BENCH_DIR / "whylogs_spark_worker.py"
            done = subprocess.run(
                [str(WHYLOGS_SPARK_PYTHON), str(worker), path],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode == 0:
                runs.append(("whylogs spark", json.loads(done.stdout.strip().splitlines()[-1])))
            else:
                print(f"whylogs spark failed: {done.stderr[-1500:]}")
        for name, r in runs:
            jvm = f"{r['jvm_peak_mib']:.0f}" if "jvm_peak_mib" in r else "-"
            parts = r.get("partitions", "-")
            sizes = (
                f"{r['partial_bytes_mean']:,.0f} / {r['partial_bytes_max']:,}"
                if "partial_bytes_mean" in r
                else "-"
            )
            merge = f"{r['merge_ms_per_partial']:.1f}" if "merge_ms_per_partial" in r else "-"
            startup = f" (+{r['startup_seconds']:.1f} s start-up)" if "startup_seconds" in r else ""
            line = (
                f"| {name} | {rows:,} | {r['seconds']:.1f}{startup} | "
                f"{rows / r['seconds']:,.0f} | {r['driver_peak_mib']:.0f} | {jvm} | {parts} | "
                f"{sizes} | {merge} |"
            )
            lines.append(line)
            print(line, json.dumps(r), flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
