"""``build_lineage_sensor``: every materialization into the catalog, and (optionally) out
to OpenLineage with the asset checks' results as data-quality assertions.

It reads the event log the way the default SQLite storage supports: per asset key
(``fetch_materializations`` after a storage id) and per check key
(``get_asset_check_execution_history``), never a cross-run event-type query.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Iterable
from typing import Any

import dagster as dg

import faucet_dagster.metadata as md
from faucet_core.catalog import Catalog, CatalogConfig, Observation, RunRecord, SchemaField
from faucet_core.errors import FaucetError
from faucet_core.lineage import default_client
from faucet_dagster.event_log import evaluation_of, executions_after
from faucet_dagster.lineage.openlineage import check_events, materialization_events
from faucet_dagster.lineage.record import (
    _catalog_for,
    asset_run_record,
    dataset_of_key,
    profile_schema,
    record_in_catalog,
)

__all__ = ["DEFAULT_SENSOR_NAME", "build_lineage_sensor"]

DEFAULT_SENSOR_NAME = "faucet_lineage"
_HISTORY_PAGES = 20
_DONE = ("SUCCEEDED", "FAILED")


def _utc(timestamp: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc)


class _Tick:
    def __init__(
        self,
        context: dg.SensorEvaluationContext,
        catalog: Catalog,
        config: CatalogConfig,
        client: Any,
        namespace: str,
        batch_size: int,
    ) -> None:
        self.context = context
        self.instance = context.instance
        self.graph = context.repository_def.asset_graph  # type: ignore[union-attr]
        self.catalog, self.config = catalog, config
        self.client, self.namespace, self.batch = client, namespace, batch_size
        state = json.loads(context.cursor) if context.cursor else {}
        self.assets: dict[str, int] = dict(state.get("assets", {}))
        self.checks: dict[str, int] = dict(state.get("checks", {}))
        self._runs: dict[str, tuple[str, dt.datetime | None]] = {}
        self._history: dict[str, tuple[Any, ...]] = {}
        self.recorded = self.emitted = 0

    def cursor(self) -> str:
        return json.dumps({"assets": self.assets, "checks": self.checks}, sort_keys=True)

    def _run(self, run_id: str) -> tuple[str, dt.datetime | None]:
        if run_id not in self._runs:
            record = self.instance.get_run_record_by_id(run_id)
            if record is None:
                self._runs[run_id] = ("unknown", None)
            else:
                start = record.start_time
                self._runs[run_id] = (
                    record.dagster_run.job_name,
                    _utc(start) if start is not None else None,
                )
        return self._runs[run_id]

    def _emit(self, events: Iterable[Any]) -> None:
        if self.client is None:
            return
        if self.client is True:
            self.client = default_client()
        for event in events:
            self.client.emit(event)
            self.emitted += 1

    def materializations(self) -> None:
        keys = sorted(self.graph.materializable_asset_keys)
        latest = {
            r.asset_entry.asset_key: r.asset_entry.last_materialization_record
            for r in self.instance.get_asset_records(keys)
        }
        for key in keys:
            name = key.to_user_string()
            last = latest.get(key)
            after = self.assets.get(name)
            if last is None or (after is not None and last.storage_id <= after):
                continue
            result = self.instance.fetch_materializations(
                dg.AssetRecordsFilter(asset_key=key, after_storage_id=after),
                limit=self.batch,
                ascending=True,
            )
            for rec in result.records:
                if self._awaiting_profile(key, rec):
                    break  # its profile check has not run yet: emit it on a later tick
                self._materialization(key, rec)
                self.assets[name] = rec.storage_id

    def _materialization(self, key: dg.AssetKey, rec: Any) -> None:
        entry = rec.event_log_entry
        mat = entry.asset_materialization
        when = _utc(entry.timestamp)
        metadata = dict(mat.metadata) if mat is not None else {}
        partition = mat.partition if mat is not None else None
        record_in_catalog(
            self.catalog,
            self.config,
            self.graph,
            key,
            run_id=entry.run_id,
            when=when,
            metadata=metadata,
        )
        self.recorded += 1
        if self.client is None:
            return
        job, started = self._run(entry.run_id)
        record = asset_run_record(
            self.graph, key, run_id=entry.run_id, when=when, metadata=metadata
        )
        record = self._with_observed_schema(record, entry.run_id, partition)
        self._emit(
            materialization_events(
                record,
                namespace=self.namespace,
                dagster_job=job,
                dagster_run_id=entry.run_id,
                started=started or when,
                partition=partition,
            )
        )

    # -- the schema of assets that declare none ---------------------------------------------
    def _declares_schema(self, key: dg.AssetKey, metadata: dict[str, Any]) -> bool:
        return md.COLUMN_SCHEMA in metadata or md.COLUMN_SCHEMA in self.graph.get(key).metadata

    def _has_profile_check(self, key: dg.AssetKey) -> bool:
        return any(
            check.asset_key == key
            and md.CONFIG in (self.graph.get_check_spec(check).metadata or {})
            for check in self.graph.asset_check_keys
        )

    def _run_profile(self, dataset_id: str, run_id: str, partition: str | None) -> Any:
        """The profile the catalog holds for ``run_id`` on ``dataset_id`` (None: none)."""
        if dataset_id not in self._history:
            self._history[dataset_id] = self._profiles(dataset_id, limit=None)
        return next(
            (
                p.profile
                for p in reversed(self._history[dataset_id])
                if p.run_id == run_id and (p.partition or None) == (partition or None)
            ),
            None,
        )

    def _observed_schema(
        self, dataset_id: str, run_id: str, partition: str | None
    ) -> tuple[SchemaField, ...] | None:
        profile = self._run_profile(dataset_id, run_id, partition)
        if profile is not None:
            return profile_schema(profile)
        try:
            entry = self.catalog.dataset(dataset_id)
        except FaucetError:
            return None
        # Another run's schema could be wrong for this one: only this run's is used.
        return entry.schema if entry.schema_run_id == run_id else None

    def _with_observed_schema(
        self, record: RunRecord, run_id: str, partition: str | None
    ) -> RunRecord:
        """``record`` with, for an output that declares no column schema, the schema the
        catalog observed for this run (its profile's), so the emitted event carries it."""
        output = record.outputs[0]
        if output.schema is not None:
            return record
        schema = self._observed_schema(output.dataset.id, run_id, partition)
        if schema is None:
            return record
        observed = dataclasses.replace(output, schema=schema)
        return dataclasses.replace(record, outputs=(observed, *record.outputs[1:]))

    def _awaiting_profile(self, key: dg.AssetKey, rec: Any) -> bool:
        """True while the run of a materialization that will be emitted without a declared
        schema is still going and its faucet profile check has not recorded the profile."""
        if self.client is None:
            return False
        entry = rec.event_log_entry
        mat = entry.asset_materialization
        metadata = dict(mat.metadata) if mat is not None else {}
        if self._declares_schema(key, metadata) or not self._has_profile_check(key):
            return False
        dataset = dataset_of_key(self.graph, key)
        partition = mat.partition if mat is not None else None
        if self._run_profile(dataset.id, entry.run_id, partition) is not None:
            return False
        run = self.instance.get_run_by_id(entry.run_id)
        if run is None or run.is_finished:
            return False
        self._history.pop(dataset.id, None)  # read it again next tick
        return True

    def check_results(self) -> None:
        if self.client is None:
            return
        keys = sorted(self.graph.asset_check_keys, key=lambda k: k.to_user_string())
        if not keys:
            return
        storage = self.instance.event_log_storage
        latest = storage.get_latest_asset_check_execution_by_key(keys)
        for key in keys:
            name = key.to_user_string()
            newest = latest.get(key)
            after = self.checks.get(name, 0)
            if newest is None or newest.id <= after:
                continue
            for record in self._new_executions(key, after):
                if record.status.value not in _DONE:
                    break  # still running: pick it up on a later tick
                self._check(record)
                self.checks[name] = record.id

    def _new_executions(self, key: dg.AssetCheckKey, after: int) -> list[Any]:
        storage = self.instance.event_log_storage
        return executions_after(storage, key, after, page_size=self.batch, max_pages=_HISTORY_PAGES)

    def _check(self, record: Any) -> None:
        event = record.event
        evaluation = evaluation_of(record)
        if evaluation is None:
            return
        dataset = dataset_of_key(self.graph, evaluation.asset_key)
        profile = next(
            (p.profile for p in self._profiles(dataset.id) if p.run_id == record.run_id), None
        )
        job, started = self._run(record.run_id)
        ended = _utc(event.timestamp)
        self._emit(
            check_events(
                evaluation,
                Observation(dataset),
                namespace=self.namespace,
                dagster_job=job,
                dagster_run_id=record.run_id,
                started=started or ended,
                ended=ended,
                profile=profile,
            )
        )

    def _profiles(self, dataset_id: str, limit: int | None = 20) -> tuple[Any, ...]:
        try:
            return self.catalog.profiles(dataset_id, limit=limit)
        except Exception:  # a dataset no run profiled yet
            return ()


def build_lineage_sensor(
    *,
    name: str = DEFAULT_SENSOR_NAME,
    openlineage: Any = False,
    namespace: str = "dagster",
    resource_key: str = "faucet",
    minimum_interval_seconds: int = 30,
    batch_size: int = 100,
    default_status: dg.DefaultSensorStatus = dg.DefaultSensorStatus.STOPPED,
    description: str | None = None,
) -> dg.SensorDefinition:
    """A sensor that records every asset materialization in the faucet catalog (edges from
    deps with column lineage, schema, owners, contracts, the resource's ``catalog:``
    block), and, with ``openlineage``, emits OpenLineage RunEvents for them and for every
    asset-check evaluation (``dataQualityAssertions``; faucet profile checks add one
    assertion per column and ``dataQualityMetrics``).

    Args:
        openlineage: ``False`` (catalog only), ``True`` (an ``OpenLineageClient()``
            configured the openlineage-python way: ``openlineage.yml``,
            ``OPENLINEAGE__TRANSPORT__*``, ``OPENLINEAGE_URL``), or a client to use.
        namespace: the OpenLineage job namespace of the emitted events.
        resource_key: the :class:`FaucetResource` whose store holds the catalog.
        batch_size: materializations per asset (and executions per check) per tick.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise dg.DagsterInvalidDefinitionError(
            f"name={name!r} is not a valid sensor name: use letters, digits and underscores"
        )
    if not isinstance(batch_size, int) or batch_size < 1:
        raise dg.DagsterInvalidDefinitionError(f"batch_size={batch_size!r} must be an integer >= 1")
    if not isinstance(namespace, str) or not namespace.strip():
        raise dg.DagsterInvalidDefinitionError("namespace must be a non-empty string")
    if openlineage not in (True, False) and not callable(getattr(openlineage, "emit", None)):
        raise dg.DagsterInvalidDefinitionError(
            f"openlineage={openlineage!r} is not a client: pass True (configured "
            "OpenLineageClient()), False, or an OpenLineageClient"
        )
    client = None if openlineage is False else openlineage

    @dg.sensor(
        name=name,
        minimum_interval_seconds=minimum_interval_seconds,
        default_status=default_status,
        required_resource_keys={resource_key},
        description=description
        or "faucet: records every materialization in the catalog"
        + (" and emits OpenLineage events" if client is not None else ""),
    )
    def _lineage_sensor(context: dg.SensorEvaluationContext) -> dg.SkipReason:
        resource = getattr(context.resources, resource_key)
        catalog, config = _catalog_for(resource, None)
        try:
            tick = _Tick(context, catalog, config, client, namespace, batch_size)
            tick.materializations()
            tick.check_results()
        finally:
            catalog.close()
        context.update_cursor(tick.cursor())
        return dg.SkipReason(
            f"recorded {tick.recorded} materialization(s); emitted {tick.emitted} "
            "OpenLineage event(s)"
        )

    return _lineage_sensor
