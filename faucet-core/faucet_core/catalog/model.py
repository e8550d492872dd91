"""The catalog's value types: datasets, runs, lineage edges, owners, consumers, contracts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from faucet_core.catalog.uri import dataset_id, dataset_uri

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


class RunState(str, Enum):
    """A run's state, as OpenLineage names its event types."""

    START = "START"
    RUNNING = "RUNNING"
    COMPLETE = "COMPLETE"
    ABORT = "ABORT"
    FAIL = "FAIL"
    OTHER = "OTHER"

    @property
    def terminal(self) -> bool:
        return self in (RunState.COMPLETE, RunState.ABORT, RunState.FAIL)


@dataclass(frozen=True, order=True)
class DatasetRef:
    """A dataset named the OpenLineage way; ``uri`` and ``id`` derive from the two."""

    namespace: str
    name: str
    uri: str = field(init=False, repr=False, compare=False)
    """The canonical URI (see :mod:`faucet_core.catalog.uri`)."""
    id: str = field(init=False, repr=False, compare=False)
    """The short, stable id: a SHA-256 prefix of the URI."""

    def __post_init__(self) -> None:
        uri = dataset_uri(self.namespace, self.name)
        object.__setattr__(self, "uri", uri)
        object.__setattr__(self, "id", dataset_id(uri))


@dataclass(frozen=True, order=True)
class JobRef:
    """What wrote a dataset: an OpenLineage job, or a Dagster asset (namespace ``dagster``)."""

    namespace: str
    name: str

    def __str__(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True)
class SchemaField:
    """One column of a dataset's schema; ``fields`` holds a struct's nested columns."""

    name: str
    type: str | None = None
    description: str | None = None
    fields: tuple[SchemaField, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type}
        if self.description:
            out["description"] = self.description
        if self.fields:
            out["fields"] = [f.to_dict() for f in self.fields]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SchemaField:
        return cls(
            name=str(data["name"]),
            type=data.get("type"),
            description=data.get("description"),
            fields=tuple(cls.from_dict(f) for f in data.get("fields") or ()),
        )


@dataclass(frozen=True, order=True)
class Transformation:
    """How an output derives from an input column, as OpenLineage's columnLineage says it:
    ``type`` ``DIRECT`` (the value is computed from it) or ``INDIRECT`` (it decides which
    rows or groups there are: filters, joins, grouping), and the ``subtype`` when given
    (``IDENTITY``, ``TRANSFORMATION``, ``AGGREGATION``, ``FILTER``, ``JOIN``, ``GROUP_BY``,
    ``SORT``, ``WINDOW``, ``CONDITIONAL``, ...)."""

    type: str
    subtype: str | None = None

    @classmethod
    def parse(cls, kind: str) -> Transformation:
        """From the stored ``TYPE`` or ``TYPE/SUBTYPE``."""
        type_, _, subtype = kind.partition("/")
        return cls(type_, subtype or None)

    def __str__(self) -> str:
        return f"{self.type}/{self.subtype}" if self.subtype else self.type

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "subtype": self.subtype}


@dataclass(frozen=True, order=True)
class ColumnInput:
    """One input column an output column (or the whole dataset) is derived from.

    ``kinds`` are the OpenLineage transformations, ``TYPE`` or ``TYPE/SUBTYPE``
    (``DIRECT/IDENTITY``, ``INDIRECT/FILTER``); empty when the producer did not say.
    """

    field: str
    kinds: tuple[str, ...] = ()

    @property
    def transformations(self) -> tuple[Transformation, ...]:
        return tuple(Transformation.parse(k) for k in self.kinds)


def merged_inputs(inputs: tuple[ColumnInput, ...]) -> tuple[ColumnInput, ...]:
    """``inputs`` with one entry per source column (its transformations united), sorted."""
    kinds: dict[str, dict[str, None]] = {}
    for i in inputs:
        kinds.setdefault(i.field, {}).update(dict.fromkeys(i.kinds))
    return tuple(ColumnInput(f, tuple(sorted(k))) for f, k in sorted(kinds.items()))


@dataclass(frozen=True)
class ColumnLineage:
    """The column lineage of one edge: ``{out: [in...]}`` over the edge's source columns.

    ``dataset`` lists the source columns the whole output depends on (filters, joins,
    grouping): a change to one of them reaches every output column.
    """

    fields: Mapping[str, tuple[ColumnInput, ...]]
    dataset: tuple[ColumnInput, ...] = ()

    def as_map(self) -> dict[str, list[str]]:
        """``{out: [in...]}``: the source columns each output column reads."""
        return {out: sorted({i.field for i in ins}) for out, ins in sorted(self.fields.items())}

    def to_json(self) -> dict[str, Any]:
        """The lineage as ``--json`` and the API show it: per output column and for the
        whole dataset, each source column with its transformations (``[]`` when the
        producer did not say)."""

        def enc(ins: tuple[ColumnInput, ...]) -> list[dict[str, Any]]:
            return [
                {"field": i.field, "transformations": [t.to_dict() for t in i.transformations]}
                for i in merged_inputs(ins)
            ]

        return {
            "fields": {out: enc(ins) for out, ins in sorted(self.fields.items())},
            "dataset": enc(self.dataset),
        }

    def reads(self) -> set[str]:
        """Every source column the edge reads (for fields and for the whole dataset)."""
        return {i.field for ins in self.fields.values() for i in ins} | {
            i.field for i in self.dataset
        }

    def to_dict(self) -> dict[str, Any]:
        def enc(ins: tuple[ColumnInput, ...]) -> list[Any]:
            return [[i.field, list(i.kinds)] if i.kinds else i.field for i in ins]

        out: dict[str, Any] = {"fields": {k: enc(v) for k, v in sorted(self.fields.items())}}
        if self.dataset:
            out["dataset"] = enc(self.dataset)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ColumnLineage:
        def dec(items: Any) -> tuple[ColumnInput, ...]:
            return tuple(
                ColumnInput(i[0], tuple(i[1])) if isinstance(i, list) else ColumnInput(str(i))
                for i in items or ()
            )

        return cls(
            fields={str(k): dec(v) for k, v in (data.get("fields") or {}).items()},
            dataset=dec(data.get("dataset")),
        )


@dataclass(frozen=True, order=True)
class FieldRef:
    """An input column in an output's column lineage, before it is split per edge."""

    dataset: DatasetRef
    field: str
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class Contract:
    """A declared data contract: its version and the columns it guarantees."""

    version: str
    columns: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "columns": list(self.columns)}


@dataclass(frozen=True)
class Observation:
    """What one run says about one dataset it read or wrote.

    ``schema``/``owners`` ``None`` mean "not said" (nothing changes); ``column_lineage``
    ``None`` on an output means unknown (its edges become opaque), never "no dependency".
    """

    dataset: DatasetRef
    schema: tuple[SchemaField, ...] | None = None
    owners: tuple[str, ...] | None = None
    column_lineage: Mapping[str, tuple[FieldRef, ...]] | None = None
    dataset_lineage: tuple[FieldRef, ...] = ()


@dataclass(frozen=True)
class RunRecord:
    """One run event, from OpenLineage or from a Dagster materialization.

    COMPLETE writes edges (every input, and every dataset an output's column lineage
    names, to each output), schemas and owners; other states record the run only.
    ``replace_inputs``: the record names every input of its outputs (a Dagster asset's
    deps), so edges into those outputs from other sources, by the same job, are dropped.
    ``declares_lineage``: a record without a run whose column lineage is what the code
    declares now (``faucet catalog sync``): on an edge a run recorded, that lineage
    replaces the edge's (its run and time stay); an edge the code gives none keeps its own.
    """

    job: JobRef
    run_id: str | None
    state: RunState
    event_time: dt.datetime
    source: str = "openlineage"
    inputs: tuple[Observation, ...] = ()
    outputs: tuple[Observation, ...] = ()
    contract: Contract | None = None
    config: Mapping[str, Any] | None = None
    replace_inputs: bool = False
    declares_lineage: bool = False


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
