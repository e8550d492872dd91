"""The catalog's input: run records (OpenLineage or Dagster) with the datasets, schemas,
column lineage and contracts they name."""

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
    "Contract",
    "DatasetRef",
    "FieldRef",
    "JobRef",
    "Observation",
    "RunRecord",
    "RunState",
    "SchemaField",
    "Transformation",
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
