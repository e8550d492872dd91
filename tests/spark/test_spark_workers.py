"""Python workers that run another Python than the driver (``PYSPARK_PYTHON`` unset, the
driver in a virtualenv): the error names the failed import, both Pythons and the fix."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from typing import Any

import pytest

from faucet_core import profile
from faucet_core.errors import ProfilingInputError

OTHER_PYTHON = "/usr/bin/python3"


def _other_python() -> str:
    """The system Python, which lacks the profiler's dependencies, as ``path (Python x.y.z)``."""
    if shutil.which(OTHER_PYTHON) is None:
        pytest.skip(f"no {OTHER_PYTHON} to run the workers with")
    probe = "import sys; print(sys.version.split()[0]); import pydantic"
    done = subprocess.run([OTHER_PYTHON, "-c", probe], capture_output=True, text=True, check=False)
    if done.returncode == 0:
        pytest.skip(f"{OTHER_PYTHON} has pydantic: its workers would not fail")
    version = done.stdout.split()[0]
    if version.rsplit(".", 1)[0] != ".".join(map(str, sys.version_info[:2])):
        pytest.skip(f"{OTHER_PYTHON} is Python {version}: Spark refuses another minor version")
    return f"{OTHER_PYTHON} (Python {version})"


def test_workers_without_the_dependencies_are_named_with_the_fix(
    spark: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _other_python()
    df = spark.createDataFrame([(1, "a"), (2, "b")], ["x", "y"])
    # What PYSPARK_PYTHON unset means in local mode: the workers run another python3.
    monkeypatch.setattr(spark.sparkContext, "pythonExec", OTHER_PYTHON)
    with pytest.raises(ProfilingInputError) as info:
        profile(df)
    driver = f"{sys.executable} (Python {sys.version.split()[0]})"
    # The first import the workers miss: faucet_core itself where it is installed in the
    # driver's environment only (an editable install); where PYTHONPATH hands the workers
    # the source tree, the first third-party module the profiler's path imports (pyarrow
    # since faucet_core's names load lazily; pydantic before).
    expected = (
        "the Spark Python workers could not import what the profiler needs "
        "(ModuleNotFoundError: No module named 'MISSING'); "
        f"they ran {ran}, the driver runs {driver}. Set PYSPARK_PYTHON to a Python that has "
        "faucet_core and its dependencies (in local mode the driver's own: "
        f"PYSPARK_PYTHON={sys.executable}), see docs/spark.md"
    )
    pattern = re.escape(expected).replace("MISSING", "(faucet_core|pydantic|pyarrow)")
    assert re.fullmatch(pattern, str(info.value)), str(info.value)
    monkeypatch.undo()
    assert profile(df).row_count == 2  # the driver's Python again: the same job succeeds
