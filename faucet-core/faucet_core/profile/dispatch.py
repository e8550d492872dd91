"""The one entry point that picks an engine for ``data``: nothing imports this module back.

A PySpark DataFrame goes to :mod:`faucet_core.profile.spark` (which runs the in-memory
:class:`~faucet_core.profile.profiler.Profiler` on the executors), a
:class:`~faucet_core.profile.sql_table.SqlTable` to :mod:`faucet_core.profile.sql` (queries
run by its database), anything else to the in-memory profiler. Each engine is imported only
when it is picked: profiling a SQL table never loads pyarrow's compute kernels or the
sketches, and a DataFrame never loads SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from faucet_core.profile.inputs import is_spark_dataframe
from faucet_core.profile.sql_table import is_sql_table

if TYPE_CHECKING:
    from faucet_core.config import ProfilingConfig
    from faucet_core.profile.table import TableProfile

__all__ = ["profile"]


def profile(
    data: Any, config: ProfilingConfig | None = None, *, threads: int | None = None
) -> TableProfile:
    """Profile ``data`` per column.

    ``data`` may be a pandas or polars DataFrame, a pyarrow Table, RecordBatch or
    RecordBatchReader, or an iterable of dict records (a generator is streamed in batches
    of :data:`~faucet_core.profile.profiler.RECORD_BATCH_ROWS`, never materialized). A
    PySpark DataFrame is profiled on its executors, partition by partition, and the
    partials merged here (:mod:`faucet_core.profile.spark`). A
    :class:`~faucet_core.profile.sql.SqlTable` is profiled by its database with aggregate
    queries (:mod:`faucet_core.profile.sql`). ``threads``: how many threads profile the
    columns of a batch in process (default
    :func:`~faucet_core.profile.profiler.default_threads`; the profile is the same
    whatever the number).
    """
    if is_spark_dataframe(data):
        from faucet_core.profile.spark import profile_spark

        return profile_spark(data, config)
    if is_sql_table(data):
        from faucet_core.profile.sql import profile_sql

        return profile_sql(data, config)
    from faucet_core.profile.profiler import Profiler

    profiler = Profiler(config, threads=threads)
    profiler.add(data)
    return profiler.finish()
