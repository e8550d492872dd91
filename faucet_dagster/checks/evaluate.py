"""What a profile check does when it runs: find the materialization(s), load, profile,
record, and turn the outcome into an ``AssetCheckResult``."""

from __future__ import annotations

import datetime as dt
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import dagster as dg

import faucet_dagster.metadata as md
from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.config import OnDrift
from faucet_core.drift.schema import describe_schema_changes, schema_changes
from faucet_core.errors import FaucetError
from faucet_core.redact import redact
from faucet_core.store import ENV_VAR, ProfileStore, ProfilingOutcome, RunStatus
from faucet_dagster.checks.check_error import count_error, error_result
from faucet_dagster.checks.loading import Loader, ProfileLoadContext, load_with_io_manager
from faucet_dagster.checks.summary import (
    MAX_NUMERIC_ENTRIES,
    check_description,
    column_numbers,
    markdown_summary,
    numbers_left_out,
)
from faucet_dagster.checks.targets import AssetTarget, baseline_key_of
from faucet_dagster.lineage.record import CatalogWrite as _CatalogWrite

__all__ = [
    "CheckOptions",
    "PartitionBaseline",
    "StepContext",
    "evaluate",
    "evaluate_profiled",
    "profile_of",
]

StepContext = dg.AssetCheckExecutionContext | dg.AssetExecutionContext
"""The step a profile is checked in: a separate check's, or the asset's own (in-step)."""


class PartitionBaseline(str, Enum):
    """How a partitioned asset's materializations are baselined."""

    AUTO = "auto"
    """Static partitions: one baseline per partition; time windows: one shared baseline."""
    PER_PARTITION = "per_partition"
    SHARED = "shared"


@dataclass(frozen=True)
class CheckOptions:
    target: AssetTarget
    config: ProfilingConfig
    resource_key: str
    partitions: PartitionBaseline
    loader: Loader | None


@dataclass(frozen=True)
class _Materialization:
    partition: str | None
    run_id: str
    timestamp: float
    event: dg.AssetMaterialization | None


def _per_partition(mode: PartitionBaseline, pdef: dg.PartitionsDefinition | None) -> bool:
    if pdef is None:
        return False
    if mode is PartitionBaseline.AUTO:
        return not isinstance(pdef, dg.TimeWindowPartitionsDefinition)
    return mode is PartitionBaseline.PER_PARTITION


def _materializations(context: StepContext, key: dg.AssetKey) -> list[_Materialization]:
    instance = context.instance
    run_id = context.run.run_id
    found: list[_Materialization] = []
    records = instance.get_records_for_run(
        run_id, of_type=dg.DagsterEventType.ASSET_MATERIALIZATION
    ).records
    for record in records:
        event = record.event_log_entry.dagster_event
        if event is None or event.asset_key != key:
            continue
        found.append(
            _Materialization(
                partition=event.partition,
                run_id=run_id,
                timestamp=record.event_log_entry.timestamp,
                event=record.event_log_entry.asset_materialization,
            )
        )
    if found:
        return sorted(found, key=lambda m: m.partition or "")
    # A check-only run: profile the latest materialization (of the run's partition, if any).
    partition = context.run.tags.get("dagster/partition")
    query: Any = key
    if partition:
        query = dg.AssetRecordsFilter(asset_key=key, asset_partitions=[partition])
    latest = instance.fetch_materializations(query, limit=1).records
    if not latest:
        where = f" partition {partition!r}" if partition else ""
        raise dg.Failure(
            description=(
                f"{key.to_user_string()}{where} has no materialization to profile yet: "
                "materialize the asset first; the profile check reads what it wrote"
            )
        )
    entry = latest[0].event_log_entry
    event = entry.dagster_event
    return [
        _Materialization(
            partition=event.partition if event else None,
            run_id=entry.run_id,
            timestamp=entry.timestamp,
            event=entry.asset_materialization,
        )
    ]


def _load(context: dg.AssetCheckExecutionContext, opts: CheckOptions, mat: _Materialization) -> Any:
    target = opts.target
    if opts.loader is not None:
        load_context = ProfileLoadContext(context, target.key, mat.partition, mat.event)
        try:
            data = opts.loader(load_context)
        except dg.Failure:
            raise  # the loader's own words (e.g. the dbt relation loader's)
        except Exception as exc:
            raise dg.Failure(
                description=(
                    f"the faucet loader for {target.key.to_user_string()} failed: "
                    f"{_reason(exc)}. Fix the loader passed to build_profile_checks"
                )
            ) from exc
        if data is None:
            raise dg.Failure(
                description=(
                    f"the faucet loader for {target.key.to_user_string()} returned None: return "
                    "what to profile (a DataFrame, an Arrow table or RecordBatchReader, or an "
                    "iterable of records)"
                )
            )
        return data
    try:
        data = load_with_io_manager(
            context,
            asset_key=target.key,
            io_manager_key=target.io_manager_key,
            partition_key=mat.partition,
            materialization=mat.event,
            run_id=mat.run_id,
        )
    except dg.Failure:
        raise  # faucet's own words (e.g. a resource the IO manager needs)
    except Exception as exc:
        raise dg.Failure(
            description=(
                f"could not load {target.key.to_user_string()}"
                + (f" partition {mat.partition!r}" if mat.partition else "")
                + f" through IO manager {target.io_manager_key!r}: {_reason(exc)}. "
                "If this IO manager cannot load the value outside the asset, or the value is too "
                "large to load whole, pass loader= to build_profile_checks to stream it instead"
            )
        ) from exc
    if data is None:
        raise dg.Failure(
            description=(
                f"{target.key.to_user_string()} has no stored value to profile: IO manager "
                f"{target.io_manager_key!r} loaded None (the asset returns None or writes its "
                "data itself). Pass loader= to build_profile_checks to read what the asset wrote"
            )
        )
    return data


def _reason(exc: BaseException) -> str:
    """``Type: message``, without a final period (the caller's sentence follows)."""
    return f"{type(exc).__name__}: {str(exc).rstrip('.')}"


def _store(context: StepContext, resource_key: str) -> ProfileStore:
    resource = getattr(context.resources, resource_key)
    get_store = getattr(resource, "get_store", None)
    if get_store is None:
        raise dg.Failure(
            description=(
                f"resource {resource_key!r} is a {type(resource).__name__}, not a FaucetResource: "
                f"bind resources={{{resource_key!r}: FaucetResource()}} in your Definitions"
            )
        )
    try:
        store: ProfileStore = get_store()
    except (FaucetError, OSError) as exc:  # OSError: the SQLite file's folder cannot be made
        reason = str(exc).rstrip(".") if isinstance(exc, FaucetError) else _reason(exc)
        raise dg.Failure(
            description=(
                f"the faucet store is unavailable: {reason}. Fix the store_url of resource "
                f"{resource_key!r} (or {ENV_VAR}), then re-run this check"
            )
        ) from exc
    return store


def evaluate(context: dg.AssetCheckExecutionContext, opts: CheckOptions) -> dg.AssetCheckResult:
    """Profile what the asset wrote in this run and compare it with its baseline.

    A fault on the way (store unreachable or busy, a loader or IO manager that raises, data
    the profiler rejects, an unforeseen error) never raises out of the check: it becomes a
    failed evaluation with ``faucet/status: error`` and the error text, severity WARN under
    ``on_drift: warn``/``notify`` (the run succeeds) and ERROR under ``fail`` (the blocking
    check fails the run). Nothing reaches the baseline from a run whose profile was not
    recorded."""
    return _guarded(context, opts, lambda: _evaluate(context, opts))


def evaluate_profiled(
    context: StepContext, opts: CheckOptions, profiled: TableProfile | BaseException
) -> dg.AssetCheckResult:
    """The in-step form of :func:`evaluate`: the asset's own step has profiled the value it
    returned (or failed to: ``profiled`` is the error) and its IO manager has stored it;
    record the profile against this run's materialization and report it the same way."""
    return _guarded(context, opts, lambda: _evaluate_profiled(context, opts, profiled))


def _guarded(
    context: StepContext, opts: CheckOptions, run: Callable[[], dg.AssetCheckResult]
) -> dg.AssetCheckResult:
    try:
        return run()
    except dg.Failure as exc:
        text = exc.description or str(exc)
    except Exception as exc:  # an unforeseen fault must not crash the pipeline it watches
        text = f"faucet could not check {opts.target.key.to_user_string()}: {_reason(exc)}"
        context.log.debug("faucet: the check's error, in full:\n" + redact(traceback.format_exc()))
    # -- faucet_check_errors_total (issue 15): counted best-effort, never raises.
    count_error(context, opts.resource_key, baseline_key_of(opts.target.key), opts.config)
    return error_result(opts.config, redact(text))


def profile_of(opts: CheckOptions, data: Any) -> TableProfile:
    """The profile of one loaded (or returned) value; the profiler's refusal as a Failure."""
    try:
        return profile(data, opts.config)
    except FaucetError as exc:
        key = opts.target.key.to_user_string()
        raise dg.Failure(description=f"profiling {key} failed: {exc}") from exc


def _evaluate(context: dg.AssetCheckExecutionContext, opts: CheckOptions) -> dg.AssetCheckResult:
    store = _store(context, opts.resource_key)
    per_partition = _per_partition_of(context, opts)
    outcomes: list[tuple[str | None, ProfilingOutcome]] = []
    last_profile = None
    for mat in _materializations(context, opts.target.key):
        prof = profile_of(opts, _load(context, opts, mat))
        outcomes.append((mat.partition, _record(context, opts, store, mat, prof, per_partition)))
        last_profile = prof
    assert last_profile is not None
    return _result(store, opts, outcomes, last_profile)


def _evaluate_profiled(
    context: StepContext, opts: CheckOptions, profiled: TableProfile | BaseException
) -> dg.AssetCheckResult:
    if isinstance(profiled, BaseException):
        raise profiled
    store = _store(context, opts.resource_key)
    per_partition = _per_partition_of(context, opts)
    # The step's own materialization: the newest of the run (a retried step wrote earlier).
    mat = max(_materializations(context, opts.target.key), key=lambda m: m.timestamp)
    outcomes = [(mat.partition, _record(context, opts, store, mat, profiled, per_partition))]
    return _result(store, opts, outcomes, profiled)


def _per_partition_of(context: StepContext, opts: CheckOptions) -> bool:
    node = context.op_execution_context.job_def.asset_layer.asset_graph.get(opts.target.key)
    return _per_partition(opts.partitions, node.partitions_def)


def _record(
    context: StepContext,
    opts: CheckOptions,
    store: ProfileStore,
    mat: _Materialization,
    prof: TableProfile,
    per_partition: bool,
) -> ProfilingOutcome:
    key = opts.target.key
    bkey = baseline_key_of(key)
    try:
        # -- faucet catalog (issue 12, store + catalog in one transaction): this
        # materialization's run, edges, schema, owners, contract and profile are written
        # inside store.record's transaction (see CatalogWrite); never fails the check.
        lineage = _CatalogWrite(
            context, key, resource_key=opts.resource_key, store=store, run_id=mat.run_id,
            partition=mat.partition, timestamp=mat.timestamp, materialization=mat.event,
            profile=prof,
        )  # fmt: skip
        outcome = store.record(
            bkey,
            prof,
            opts.config,
            partition=mat.partition if per_partition else None,
            run_id=mat.run_id if mat.partition is None else f"{mat.run_id}:{mat.partition}",
            recorded_at=dt.datetime.fromtimestamp(mat.timestamp, dt.timezone.utc),
            in_transaction=lineage.in_store_transaction,
        )
    except FaucetError as exc:
        raise dg.Failure(description=f"profiling {key.to_user_string()} failed: {exc}") from exc
    lineage.finish(outcome)  # the catalog: block; a catalog error is logged as a warning
    if outcome.duplicate:
        context.log.info(
            f"faucet: {bkey} materialization of run {mat.run_id} was already profiled; "
            "reporting the recorded outcome (no new baseline point)"
        )
    return outcome


def _worst(outcomes: Sequence[tuple[str | None, ProfilingOutcome]]) -> ProfilingOutcome:
    rank = {RunStatus.DRIFTED: 0, RunStatus.WARMING: 1, RunStatus.STABLE: 2}
    return min((o for _, o in outcomes), key=lambda o: rank[o.status])


def _result(
    store: ProfileStore,
    opts: CheckOptions,
    outcomes: Sequence[tuple[str | None, ProfilingOutcome]],
    prof: Any,
) -> dg.AssetCheckResult:
    cfg = opts.config
    main = _worst(outcomes)
    drifted = main.status is RunStatus.DRIFTED
    last = outcomes[-1][1]
    try:
        history = store.history(
            last.key.key, partition=last.key.partition or None, limit=cfg.window + 1
        )
    except FaucetError:  # the outcome is known; only the summary's trend is lost
        history = []
    findings = [
        {**f.to_dict(), "partition": p} if p is not None else f.to_dict()
        for p, o in outcomes
        for f in o.findings
    ]
    classified = sorted(name for name, col in prof.columns.items() if col.classified)
    drifted_columns = {f.column for _, o in outcomes for f in o.findings}
    # Counts and settings are text: the UI plots every numeric entry as a series.
    metadata: dict[str, Any] = {
        md.STATUS: main.status.value,
        md.BASELINE_RUNS: dg.MetadataValue.text(str(main.baseline_runs)),
        md.MIN_HISTORY: dg.MetadataValue.text(str(cfg.min_history)),
        md.ON_DRIFT: cfg.on_drift.value,
        md.FINDING_COUNT: len(findings),
        md.FINDINGS: dg.MetadataValue.json(findings),
        md.ROW_COUNT: prof.row_count,
        md.CLASSIFIED: dg.MetadataValue.json(classified),
        md.BASELINE_KEY: str(last.key),
        md.SUMMARY: dg.MetadataValue.md(
            markdown_summary(prof, last, history, title=opts.target.key.to_user_string())
        ),
    }
    if main.status is RunStatus.WARMING:
        metadata[md.WARMING] = main.warming_message
    changes = _schema_changes(history, last, prof)
    schema_text = describe_schema_changes(changes)
    if changes:  # observed, not drift: reported, and notified once under on_drift: notify
        metadata[md.SCHEMA_CHANGE] = dg.MetadataValue.text(schema_text)
        metadata[md.SCHEMA_CHANGES] = dg.MetadataValue.json([c.to_dict() for c in changes])
    skipped = [s.to_dict() for _, o in outcomes for s in o.skipped_runs]
    if skipped:  # damaged baseline runs left out; faucet doctor --repair quarantines them
        metadata[md.SKIPPED_RUNS] = dg.MetadataValue.json(skipped)
    partitions = [p for p, _ in outcomes if p is not None]
    if partitions:
        metadata[md.PARTITIONS] = dg.MetadataValue.json(partitions)
    metadata.update(column_numbers(prof, drifted_columns))
    left_out = numbers_left_out(prof, drifted_columns)
    if left_out:
        metadata[md.NUMBERS_LEFT_OUT] = dg.MetadataValue.text(
            f"{len(left_out)} column(s) not plotted (at most {MAX_NUMERIC_ENTRIES} numbers per "
            f"check, drifted columns first): {', '.join(left_out)}"
        )
    fail = drifted and cfg.on_drift is OnDrift.FAIL
    severity = dg.AssetCheckSeverity.ERROR if fail else dg.AssetCheckSeverity.WARN
    return dg.AssetCheckResult(
        passed=not drifted,
        severity=severity,
        description=_with_schema(
            check_description(main, len(outcomes), classified=classified), schema_text
        ),
        metadata=metadata,
    )


def _with_schema(description: str, schema_text: str) -> str:
    if not schema_text:
        return description
    return f"{description.rstrip('.')}; {schema_text}"


def _schema_changes(history: Sequence[Any], last: ProfilingOutcome, prof: Any) -> list[Any]:
    """The columns and JSON types this run changed against the run recorded before it."""
    earlier = [r for r in history if r.seq < last.seq]
    if not earlier:
        return []
    return schema_changes(earlier[-1].profile, prof)
