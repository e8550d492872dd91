"""The catalog's value types: datasets, runs, lineage edges, owners, consumers, contracts.

The run records the catalog is written from are in :mod:`faucet_core.catalog.records`
(re-exported here); what its reads return is defined here."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from faucet_core.catalog.records import (
    ColumnInput,
    ColumnLineage,
    Contract,
    DatasetRef,
    FieldRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
    SchemaField,
    Transformation,
    merged_inputs,
)

__all__ = [
    "ColumnInput",
    "ColumnLineage",
    "Consumer",
    "Contract",
    "DatasetDetail",
    "DatasetEntry",
    "DatasetProfileRun",
    "DatasetRef",
    "Edge",
    "FieldRef",
    "JobRef",
    "LatestOutcome",
    "Observation",
    "Owner",
    "OwnerSource",
    "RunRecord",
    "RunState",
    "SchemaField",
    "Snapshot",
    "Transformation",
    "WriterRun",
    "merged_inputs",
]


class OwnerSource(str, Enum):
    """Where an owner of a dataset was declared."""

    CODE = "code"
    """The Dagster asset's ``owners=`` (a materialization, ``faucet catalog sync``)."""
    OPENLINEAGE = "openlineage"
    """The ``ownership`` facet of an OpenLineage event."""
    CONFIG = "config"
    """The ``catalog:`` block of the FaucetResource / ProfilingComponent."""
    ANNOTATION = "annotation"
    """``faucet catalog annotate --owner`` or the API."""
    LEGACY = "legacy"
    """Recorded before faucet kept owner sources (a store migrated to schema version 6)."""


@dataclass(frozen=True)
class Owner:
    """One owner of a dataset and every source that declares it."""

    name: str
    sources: tuple[OwnerSource, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "sources": [s.value for s in self.sources]}

    def __str__(self) -> str:
        return f"{self.name} ({', '.join(s.value for s in self.sources)})"


@dataclass(frozen=True)
class Consumer:
    """A declared consumer of a dataset (a dashboard, a model, an export).

    ``columns`` empty means it reads every column.
    """

    name: str
    kind: str = ""
    contact: str = ""
    columns: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "contact": self.contact,
            "columns": list(self.columns),
        }


@dataclass(frozen=True)
class Edge:
    """A lineage edge ``source -> sink`` written by ``job``; it keeps its latest run's
    column lineage only (``None``: opaque, the change may or may not reach the sink)."""

    source_id: str
    source_uri: str
    sink_id: str
    sink_uri: str
    job: JobRef
    run_id: str | None
    event_time: dt.datetime
    column_lineage: ColumnLineage | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": {"id": self.source_id, "uri": self.source_uri},
            "sink": {"id": self.sink_id, "uri": self.sink_uri},
            "job": str(self.job),
            "run_id": self.run_id,
            "event_time": self.event_time.isoformat(),
            "column_lineage": self.column_lineage.to_json() if self.column_lineage else None,
        }


@dataclass(frozen=True)
class Snapshot:
    """A job's recorded configuration, with the data contract it declares on a dataset."""

    job: JobRef
    dataset_id: str | None
    run_id: str | None
    recorded_at: dt.datetime
    config: Mapping[str, Any]
    contract: Contract | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": str(self.job),
            "dataset_id": self.dataset_id,
            "run_id": self.run_id,
            "recorded_at": self.recorded_at.isoformat(),
            "contract": self.contract.to_dict() if self.contract else None,
            "config": dict(self.config),
        }


@dataclass(frozen=True)
class DatasetEntry:
    """One dataset as the catalog lists it."""

    id: str
    uri: str
    namespace: str
    name: str
    owners: tuple[str, ...]
    schema: tuple[SchemaField, ...] | None
    schema_run_id: str | None
    created_at: dt.datetime
    updated_at: dt.datetime
    upstream: int = 0
    downstream: int = 0
    last_run_at: dt.datetime | None = None
    owner_sources: tuple[Owner, ...] = ()
    """``owners`` with the sources that declare each (code, openlineage, config,
    annotation, legacy); ``owners`` is their union, as plain names."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "uri": self.uri,
            "namespace": self.namespace,
            "name": self.name,
            "owners": list(self.owners),
            "owner_sources": [o.to_dict() for o in self.owner_sources],
            "schema": [f.to_dict() for f in self.schema] if self.schema is not None else None,
            "schema_run_id": self.schema_run_id,
            "upstream": self.upstream,
            "downstream": self.downstream,
            "last_run_at": self.last_run_at.isoformat() if self.last_run_at else None,
            "updated_at": self.updated_at.isoformat(),
        }


@dataclass(frozen=True)
class DatasetProfileRun:
    """One run's profile, recorded on the dataset it profiled (the catalog's copy)."""

    dataset_id: str
    run_id: str
    partition: str
    recorded_at: dt.datetime
    status: str
    row_count: int
    findings: tuple[dict[str, Any], ...]
    profile: Any
    """The :class:`~faucet_core.profile.TableProfile`."""

    def to_dict(self, *, profile: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "run_id": self.run_id,
            "partition": self.partition or None,
            "recorded_at": self.recorded_at.isoformat(),
            "status": self.status,
            "row_count": self.row_count,
            "findings": list(self.findings),
            "null_rates": {n: c.null_rate for n, c in self.profile.columns.items()},
        }
        if profile:
            out["profile"] = self.profile.to_dict(sketches=False)
        return out


@dataclass(frozen=True)
class DatasetSummary:
    """What a list of every dataset shows: no schema, edge counts or owner sources (see
    :meth:`~faucet_core.catalog.Catalog.dataset_summaries`)."""

    id: str
    uri: str
    namespace: str
    name: str
    owners: tuple[str, ...]
    last_run_at: dt.datetime | None = None


@dataclass(frozen=True)
class LatestOutcome:
    """A dataset's newest profile outcome, without the profile (the datasets list)."""

    run_id: str
    recorded_at: dt.datetime
    status: str
    findings: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class SchemaChangeRecord:
    """One observed schema change of a dataset: a column a run added, dropped or retyped
    (its JSON types) against the dataset's previous profile."""

    dataset_id: str
    run_id: str
    partition: str
    changed_at: dt.datetime
    column: str
    change: str
    """``added``, ``dropped`` or ``types``."""
    before: tuple[str, ...]
    after: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "partition": self.partition or None,
            "changed_at": self.changed_at.isoformat(),
            "column": self.column,
            "change": self.change,
            "before": list(self.before),
            "after": list(self.after),
        }


@dataclass(frozen=True)
class WriterRun:
    """A run that read or wrote a dataset."""

    job: JobRef
    run_id: str | None
    state: RunState
    role: str
    event_time: dt.datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": str(self.job),
            "run_id": self.run_id,
            "state": self.state.value,
            "role": self.role,
            "event_time": self.event_time.isoformat(),
        }


@dataclass(frozen=True)
class DatasetDetail:
    """Everything the catalog knows about one dataset (``faucet catalog show``)."""

    dataset: DatasetEntry
    consumers: tuple[Consumer, ...]
    upstream: tuple[Edge, ...]
    downstream: tuple[Edge, ...]
    runs: tuple[WriterRun, ...]
    snapshots: tuple[Snapshot, ...]
    profiles: tuple[DatasetProfileRun, ...] = field(default=())
    """Profile history, oldest first; the last is the latest."""
    schema_history: tuple[SchemaChangeRecord, ...] = field(default=())
    """Observed schema changes, oldest first (the newest 100)."""

    @property
    def latest_profile(self) -> DatasetProfileRun | None:
        return self.profiles[-1] if self.profiles else None

    @property
    def contracts(self) -> tuple[Snapshot, ...]:
        return tuple(s for s in self.snapshots if s.contract is not None)

    def to_dict(self) -> dict[str, Any]:
        latest = self.latest_profile
        return {
            **self.dataset.to_dict(),
            "consumers": [c.to_dict() for c in self.consumers],
            "upstream": [e.to_dict() for e in self.upstream],
            "downstream": [e.to_dict() for e in self.downstream],
            "runs": [r.to_dict() for r in self.runs],
            "contracts": [s.to_dict() for s in self.contracts],
            "profile": {
                "latest": latest.to_dict() if latest else None,
                "history": [p.to_dict(profile=False) for p in self.profiles],
            },
            "schema_history": [c.to_dict() for c in self.schema_history],
        }
