"""Profiling a Spark DataFrame where it lives: one partial profile per partition, merged here.

Each Spark task runs the ordinary :class:`~faucet_core.profile.profiler.Profiler` over its
partition's Arrow batches (``DataFrame.mapInArrow``) and returns one row: its partial
:class:`~faucet_core.profile.table.TableProfile` as JSON, sketches included. The driver
merges the partials with :meth:`TableProfile.merge`. No row is collected and nothing is
shuffled: the driver holds at most one partial per partition.

Decisions that depend on the whole column are taken on the driver, from what the partials
carry: the distinct count (merged HyperLogLog) decides high cardinality after the merge,
exactly as a single pass does. A value detector decides on the share of sampled values
it matches, so a partition cannot decide alone (its own share may differ from the
column's). When the policy has detector rules, a first, short Spark job samples each
partition's distinct strings (the same sample sizes as a single pass: up to 100 per Arrow
batch, 1,000 per column) and returns only counts: values sampled and values each detector
matched. The driver pools the counts and applies each rule's ``min_share``; the second job
profiles with those decisions fixed, so a classified column's values never leave the
executor (its partial carries no top values, quantile sketch or moments).

This module never imports pyspark at import time: :func:`is_spark_dataframe` looks at the
type's module name, and the executors need only ``faucet_core`` and its pure dependencies.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from faucet_core.config import PolicyConfig, PolicyRule, ProfilingConfig, ValueDetector
from faucet_core.errors import FaucetError, ProfilingInputError, typed_line
from faucet_core.profile.arrow_path import json_type_of
from faucet_core.profile.columns import select_columns
from faucet_core.profile.inputs import is_spark_dataframe
from faucet_core.profile.model import ColumnProfile
from faucet_core.profile.names import is_utf8, scrub_text
from faucet_core.profile.policy import DETECTORS, SAMPLE_PER_BATCH, SAMPLE_PER_COLUMN, PolicyState
from faucet_core.profile.profiler import ARROW_BATCH_ROWS, Profiler
from faucet_core.profile.sketches import SketchParams
from faucet_core.profile.spark_errors import python_error_line, worker_import_error
from faucet_core.profile.state import ColumnState
from faucet_core.profile.table import TableProfile
from faucet_core.text import clip

__all__ = [
    "PARTIAL_SCHEMA",
    "decide_detectors",
    "detector_counts",
    "is_spark_dataframe",
    "partial_payloads",
    "partial_profiles",
    "profile_spark",
]

PARTIAL_SCHEMA = "partial binary, error string"
"""What each Spark task returns: one row, its partial profile (JSON) or an error message."""

_MAX_ERROR_CHARS = 400


def profile_spark(df: Any, config: ProfilingConfig | None = None) -> TableProfile:
    """Profile a PySpark DataFrame on its executors and merge the partials here.

    The result equals :func:`faucet_core.profile` on the same rows: exact counts, null
    rates, types, min and max; mean and stddev to float precision; distinct counts,
    quantiles and top values within the sketches' error bounds.
    """
    seed, payloads = partial_payloads(df, config)
    merged = seed
    for payload in payloads:  # one partial per partition, merged as it is decoded
        merged = merged.merge(TableProfile.from_json(payload))
    return dataclasses.replace(merged, skipped_columns=seed.skipped_columns)


def partial_payloads(
    df: Any, config: ProfilingConfig | None = None
) -> tuple[TableProfile, list[bytes]]:
    """Run the Spark jobs: the profile of no rows (the columns a single pass keeps, in its
    order, and how many it skips) and the serialized partial of every partition."""
    config = config or ProfilingConfig()
    seed = _empty_profile(config, _arrow_schema(df))
    present = set(df.columns)
    kept = [name for name in seed.columns if name in present]
    if not kept:
        return seed, []
    # Read only what is kept, picked by position under plain names (a name may hold dots or
    # backticks, which Spark parses); the tasks give the batches their real names back.
    plain = df.toDF(*[f"_faucet_{i}" for i in range(len(df.columns))])
    projected = plain.select(*[f"_faucet_{df.columns.index(name)}" for name in kept])

    labels: dict[str, list[str]] = {}
    if _detector_rules(config.policy):
        candidates = [name for name in kept if _is_text_or_binary(df.schema[name].dataType)]
        if candidates:
            task = partial(detector_counts, candidates, _detectors(config), names=kept)
            counts = _run(projected, task)
            labels = decide_detectors(config.policy, [json.loads(c) for c in counts])
    job = partial(partial_profiles, _without_detectors(config), labels, names=kept)
    with arrow_batches_of(df, ARROW_BATCH_ROWS):
        return seed, _run(projected, job)


BATCH_ROWS_CONF = "spark.sql.execution.arrow.maxRecordsPerBatch"
"""The Spark setting that caps the rows of each Arrow batch a task is handed (10,000 by
default; zero or less: no cap)."""


@contextmanager
def arrow_batches_of(df: Any, rows: int) -> Iterator[None]:
    """While the profile job runs, Spark hands its tasks Arrow batches of ``rows`` rows,
    the size the profiler works in, instead of regrouping its 10,000-row batches in the
    task (a copy of every batch). The session's setting is raised only where it caps
    batches below ``rows``, and put back as it was afterwards, even if the job fails; a
    session whose settings cannot be read or changed is left as it is (the tasks then
    regroup, as :func:`partial_profiles` always can)."""
    conf, before = _raised_batch_cap(df, rows)
    try:
        yield
    finally:
        if conf is not None:
            if before is None:
                conf.unset(BATCH_ROWS_CONF)
            else:
                conf.set(BATCH_ROWS_CONF, before)


def _raised_batch_cap(df: Any, rows: int) -> tuple[Any, str | None]:
    """(the session's conf, the setting before) after raising the cap to ``rows``, or
    (None, None) when it was left alone."""
    try:
        conf = df.sparkSession.conf
        before = conf.get(BATCH_ROWS_CONF, None)
        cap = int(before) if before is not None else 10_000
        if not 0 < cap < rows:
            return None, None
        conf.set(BATCH_ROWS_CONF, str(rows))
    except Exception:  # a session without readable or settable settings: left alone
        return None, None
    return conf, before


# -- executor side ------------------------------------------------------------------------
def partial_profiles(
    config: ProfilingConfig,
    labels: Mapping[str, list[str]],
    batches: Iterator[pa.RecordBatch],
    *,
    names: list[str] | None = None,
) -> Iterator[pa.RecordBatch]:
    """The task function: one partition's batches in, one row (its partial profile) out.

    ``labels`` are the classifications decided on the driver (from pooled detector
    counts); they are applied before the partial is serialized, so a classified column
    leaves the executor without values. ``names`` renames the batches' columns.
    """
    try:
        profiler = Profiler(config, threads=1)  # Spark runs a task per core already
        for batch in _rebatched(_named(batches, names), ARROW_BATCH_ROWS):
            profiler.add(batch)
        prof = profiler.finish()
        if labels:
            prof = _classify(prof, labels)
        payload: bytes | None = prof.to_json().encode("utf-8")
        error = None
    except Exception as exc:  # returned as a message: no executor traceback reaches a user
        payload, error = None, _error_text(exc)
    yield pa.RecordBatch.from_arrays(
        [pa.array([payload], pa.binary()), pa.array([error], pa.string())],
        names=["partial", "error"],
    )


def detector_counts(
    columns: list[str],
    detectors: list[ValueDetector],
    batches: Iterator[pa.RecordBatch],
    *,
    names: list[str] | None = None,
) -> Iterator[pa.RecordBatch]:
    """The sampling task: per column, distinct values sampled and matches per detector.

    Only counts leave the executor, never a value. The task stops reading once every
    column's sample is full. ``names`` renames the batches' columns.
    """
    counts: dict[str, list[Any]] = {name: [0, dict.fromkeys(detectors, 0)] for name in columns}
    error = None
    try:
        for batch in _named(batches, names):
            open_columns = [n for n in columns if counts[n][0] < SAMPLE_PER_COLUMN]
            if not open_columns:
                break
            for name in open_columns:
                _sample(batch.column(batch.schema.get_field_index(name)), counts[name])
    except Exception as exc:
        error = _error_text(exc)
    text = json.dumps(
        {n: [c[0], {d.value: hits for d, hits in c[1].items()}] for n, c in counts.items()}
    )
    payload = None if error else text.encode("utf-8")
    yield pa.RecordBatch.from_arrays(
        [pa.array([payload], pa.binary()), pa.array([error], pa.string())],
        names=["partial", "error"],
    )


def _named(batches: Iterator[pa.RecordBatch], names: list[str] | None) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        yield batch if names is None else pa.RecordBatch.from_arrays(batch.columns, names=names)


def _rebatched(batches: Iterator[pa.RecordBatch], rows: int) -> Iterator[pa.RecordBatch]:
    """The batches regrouped into batches of ``rows`` rows (the last may hold fewer), the
    size the profiler works in: Spark hands a task 10,000-row batches
    (``spark.sql.execution.arrow.maxRecordsPerBatch``), and the profiler's per-batch work
    costs ~40 % more CPU at that size than at 65,536."""
    pending: list[pa.RecordBatch] = []
    held = 0
    for batch in batches:
        if batch.num_rows == rows and not pending:
            yield batch
            continue
        pending.append(batch)
        held += batch.num_rows
        if held < rows:
            continue
        joined = _joined(pending)
        start = 0
        while held - start >= rows:
            yield joined.slice(start, rows)
            start += rows
        pending = [joined.slice(start)] if start < held else []
        held -= start
    if held:
        yield _joined(pending)


def _joined(batches: list[pa.RecordBatch]) -> pa.RecordBatch:
    if len(batches) == 1:
        return batches[0]
    table = pa.Table.from_batches(batches).combine_chunks()  # one chunk per column
    joined = table.to_batches()
    return joined[0] if joined else batches[0]  # no rows at all: any of them


def _sample(array: pa.Array, count: list[Any]) -> None:
    """Mirror :meth:`PolicyState.observe_strings` on one batch of one column."""
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    valid = array.drop_null()
    if not len(valid):
        return
    if not (pa.types.is_string(valid.type) or pa.types.is_large_string(valid.type)):
        if pa.types.is_string_view(valid.type):
            valid = valid.cast(pa.large_string())
        else:  # binary: a single pass profiles (and samples) its base64 text
            encoded = [base64.b64encode(b).decode("ascii") for b in valid.to_pylist()]
            valid = pa.array(encoded, pa.string())
    take = min(SAMPLE_PER_BATCH, SAMPLE_PER_COLUMN - count[0])
    texts = [t for t in pc.unique(valid)[:take].to_pylist() if t is not None]
    count[0] += len(texts)
    hits: dict[ValueDetector, int] = count[1]
    for detector in hits:
        test = DETECTORS[detector]
        hits[detector] += sum(1 for t in texts if test(t.strip()))


# -- driver side --------------------------------------------------------------------------
def decide_detectors(
    policy: PolicyConfig | None, partials: list[Mapping[str, Any]]
) -> dict[str, list[str]]:
    """Pool the partitions' detector counts and apply each rule's ``min_share`` to the
    whole column: the labels each column gets from value detectors."""
    if policy is None:
        return {}
    sampled: dict[str, int] = {}
    hits: dict[str, dict[str, int]] = {}
    for part in partials:
        for name, (n, per_detector) in part.items():
            sampled[name] = sampled.get(name, 0) + int(n)
            pooled = hits.setdefault(name, {})
            for detector, count in per_detector.items():
                pooled[detector] = pooled.get(detector, 0) + int(count)
    labels: dict[str, list[str]] = {}
    for name, n in sampled.items():
        if not n:
            continue
        for rule in _detector_rules(policy):
            if any(hits[name].get(d.value, 0) / n >= rule.min_share for d in rule.detectors):
                labels.setdefault(name, [])
                if rule.label not in labels[name]:
                    labels[name].append(rule.label)
    return labels


def _run(df: Any, task: Any) -> list[bytes]:
    """Run ``task`` on every partition; its one-row results, or a clear error."""
    try:
        with warnings.catch_warnings():  # PySpark checks the pandas version, unused here
            warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas")
            rows = df.mapInArrow(task, PARTIAL_SCHEMA).collect()
    except Exception as exc:
        explained = worker_import_error(df, exc)
        if explained is not None:
            raise ProfilingInputError(explained) from None
        raise ProfilingInputError(
            f"the Spark job that profiles the DataFrame failed: {_error_text(exc)} (if the "
            "executors cannot import faucet_core, see docs/spark.md)"
        ) from None
    payloads: list[bytes] = []
    for row in rows:
        if row["error"] is not None:
            raise ProfilingInputError(f"profiling a Spark partition failed: {row['error']}")
        payloads.append(bytes(row["partial"]))
    return payloads


def _classify(prof: TableProfile, labels: Mapping[str, list[str]]) -> TableProfile:
    columns = dict(prof.columns)
    for name, names in labels.items():
        column = columns.get(name)
        if column is None:
            continue
        state = ColumnState.from_profile(column, prof.params)
        for label in names:
            state.classify(label)
        columns[name] = state.to_profile()
    return dataclasses.replace(prof, columns=columns)


def _detector_rules(policy: PolicyConfig | None) -> list[PolicyRule]:
    return [r for r in policy.rules if r.detectors] if policy is not None else []


def _detectors(config: ProfilingConfig) -> list[ValueDetector]:
    found: dict[ValueDetector, None] = {}
    for rule in _detector_rules(config.policy):
        found.update(dict.fromkeys(rule.detectors))
    return list(found)


def _without_detectors(config: ProfilingConfig) -> ProfilingConfig:
    """The executors' config: name and field rules stay (a partition decides those exactly
    as a single pass), value detectors go (the driver decides them for the whole column)."""
    if config.policy is None or not _detector_rules(config.policy):
        return config
    rules = [
        r.model_copy(update={"detectors": []}) for r in config.policy.rules if r.columns or r.fields
    ]
    return config.model_copy(update={"policy": PolicyConfig(rules=rules)})


def _empty_profile(config: ProfilingConfig, schema: pa.Schema) -> TableProfile:
    """The profile of no rows of ``schema``, as a :class:`Profiler` fed them gives it: the
    columns :func:`select_columns` picks, each with the labels the policy gives by name and
    by the field names its Arrow type holds; a type with no JSON type is refused."""
    chosen, skipped = select_columns(config, schema.names)
    params = SketchParams(
        top_values=config.top_values, categorical_max_distinct=config.categorical_max_distinct
    )
    types = {f.name if is_utf8(f.name) else scrub_text(f.name): f.type for f in schema}
    for name, arrow_type in types.items():  # in the schema's order, as a Profiler reads them
        if name in chosen:
            try:
                json_type_of(arrow_type)
            except ProfilingInputError as exc:
                raise ProfilingInputError(f"column {name!r}: {exc}") from None
    policy = config.policy if config.policy is not None and config.policy.rules else None
    columns: dict[str, ColumnProfile] = {}
    for name, labels in chosen.items():
        state = ColumnState(name, params)
        arrow_type = types.get(name)
        found = set(labels)
        if policy is not None and arrow_type is not None:
            by_fields = PolicyState(policy, name)
            by_fields.observe_type(arrow_type)
            found |= by_fields.finish()
        for label in found:
            state.classify(label)
        columns[name] = state.to_profile()
    return TableProfile(row_count=0, columns=columns, skipped_columns=skipped, params=params)


def _arrow_schema(df: Any) -> pa.Schema:
    """The Arrow schema of ``df``'s columns (a type Arrow cannot hold: null); two columns
    of one name are refused."""
    from pyspark.sql.pandas.types import to_arrow_schema
    from pyspark.sql.types import StructType

    fields = []
    for field in df.schema.fields:
        try:
            arrow = _arrow_field(to_arrow_schema, StructType([field]))
        except Exception:  # a type Arrow cannot hold: its 0 rows say nothing of the type
            arrow = pa.field(field.name, pa.null())
        fields.append(arrow)
    schema = pa.schema(fields) if len({f.name for f in fields}) == len(fields) else None
    if schema is None:
        names = [f.name for f in fields]
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ProfilingInputError(
            f"column {twice[0]!r} appears twice in the Spark DataFrame; rename one of them "
            "(e.g. with withColumnRenamed or an alias) before profiling"
        )
    return schema


def _arrow_field(to_arrow_schema: Any, schema: Any) -> pa.Field:
    try:
        return to_arrow_schema(schema, timezone="UTC").field(0)
    except TypeError:  # PySpark 3.5 takes no time zone (it matters not for zero rows)
        return to_arrow_schema(schema).field(0)


def _is_text_or_binary(data_type: Any) -> bool:
    return type(data_type).__name__ in ("StringType", "VarcharType", "CharType", "BinaryType")


def _error_text(exc: BaseException) -> str:
    if isinstance(exc, FaucetError):
        text = str(exc)
    else:  # an engine error: its first line only (Spark appends JVM stack traces)
        text = typed_line(exc)
        worker = python_error_line(str(exc))  # a Python worker's traceback: its last error
        if worker is not None and worker not in text:
            text = f"{text.rstrip(':')} {worker}"
    return clip(text, _MAX_ERROR_CHARS)
