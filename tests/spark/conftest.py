"""One local Spark session (``local[2]``) for the whole Spark part of the suite.

The tests skip, with the reason, only where PySpark or a Java runtime is missing; with
``FAUCET_REQUIRE_SPARK=1`` (CI) they fail instead. The session never reaches the network:
no UI, driver bound to 127.0.0.1.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _unavailable(reason: str) -> None:
    if os.environ.get("FAUCET_REQUIRE_SPARK") == "1":
        pytest.fail(f"{reason}, but FAUCET_REQUIRE_SPARK=1")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        _unavailable("pyspark is not installed (pip install -e '.[spark]')")
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and Path(java_home, "bin", "java").exists()):
        _unavailable("no Java runtime (install a JDK 17 or set JAVA_HOME)")
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    warehouse = tmp_path_factory.mktemp("spark-warehouse")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("faucet-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", str(warehouse))
        .config("spark.driver.extraJavaOptions", f"-Djava.io.tmpdir={warehouse}")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    try:
        yield session
    finally:
        session.stop()
