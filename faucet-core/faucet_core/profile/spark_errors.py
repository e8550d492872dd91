"""Why a Spark profiling job failed, in words a user can act on.

A Python worker that cannot import what the task needs (``faucet_core``, ``pyarrow``,
``pydantic``...) fails the job with Spark's ``PythonException: An exception was thrown from
the Python worker``, the useful line (``ModuleNotFoundError: No module named 'pydantic'``)
buried at the end of the worker's traceback. The usual cause in local mode: the driver
runs in a virtualenv and ``PYSPARK_PYTHON`` is unset, so the workers run the ``python3``
found on ``PATH``. The text here names the failed import, the Python the workers ran (asked
of a worker by a job that imports nothing of faucet's) and the driver's, and the fix.

Never imports pyspark: it reads the exception's text and the DataFrame's session.
"""

from __future__ import annotations

import re
import sys
from functools import partial
from typing import Any

__all__ = ["python_error_line", "worker_import_error", "worker_python"]

_ERROR_LINE = re.compile(r"^(?:[A-Za-z_][\w.]*\.)?[A-Za-z_]\w*(?:Error|Exception): .+$")
_IMPORT_ERRORS = ("ModuleNotFoundError", "ImportError")


def python_error_line(text: str) -> str | None:
    """The last ``SomeError: message`` line of a Python traceback inside ``text``."""
    found = [line.strip() for line in text.splitlines() if _ERROR_LINE.match(line.strip())]
    found = [line for line in found if not line.startswith(("pyspark.", "py4j."))] or found
    return found[-1] if found else None


def worker_python(df: Any) -> str | None:
    """``/path/to/python (Python 3.x.y)`` as a Python worker of ``df``'s session reports it,
    or None when the session cannot run a job (Spark Connect, a stopped session)."""
    try:
        context = df.sparkSession.sparkContext
        # sys and getattr pickle by reference: the worker needs nothing but its stdlib.
        ask = partial(getattr, sys)
        executable, version = context.parallelize(["executable", "version"], 1).map(ask).collect()
    except Exception:  # best effort: the caller still reports the failed import
        return None
    return f"{executable} (Python {str(version).split()[0]})"


def worker_import_error(df: Any, exc: BaseException) -> str | None:
    """The explanation of a job whose Python workers could not import a module, else None."""
    line = python_error_line(str(exc))
    if line is None or not line.startswith(_IMPORT_ERRORS):
        return None
    ran = worker_python(df)
    driver = f"{sys.executable} (Python {sys.version.split()[0]})"
    workers = f"they ran {ran}" if ran else "the Python they ran could not be asked"
    return (
        f"the Spark Python workers could not import what the profiler needs ({line}); "
        f"{workers}, the driver runs {driver}. Set PYSPARK_PYTHON to a Python that has "
        f"faucet_core and its dependencies (in local mode the driver's own: "
        f"PYSPARK_PYTHON={sys.executable}), see docs/spark.md"
    )
