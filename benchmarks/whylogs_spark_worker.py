"""whylogs' own Spark integration on the benchmark's Parquet file (``spark_profile.py``).

Runs in ``benchmarks/.venv-whylogs-spark`` (whylogs 1.6 with its ``spark`` extra, which
brings PySpark 3.5 and needs numpy < 2). Starts ``local[2]``, warms up on 10,000 rows,
then times ``collect_dataset_profile_view`` on the file and prints one JSON line.

    benchmarks/.venv-whylogs-spark/bin/python benchmarks/whylogs_spark_worker.py PARQUET
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("WHYLOGS_NO_ANALYTICS", "True")  # no usage-statistics call home
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
os.environ["PYSPARK_PYTHON"] = sys.executable

from pyspark.sql import SparkSession
from whylogs.api.pyspark.experimental import collect_dataset_profile_view


def peak_rss_kib() -> int:
    """This process's peak RSS (VmHWM: unlike ru_maxrss, not inherited from the parent
    that started it)."""
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    t0 = time.perf_counter()
    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.files.maxPartitionBytes", str(32 * 1024 * 1024))
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    collect_dataset_profile_view(input_df=spark.read.parquet(sys.argv[1]).limit(10_000))
    startup = time.perf_counter() - t0
    start = time.perf_counter()
    view = collect_dataset_profile_view(input_df=spark.read.parquet(sys.argv[1]))
    seconds = time.perf_counter() - start
    assert view is not None
    print(
        json.dumps(
            {
                "seconds": seconds,
                "startup_seconds": startup,
                "driver_peak_mib": peak_rss_kib() / 1024,
            }
        )
    )
    spark.stop()


if __name__ == "__main__":
    main()
