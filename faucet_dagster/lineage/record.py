"""Dagster's asset graph and materializations -> the catalog.

:func:`sync_definitions` records a code location's graph on demand (``faucet catalog
sync``); :func:`record_materialization_lineage` records one materialization (called by
the profile check after it profiled it, and by the lineage sensor for every asset).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import dagster as dg

import faucet_dagster.metadata as md
from faucet_core.catalog import (
    Catalog,
    CatalogConfig,
    DatasetRef,
    Observation,
    RecordSummary,
    RunRecord,
    RunState,
    SchemaField,
)
from faucet_core.catalog.write import lock_catalog, record_batch, write_profile
from faucet_core.errors import FaucetError
from faucet_dagster.lineage.exposures import with_exposures
from faucet_dagster.lineage.mapping import (
    asset_dataset,
    asset_job,
    column_lineage_of,
    contract_of,
    owners_of,
    schema_of,
)
from faucet_dagster.lineage.sql import FAUCET_LINEAGE_KEY, faucet_lineage_of

__all__ = [
    "CatalogWrite",
    "SyncSummary",
    "asset_run_record",
    "dataset_of_key",
    "record_materialization_lineage",
    "sync_definitions",
]


def dataset_of_key(graph: Any, key: dg.AssetKey) -> DatasetRef:
    """The dataset of ``key`` in ``graph`` (default mapping when the graph lacks it)."""
    if graph.has(key):
        node = graph.get(key)
        return asset_dataset(key, node.metadata, node.tags)
    return asset_dataset(key)


def _snapshot(node: Any) -> dict[str, Any]:
    config: dict[str, Any] = {
        "asset": node.key.to_user_string(),
        "deps": sorted(k.to_user_string() for k in node.parent_keys),
        "owners": list(owners_of(node.key, node.owners, node.metadata)),
        "group": node.group_name,
    }
    if node.code_version:
        config["code_version"] = node.code_version
    return config


def asset_run_record(
    graph: Any,
    key: dg.AssetKey,
    *,
    run_id: str | None,
    when: dt.datetime,
    metadata: Mapping[str, Any] | None = None,
    state: RunState = RunState.COMPLETE,
    with_schema: bool = True,
    declares_lineage: bool = False,
) -> RunRecord:
    """One asset's run as a :class:`RunRecord`: its deps are the inputs, its dataset the
    output with schema, owners and column lineage (the materialization's metadata wins
    over the definition's); its ``faucet/contract`` and a config snapshot ride along."""
    node = graph.get(key)
    event = dict(metadata or {})
    definition = node.metadata

    def pick(name: str) -> Any:
        return event[name] if name in event else definition.get(name)

    parents = sorted(k for k in node.parent_keys if k != key)
    inputs = tuple(Observation(dataset_of_key(graph, p)) for p in parents)
    column_lineage = column_lineage_of(
        pick(md.DAGSTER_COLUMN_LINEAGE), lambda k: dataset_of_key(graph, k)
    )
    dataset_lineage: tuple[Any, ...] = ()
    if FAUCET_LINEAGE_KEY in event:
        # the SQL the run executed (sql_lineage_metadata): typed, with the row-deciding
        # columns; a table it could not follow is left out, so its edge stays opaque
        derived = faucet_lineage_of(event[FAUCET_LINEAGE_KEY], lambda k: dataset_of_key(graph, k))
        column_lineage, dataset_lineage = derived if derived is not None else (None, ())
    output = Observation(
        dataset=asset_dataset(key, definition, node.tags),
        schema=schema_of(pick(md.COLUMN_SCHEMA)) if with_schema else None,
        owners=owners_of(key, node.owners, definition),  # the code's: none clears it
        column_lineage=column_lineage,
        dataset_lineage=dataset_lineage,
    )
    return RunRecord(
        job=asset_job(key),
        run_id=run_id,
        state=state,
        event_time=when,
        source="dagster",
        inputs=inputs,
        outputs=(output,),
        contract=contract_of(key, definition),
        config=_snapshot(node),
        replace_inputs=True,
        declares_lineage=declares_lineage,
    )


@dataclass(frozen=True)
class SyncSummary:
    """What ``faucet catalog sync`` recorded."""

    assets: int
    summary: RecordSummary
    dependencies: int = 0
    """Dependencies between the location's assets (each one an edge)."""
    declared_lineage: int = 0
    """Of those, the ones the child's ``dagster/column_lineage`` gives column lineage."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "assets": self.assets,
            **self.summary.to_dict(),
            "dependencies": self.dependencies,
            "declared_lineage": self.declared_lineage,
        }

    def why_no_edges(self) -> str | None:
        """Why the sync wrote no edge (None when it wrote some)."""
        if self.summary.edges:
            return None
        if not self.dependencies:
            return (
                "the location's assets declare no dependencies on one another (deps=, "
                "AssetIn), so there is no edge to record"
            )
        return (
            f"every dependency it declares ({self.dependencies}) is in the catalog already, "
            f"with the column lineage the code declares ({self.declared_lineage} with "
            "dagster/column_lineage; the others keep what their last run recorded)"
        )


def sync_definitions(
    catalog: Catalog, defs: dg.Definitions, *, config: CatalogConfig | None = None
) -> SyncSummary:
    """Record every asset of ``defs``: datasets, deps as edges (created, never overriding a
    run's column lineage; deps no longer declared are dropped), owners, contracts (dbt's
    enforced ones too), dbt exposures as consumers, and the definition's
    ``dagster/column_schema`` for datasets no run has observed yet. A declared
    ``dagster/column_lineage`` takes effect now: it replaces the column lineage a run
    recorded on the same edge (the next run records its own again)."""
    graph = defs.resolve_asset_graph()
    known = {e.id for e in catalog.datasets() if e.schema is not None}
    now = dt.datetime.now(dt.timezone.utc)
    records = []
    for key in sorted(graph.get_all_asset_keys()):
        node = graph.get(key)
        dataset = asset_dataset(key, node.metadata, node.tags)
        records.append(
            asset_run_record(
                graph,
                key,
                run_id=None,
                when=now,
                with_schema=dataset.id not in known,
                declares_lineage=True,
            )
        )
    summary = catalog.record(records)
    outputs = [o for r in records for o in r.outputs]
    dependencies = sum(len(r.inputs) for r in records)
    declared = sum(
        len({ref.dataset.id for refs in (o.column_lineage or {}).values() for ref in refs})
        for o in outputs
    )
    config = with_exposures(config or CatalogConfig(), graph, graph.get_all_asset_keys())
    if config.datasets:
        catalog.apply_config(config)
    return SyncSummary(len(records), summary, dependencies, declared)


def _catalog_for(resource: Any, store: Any) -> tuple[Catalog, CatalogConfig]:
    config = resource.catalog_config() if hasattr(resource, "catalog_config") else CatalogConfig()
    if config.url:
        return Catalog(config.url), config
    if store is None and hasattr(resource, "get_store"):
        store = resource.get_store()
    if store is not None:
        return Catalog(store.engine), config
    return Catalog(getattr(resource, "resolved_url", lambda: None)()), config


def profile_schema(profile: Any) -> tuple[SchemaField, ...]:
    """A dataset schema from a profile: each column typed by the JSON types it held, ``null``
    last (``integer|null``); a column that held only nulls is ``null``."""
    fields = []
    for name, column in profile.columns.items():
        held = sorted(t for t, n in column.types.items() if n and t != "null")
        if column.null_count or not held:
            held.append("null")
        fields.append(SchemaField(name, "|".join(held)))
    return tuple(fields)


def record_in_catalog(
    catalog: Catalog,
    config: CatalogConfig,
    graph: Any,
    key: dg.AssetKey,
    *,
    run_id: str,
    when: dt.datetime,
    metadata: Mapping[str, Any] | None,
    partition: str | None = None,
    profile: Any = None,
    outcome: Any = None,
) -> RecordSummary:
    """Record one materialization, merge the ``catalog:`` block (and a dbt model's
    exposures, as consumers) into the datasets it touched, and record its profile (if any)
    on the asset's dataset."""
    record = asset_run_record(graph, key, run_id=run_id, when=when, metadata=metadata)
    if profile is not None and record.outputs[0].schema is None:
        # No declared dagster/column_schema: what the run wrote, as profiled, is the
        # observed schema (JSON types, e.g. "integer|null"), so impact plans can diff it.
        output = dataclasses.replace(record.outputs[0], schema=profile_schema(profile))
        record = dataclasses.replace(record, outputs=(output, *record.outputs[1:]))
    summary = catalog.record([record])
    config = with_exposures(config, graph, [key])  # dbt exposures: consumers of the model
    if config.datasets:
        touched = [o.dataset.id for o in (*record.inputs, *record.outputs)]
        catalog.apply_config(config, touched)
    if profile is not None:
        findings: Sequence[Any] = getattr(outcome, "findings", ())
        status = getattr(getattr(outcome, "status", None), "value", "recorded")
        catalog.record_profile(
            record.outputs[0].dataset,
            run_id=run_id,
            partition=partition,
            profile=profile,
            status=status,
            findings=[f.to_dict() for f in findings],
            recorded_at=when,
        )
    return summary


def record_materialization_lineage(
    context: Any,
    asset_key: dg.AssetKey,
    *,
    resource_key: str = "faucet",
    store: Any = None,
    run_id: str | None = None,
    partition: str | None = None,
    timestamp: float | None = None,
    materialization: dg.AssetMaterialization | None = None,
    profile: Any = None,
    outcome: Any = None,
) -> RecordSummary | None:
    """Record a materialization of ``asset_key`` in the catalog from inside a step (an asset
    or an asset check): the run, the edges from its deps with column lineage, schema,
    owners, contract, the ``catalog:`` block of the FaucetResource, and the profile.

    Never fails the step: a catalog error is logged as a warning and None is returned.
    """
    resource = getattr(context.resources, resource_key, None)
    graph = context.op_execution_context.job_def.asset_layer.asset_graph
    when = (
        dt.datetime.fromtimestamp(timestamp, dt.timezone.utc)
        if timestamp is not None
        else dt.datetime.now(dt.timezone.utc)
    )
    metadata = dict(materialization.metadata) if materialization is not None else None
    try:
        catalog, config = _catalog_for(resource, store)
        try:
            return record_in_catalog(
                catalog,
                config,
                graph,
                asset_key,
                run_id=run_id or context.run.run_id,
                when=when,
                metadata=metadata,
                partition=partition,
                profile=profile,
                outcome=outcome,
            )
        finally:
            catalog.close()
    except FaucetError as exc:
        context.log.warning(
            f"faucet: could not record the lineage of {asset_key.to_user_string()} in the "
            f"catalog: {exc}"
        )
        return None


class CatalogWrite:
    """The catalog's record of one profiled materialization, written in the same transaction
    as the baseline run when the catalog lives in the store's database.

    ``store.record(..., in_transaction=write.in_store_transaction)`` writes the run record
    (datasets, edges, schema, owners, contract) and the catalog's copy of the profile
    inside ``record``'s own transaction: a crash leaves both or neither. Then
    :meth:`finish` merges the ``catalog:`` block (idempotent) and logs a warning if the
    catalog part failed (the baseline run is kept). With a separate catalog database
    (``catalog: url:``) one transaction is impossible: :meth:`finish` writes the catalog
    after the store has committed (a crash in between leaves a baseline run without its
    catalog copy; the next run of the check records its own).

    Never fails the check: catalog errors are logged as warnings.
    """

    def __init__(
        self,
        context: Any,
        asset_key: dg.AssetKey,
        *,
        resource_key: str,
        store: Any,
        run_id: str,
        partition: str | None,
        timestamp: float,
        materialization: dg.AssetMaterialization | None,
        profile: Any,
    ) -> None:
        self._context, self._key, self._store = context, asset_key, store
        self._resource_key, self._run_id, self._partition = resource_key, run_id, partition
        self._timestamp, self._materialization, self._profile = timestamp, materialization, profile
        self._when = dt.datetime.fromtimestamp(timestamp, dt.timezone.utc)
        self._written = False
        self._touched: list[str] = []
        resource: Any = getattr(context.resources, resource_key, None)
        config: CatalogConfig | None
        try:
            get_config = getattr(resource, "catalog_config", None)
            config = get_config() if get_config is not None else CatalogConfig()
        except FaucetError:
            config = None  # finish() reports it through the separate path
        if config is not None:
            graph = context.op_execution_context.job_def.asset_layer.asset_graph
            config = with_exposures(config, graph, [asset_key])
        self._config = config
        self._shared = config is not None and not config.url and store is not None

    def in_store_transaction(self, conn: Any, outcome: Any) -> None:
        """``record``'s callback: the run record and the profile, on ``record``'s connection."""
        if not self._shared:
            return
        graph = self._context.op_execution_context.job_def.asset_layer.asset_graph
        metadata = (
            dict(self._materialization.metadata) if self._materialization is not None else None
        )
        record = asset_run_record(
            graph, self._key, run_id=self._run_id, when=self._when, metadata=metadata
        )
        if record.outputs[0].schema is None:
            output = dataclasses.replace(record.outputs[0], schema=profile_schema(self._profile))
            record = dataclasses.replace(record, outputs=(output, *record.outputs[1:]))
        lock_catalog(conn)
        record_batch(conn, [record], dt.datetime.now(dt.timezone.utc))
        findings: Sequence[Any] = getattr(outcome, "findings", ())
        write_profile(
            conn,
            record.outputs[0].dataset,
            run_id=self._run_id,
            partition=self._partition,
            profile=self._profile,
            status=outcome.status.value,
            findings=[f.to_dict() for f in findings],
            recorded_at=self._when,
        )
        self._touched = [o.dataset.id for o in (*record.inputs, *record.outputs)]
        self._written = True

    def finish(self, outcome: Any) -> None:
        """After ``record`` committed: the ``catalog:`` block, or the whole catalog write
        when it could not share the transaction; warnings for what failed."""
        name = self._key.to_user_string()
        error = getattr(outcome, "in_transaction_error", None)
        if error:
            self._context.log.warning(
                f"faucet: could not record the lineage of {name} in the catalog: {error}"
            )
            return
        if not self._written:
            record_materialization_lineage(
                self._context, self._key, resource_key=self._resource_key, store=self._store,
                run_id=self._run_id, partition=self._partition, timestamp=self._timestamp,
                materialization=self._materialization, profile=self._profile, outcome=outcome,
            )  # fmt: skip
            return
        if self._config is None or not self._config.datasets:
            return
        try:
            catalog = Catalog(self._store.engine)
            try:
                catalog.apply_config(self._config, self._touched)
            finally:
                catalog.close()
        except FaucetError as exc:
            self._context.log.warning(
                f"faucet: could not merge the catalog: block into the datasets of {name}: {exc}"
            )
