"""``build_lineage_sensor``: every materialization into the catalog, and (optionally) out
to OpenLineage with the asset checks' results as data-quality assertions.

It reads the event log the way the default SQLite storage supports: per asset key
(``fetch_materializations`` after a storage id) and per check key
(``get_asset_check_execution_history``), never a cross-run event-type query.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from typing import Any

import dagster as dg

from faucet_core.catalog import Catalog, CatalogConfig, Observation
from faucet_core.lineage import default_client
from faucet_dagster.lineage.openlineage import check_events, materialization_events
from faucet_dagster.lineage.record import (
    _catalog_for,
    asset_run_record,
    dataset_of_key,
    record_in_catalog,
)

__all__ = ["DEFAULT_SENSOR_NAME", "build_lineage_sensor", "build_openlineage_sensor"]

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
        found: list[Any] = []
        cursor = None
        for _ in range(_HISTORY_PAGES):
            page = storage.get_asset_check_execution_history(key, limit=self.batch, cursor=cursor)
            fresh = [r for r in page if r.id > after]
            found.extend(fresh)
            if len(fresh) < len(page) or len(page) < self.batch:
                break
            cursor = page[-1].id
        return sorted(found, key=lambda r: r.id)

    def _check(self, record: Any) -> None:
        event = record.event
        evaluation = None
        if event is not None and event.dagster_event is not None:
            evaluation = event.dagster_event.asset_check_evaluation_data
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

    def _profiles(self, dataset_id: str) -> tuple[Any, ...]:
        try:
            return self.catalog.profiles(dataset_id, limit=20)
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


def build_openlineage_sensor(
    *, name: str = "faucet_openlineage", openlineage: Any = True, **kwargs: Any
) -> dg.SensorDefinition:
    """:func:`build_lineage_sensor` with OpenLineage emission on (the configured client, or
    the one given)."""
    return build_lineage_sensor(name=name, openlineage=openlineage, **kwargs)
