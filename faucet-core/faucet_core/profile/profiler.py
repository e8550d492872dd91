"""The streaming profiler: feed batches of any supported input, then ``finish()``.

Records are read :data:`RECORD_BATCH_ROWS` at a time and an iterable of Arrow
RecordBatches one batch at a time, so neither is ever drained into memory. A
record key that is not a string becomes its JSON text (``1`` -> ``"1"``,
``None`` -> ``"null"``), as ``json.dumps`` writes it, and a lone surrogate in a
column name becomes U+FFFD, as in values; two keys of one record that become the
same column are refused, as is any other key type.

The columns of one large Arrow batch are profiled in parallel threads (see
:func:`default_threads`); each column's state is still fed by one thread at a time, batch
after batch in order, so the profile is the one a single thread computes.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from itertools import chain, islice
from typing import Any

import pyarrow as pa

from faucet_core.config import ProfilingConfig
from faucet_core.errors import ProfilingInputError
from faucet_core.profile.arrow_path import update_from_arrow
from faucet_core.profile.columns import is_wanted
from faucet_core.profile.inputs import is_spark_dataframe
from faucet_core.profile.jsontext import key_text
from faucet_core.profile.model import ColumnProfile
from faucet_core.profile.names import is_utf8, scrub_text, unique_name
from faucet_core.profile.policy import PolicyState
from faucet_core.profile.sketches import SketchParams
from faucet_core.profile.sql_table import is_sql_table
from faucet_core.profile.state import ColumnState
from faucet_core.profile.table import TableProfile
from faucet_core.profile.values import update_from_values

__all__ = [
    "ARROW_BATCH_ROWS",
    "RECORD_BATCH_ROWS",
    "THREADS_ENV",
    "Profiler",
    "default_threads",
]

ARROW_BATCH_ROWS = 65_536
"""Columnar inputs are profiled this many rows at a time."""
RECORD_BATCH_ROWS = 8_192
"""Record iterables are read this many records at a time (a generator is never materialized)."""
THREADS_ENV = "FAUCET_PROFILE_THREADS"
"""Environment variable: how many threads profile the columns of a batch (1: no threads)."""
_MAX_DEFAULT_THREADS = 4
_PARALLEL_MIN_ROWS = 8192
"""Batches of fewer rows are profiled in the calling thread (handing a column to another
thread costs more than profiling it)."""


def default_threads() -> int:
    """Threads that profile the columns of one batch: :data:`THREADS_ENV` when set, else one
    plus the idle CPUs (those this process may run on, less the 1-minute load average,
    rounded), at most 4.

    Much of a column's work (Arrow kernels, numpy loops and sorts) runs without holding
    Python's GIL, so on an idle core the columns of a batch profile side by side; on cores
    that other work keeps busy a second thread only adds its overhead (measured in
    ``benchmarks/results/profiling.md``)."""
    text = os.environ.get(THREADS_ENV, "").strip()
    if text:
        try:
            return max(1, int(text))
        except ValueError:
            raise ProfilingInputError(
                f"{THREADS_ENV}={text!r} is not a whole number of threads (1 turns threads off)"
            ) from None
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    try:
        idle = round(cpus - os.getloadavg()[0])
    except OSError:  # no load average: count every CPU as idle
        idle = cpus
    return max(1, min(cpus, 1 + idle, _MAX_DEFAULT_THREADS))


class Profiler:
    """Accumulates a :class:`TableProfile` over batches in bounded memory.

    >>> p = Profiler()
    >>> p.add([{"id": 1, "region": "eu"}, {"id": 2}])
    >>> prof = p.finish()
    >>> prof.row_count, prof["region"].null_rate
    (2, 0.5)
    """

    def __init__(
        self, config: ProfilingConfig | None = None, *, threads: int | None = None
    ) -> None:
        self.config = config or ProfilingConfig()
        self.threads = default_threads() if threads is None else max(1, threads)
        """Threads profiling the columns of a large batch (1: only the calling thread)."""
        self._cost: dict[str, float] = {}
        self.params = SketchParams(
            top_values=self.config.top_values,
            categorical_max_distinct=self.config.categorical_max_distinct,
        )
        self._rows = 0
        self._states: dict[str, ColumnState] = {}
        self._policies: dict[str, PolicyState] = {}
        self._skipped: set[str] = set()
        self._rejected: set[str] = set()
        self._finished = False
        if self.config.columns is not None:
            for name in self.config.columns:
                self._column(name)

    # -- column bookkeeping ---------------------------------------------------------------
    def _column(self, name: str) -> ColumnState | None:
        state = self._states.get(name)
        if state is not None:
            return state
        if name in self._rejected or name in self._skipped:
            return None
        if not is_wanted(self.config, name):
            self._rejected.add(name)
            return None
        if len(self._states) >= self.config.max_columns:
            self._skipped.add(name)
            return None
        state = ColumnState(name, self.params)
        state.add_rows(self._rows, self._rows)  # absent from every earlier record
        self._states[name] = state
        if self.config.policy is not None and self.config.policy.rules:
            policy = PolicyState(self.config.policy, name)
            if policy.labels:
                for label in policy.labels:
                    state.classify(label)
            self._policies[name] = policy
        return state

    def _policy(self, name: str) -> PolicyState | None:
        policy = self._policies.get(name)
        return None if policy is None or policy.done else policy

    def _pad(self, rows: int, seen: set[str]) -> None:
        for name, state in self._states.items():
            if name not in seen:
                state.add_rows(rows, rows)

    # -- feeding --------------------------------------------------------------------------
    def add(self, data: Any) -> None:
        """Profile ``data``: any input :func:`profile` accepts. May be called repeatedly."""
        if self._finished:
            raise ProfilingInputError("this Profiler has finished; start a new one")
        for kind, batch in _batches(data):
            if kind == "arrow":
                self.add_arrow(batch)
            elif kind == "columns":
                self.add_columns(*batch)
            else:
                self.add_records(batch)

    def add_arrow(self, batch: pa.RecordBatch | pa.Table) -> None:
        """Profile one Arrow batch (all of its rows)."""
        self.add_columns(batch.num_rows, list(zip(batch.schema.names, batch.columns, strict=True)))

    def add_columns(self, rows: int, columns: list[tuple[str, Any]]) -> None:
        """Profile ``rows`` rows given column by column, each an Arrow array or a list of
        Python values (a column Arrow cannot hold, such as a mixed-type object column)."""
        seen: set[str] = set()
        work: list[tuple[ColumnState, Any, PolicyState | None]] = []
        for name, column in columns:
            if not isinstance(name, str):
                raise ProfilingInputError(
                    f"column name {name!r} is a {type(name).__name__}; column names must be "
                    "strings: rename the column (e.g. df.columns = df.columns.astype(str))"
                )
            name = unique_name(name, seen)
            state = self._column(name)
            if state is not None:
                work.append((state, column, self._policy(name)))
        arrow = [w for w in work if isinstance(w[1], pa.Array | pa.ChunkedArray)]
        if self.threads > 1 and rows >= _PARALLEL_MIN_ROWS and len(arrow) > 1:
            self._update_parallel(work)
        else:
            for state, column, policy in work:
                _update_column(state, column, policy)
        self._pad(rows, seen)
        self._rows += rows

    def _update_parallel(self, work: list[tuple[ColumnState, Any, PolicyState | None]]) -> None:
        """Profile the columns of one batch side by side: pool threads take the Arrow columns
        one at a time, longest first (by their last batch), while this thread profiles the
        lists of Python values (which hold the GIL), then takes Arrow columns too; wait for
        all, then raise the error of the first column that failed, in column order."""
        cost = self._cost
        arrow = [i for i, w in enumerate(work) if isinstance(w[1], pa.Array | pa.ChunkedArray)]
        arrow.sort(key=lambda i: -cost.get(work[i][0].name, 0.0))
        queue = iter(arrow)
        lock = threading.Lock()
        errors: dict[int, BaseException] = {}

        def drain() -> None:
            while True:
                with lock:
                    i = next(queue, None)
                if i is None:
                    return
                state, column, policy = work[i]
                started = time.perf_counter()
                try:
                    update_from_arrow(state, column, policy)
                except BaseException as exc:  # raised below, once every thread is done
                    errors[i] = exc
                cost[state.name] = time.perf_counter() - started

        helpers = min(self.threads, len(arrow)) - 1
        pool = _pool(self.threads - 1)
        running = [pool.submit(drain) for _ in range(helpers)]
        in_arrow = set(arrow)
        for i, (state, column, policy) in enumerate(work):
            if i not in in_arrow:
                try:
                    update_from_values(state, column, policy)
                except BaseException as exc:
                    errors[i] = exc
        drain()
        wait(running)
        if errors:
            raise errors[min(errors)]

    def add_records(self, records: list[Any]) -> None:
        """Profile one batch of dict records; a missing key is a null."""
        if all(type(record) is dict for record in records):  # the common case, at C speed
            keys: dict[str, None] = dict.fromkeys(chain.from_iterable(records))
        else:
            keys = {}
            for index, record in enumerate(records):
                if not isinstance(record, Mapping):
                    raise ProfilingInputError(
                        f"record {self._rows + index} is a {type(record).__name__}, not a "
                        "mapping; pass an iterable of dicts (one dict per record) or a DataFrame"
                    )
                keys.update(dict.fromkeys(record))
        if any(type(k) is not str or not is_utf8(k) for k in keys):
            records, keys = _string_keys(records, self._rows)
        seen: set[str] = set()
        for name in keys:
            state = self._column(name)
            if state is None:
                continue
            seen.add(name)
            update_from_values(state, [r.get(name) for r in records], self._policy(name))
        self._pad(len(records), seen)
        self._rows += len(records)

    def finish(self) -> TableProfile:
        """The profile of everything fed so far."""
        self._finished = True
        columns: dict[str, ColumnProfile] = {}
        for name, state in self._states.items():
            policy = self._policies.get(name)
            if policy is not None:
                for label in policy.finish():
                    state.classify(label)
            columns[name] = state.to_profile()
        return TableProfile(
            row_count=self._rows,
            columns=columns,
            skipped_columns=len(self._skipped),
            params=self.params,
        )


def _update_column(state: ColumnState, column: Any, policy: PolicyState | None) -> None:
    if isinstance(column, pa.Array | pa.ChunkedArray):
        update_from_arrow(state, column, policy)
    else:
        update_from_values(state, column, policy)


_POOLS: tuple[int, dict[int, ThreadPoolExecutor]] = (os.getpid(), {})
_POOL_LOCK = threading.Lock()


def _pool(threads: int) -> ThreadPoolExecutor:
    """One pool per process and size, shared by every Profiler (a forked child, whose copy
    of a pool has no threads, makes its own)."""
    global _POOLS
    with _POOL_LOCK:
        if _POOLS[0] != os.getpid():
            _POOLS = (os.getpid(), {})
        pools = _POOLS[1]
        if threads not in pools:
            pools[threads] = ThreadPoolExecutor(threads, thread_name_prefix="faucet-profile")
        return pools[threads]


# -- input dispatch -----------------------------------------------------------------------
def _batches(data: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(data, pa.Table):
        yield from _arrow_stream(data.schema, data.to_batches(max_chunksize=ARROW_BATCH_ROWS))
        return
    if isinstance(data, pa.RecordBatch):
        yield from _arrow_stream(data.schema, [data])
        return
    if isinstance(data, pa.RecordBatchReader):
        yield from _arrow_stream(data.schema, data)
        return
    module = type(data).__module__.split(".")[0]
    if module == "pandas":
        yield from _pandas_batches(data)
        return
    if module == "polars":
        yield from _polars_batches(data)
        return
    if is_spark_dataframe(data):
        raise ProfilingInputError(
            "a Spark DataFrame is profiled where it lives, partition by partition: pass it to "
            "profile(), not to Profiler.add()"
        )
    if is_sql_table(data):
        raise ProfilingInputError(
            "a SqlTable is profiled by its database with aggregate queries: pass it to "
            "profile() or profile_sql(), not to Profiler.add()"
        )
    if isinstance(data, (str, bytes, bytearray, Mapping)):
        raise ProfilingInputError(
            f"cannot profile a {type(data).__name__}: pass a DataFrame, an Arrow table or "
            "batch reader, or an iterable of dict records (a single dict is one record: wrap "
            "it in a list)"
        )
    if not isinstance(data, Iterable):
        raise ProfilingInputError(
            f"cannot profile a {type(data).__module__}.{type(data).__qualname__}: pass a pandas "
            "or polars DataFrame, a pyarrow Table/RecordBatch/RecordBatchReader, or an iterable "
            "of dict records"
        )
    iterator = iter(data)
    first = next(iterator, _END)
    if isinstance(first, pa.RecordBatch):  # an iterable of Arrow batches (a dataset scanner)
        yield from _record_batches(first, iterator)
        return
    chunk = [] if first is _END else [first]
    while True:
        chunk.extend(islice(iterator, RECORD_BATCH_ROWS - len(chunk)))
        if not chunk:
            return
        yield "records", chunk
        chunk = []


def _record_batches(first: pa.RecordBatch, rest: Iterator[Any]) -> Iterator[tuple[str, Any]]:
    """Arrow batches one at a time, so a scanner is never drained into memory."""
    batch: Any = first
    index = 0
    while batch is not _END:
        if not isinstance(batch, pa.RecordBatch):
            raise ProfilingInputError(
                f"item {index} of the iterable is a {type(batch).__name__} but the first was a "
                "RecordBatch; pass Arrow batches only, or dict records only"
            )
        if batch.num_rows:
            yield from (("arrow", part) for part in _slices(batch))
        else:  # no rows: still report the columns it declares
            yield "arrow", batch
        batch = next(rest, _END)
        index += 1


_END = object()


def _arrow_stream(
    schema: pa.Schema, batches: Iterable[pa.RecordBatch]
) -> Iterator[tuple[str, Any]]:
    empty = True
    for batch in batches:
        for part in _slices(batch):
            empty = False
            yield "arrow", part
    if empty:  # 0 rows: still report the columns the schema declares
        yield "arrow", pa.RecordBatch.from_pylist([], schema=schema)


def _slices(batch: pa.RecordBatch) -> Iterator[pa.RecordBatch]:
    for offset in range(0, batch.num_rows, ARROW_BATCH_ROWS):
        yield batch.slice(offset, ARROW_BATCH_ROWS)


def _pandas_batches(df: Any) -> Iterator[tuple[str, Any]]:
    from faucet_core.profile.frames import pandas_batches

    yield from pandas_batches(df, ARROW_BATCH_ROWS)


def _polars_batches(df: Any) -> Iterator[tuple[str, Any]]:
    from faucet_core.profile.frames import polars_batches

    yield from polars_batches(df, ARROW_BATCH_ROWS)


def _string_keys(records: list[Any], offset: int) -> tuple[list[Any], dict[str, None]]:
    """Turn int/float/bool/None keys into text as a JSON writer does, and a key with a lone
    surrogate into its text with U+FFFD (as every string value); refuse the rest."""
    fixed: list[dict[str, Any]] = []
    keys: dict[str, None] = {}
    for index, record in enumerate(records):
        row: dict[str, Any] = {}
        original: dict[str, Any] = {}
        for key, value in record.items():
            if isinstance(key, str):
                text = key if is_utf8(key) else scrub_text(key)
            elif key is None or isinstance(key, (bool, int, float)):
                text = key_text(key)
            else:
                raise ProfilingInputError(
                    f"record {offset + index} has a key of type {type(key).__name__} "
                    f"({key!r}); column names must be strings: convert the keys first"
                )
            if text in row:
                raise ProfilingInputError(
                    f"record {offset + index} has the keys {original[text]!r} and {key!r}, "
                    f"both column {text!r} once written as JSON; rename one of them"
                )
            row[text] = value
            original[text] = key
            keys[text] = None
        fixed.append(row)
    return fixed, keys
