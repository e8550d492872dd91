"""The impact report: frozen value types, and their text and JSON renderings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from faucet_core.impact.types import TypeChange

__all__ = [
    "AffectedDataset",
    "ChangeKind",
    "ColumnChange",
    "ColumnRead",
    "ConsumerHit",
    "ContractHit",
    "ImpactReport",
    "ImpactSeverity",
    "PlannedFrom",
    "SampleRule",
    "render_text",
]


class ImpactSeverity(str, Enum):
    """How hard a change hits a dataset (ordered: none < additive < unknown < breaking)."""

    NONE = "none"
    ADDITIVE = "additive"
    UNKNOWN = "unknown"
    BREAKING = "breaking"

    @property
    def rank(self) -> int:
        return _RANK[self.value]

    @classmethod
    def worst(cls, items: Iterable[ImpactSeverity]) -> ImpactSeverity:
        return max(items, key=lambda s: s.rank, default=cls.NONE)


_RANK = {"none": 0, "additive": 1, "unknown": 2, "breaking": 3}


class PlannedFrom(str, Enum):
    """Where the planned schema came from, most exact first."""

    SAMPLE = "sample"
    DECLARED = "declared"
    LINEAGE = "lineage"
    UNKNOWN = "unknown"


class SampleRule(str, Enum):
    """How a sample's missing columns are read."""

    TYPED = "typed"
    """Parquet, Arrow IPC, CSV with a header: the sample states its columns, so a current
    column absent from it is removed."""
    UNTYPED = "untyped"
    """JSON lines (and records): only keys with a value show, so a current column with no
    value is removed only when the asset declares it dropped or renames it away."""


class ChangeKind(str, Enum):
    ADDED = "added"
    REMOVED = "removed"
    RETYPED = "retyped"
    RENAMED = "renamed"


@dataclass(frozen=True)
class ColumnChange:
    """One entry of the schema delta at the sink.

    ``before``/``after`` are types (added, removed, retyped) or, for a rename, the old and
    the new column name. ``direction`` says how a retype relates to the current type.
    """

    column: str
    change: ChangeKind
    before: str | None
    after: str | None
    severity: ImpactSeverity
    direction: TypeChange | None = None

    @property
    def flows(self) -> bool:
        """Non-additive changes reach downstream readers; additive ones do not."""
        return self.severity is ImpactSeverity.BREAKING

    @property
    def label(self) -> str:
        if self.change is ChangeKind.RENAMED:
            return f"renamed to {self.after}"
        if self.change is ChangeKind.RETYPED:
            return f"retyped {self.before} -> {self.after}"
        return str(self.change.value)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "column": self.column,
            "change": self.change.value,
            "from": self.before,
            "to": self.after,
            "severity": self.severity.value,
        }
        if self.direction is not None:
            out["direction"] = self.direction.value
        return out


@dataclass(frozen=True)
class ColumnRead:
    """A column of an affected dataset and the affected upstream columns it reads.

    ``column`` ``*`` is the whole dataset (a filter or join key changed). ``because`` names
    the schema-delta entries at the sink it derives from.
    """

    column: str
    reads: tuple[str, ...]
    because: tuple[str, ...]
    inferred: bool = False
    """Reached over lineage inferred from the profiles, not declared or derived."""
    evidence: tuple[str, ...] = ()
    """For an inferred read: why each upstream column is taken to feed it."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "column": self.column,
            "reads": list(self.reads),
            "because": list(self.because),
        }
        if self.inferred:
            out["inferred"] = True
            out["evidence"] = list(self.evidence)
        return out


@dataclass(frozen=True)
class ContractHit:
    """A data contract over an affected column of a dataset."""

    version: str
    job: str
    columns: tuple[str, ...]
    affected: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "job": self.job,
            "columns": list(self.columns),
            "affected": list(self.affected),
        }


@dataclass(frozen=True)
class ConsumerHit:
    """A declared consumer the change reaches."""

    name: str
    kind: str
    contact: str
    columns: tuple[str, ...]
    severity: ImpactSeverity

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "contact": self.contact,
            "columns": list(self.columns),
            "severity": self.severity.value,
        }


@dataclass(frozen=True)
class AffectedDataset:
    """A dataset the change reaches (depth 0 is the sink itself)."""

    dataset: str
    id: str
    depth: int
    severity: ImpactSeverity
    written_by: tuple[str, ...]
    reads: tuple[ColumnRead, ...]
    contracts: tuple[ContractHit, ...]
    owners: tuple[str, ...]
    consumers: tuple[ConsumerHit, ...]
    opaque_from: str | None = None
    """For an unknown dataset: the upstream dataset it is reached from."""
    opaque_edge: bool = False
    """True: that edge carries no column lineage; False: that dataset's change is unknown."""
    inferred: bool = False
    """``breaking (inferred)``: only lineage inferred from the profiles reaches it."""

    @property
    def label(self) -> str:
        return f"{self.severity.value} (inferred)" if self.inferred else self.severity.value

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"inferred": True} if self.inferred else {}
        return {
            "dataset": self.dataset,
            "id": self.id,
            "depth": self.depth,
            "severity": self.severity.value,
            "written_by": list(self.written_by),
            "reads": [r.to_dict() for r in self.reads],
            "contracts": [c.to_dict() for c in self.contracts],
            "owners": list(self.owners),
            "consumers": [c.to_dict() for c in self.consumers],
            "opaque_from": self.opaque_from,
            "opaque_edge": self.opaque_edge,
            **extra,
        }


@dataclass(frozen=True)
class ImpactReport:
    """Who breaks if this ships: the delta at the sink and every dataset it reaches."""

    severity: ImpactSeverity
    planned_from: PlannedFrom
    sink_dataset: str
    sink_id: str
    last_run: str | None
    depth: int
    schema_delta: tuple[ColumnChange, ...]
    affected: tuple[AffectedDataset, ...]
    owners: tuple[str, ...]
    notes: tuple[str, ...]
    sample_rule: SampleRule | None = None
    """With a sample: which rule read its missing columns."""

    @property
    def breaking(self) -> bool:
        return self.severity is ImpactSeverity.BREAKING

    def to_dict(self) -> dict[str, Any]:
        return {
            "impact": {
                "severity": self.severity.value,
                "planned_from": self.planned_from.value,
                "sample_rule": self.sample_rule.value if self.sample_rule else None,
                "sink_dataset": self.sink_dataset,
                "sink_id": self.sink_id,
                "last_run": self.last_run,
                "depth": self.depth,
                "schema_delta": [c.to_dict() for c in self.schema_delta],
                "affected": [a.to_dict() for a in self.affected],
                "owners": list(self.owners),
                "notes": list(self.notes),
            }
        }


def _delta_token(change: ColumnChange) -> str:
    if change.change is ChangeKind.ADDED:
        return f"+{change.column}"
    if change.change is ChangeKind.REMOVED:
        return f"-{change.column}"
    if change.change is ChangeKind.RENAMED:
        return f"{change.column}→{change.after}"
    return f"{change.column}: {change.before} -> {change.after} ({_direction_text(change)})"


def _direction_text(change: ColumnChange) -> str:
    return change.direction.value if change.direction is not None else "?"


def _opaque_why(item: AffectedDataset) -> str:
    if item.opaque_edge:
        return f"no column lineage on the edge from {item.opaque_from}"
    if item.severity is ImpactSeverity.UNKNOWN:
        return f"downstream of {item.opaque_from}, whose change is unknown"
    return f"downstream of {item.opaque_from}, whose change is not fully known"


def _opaque_lines(item: AffectedDataset) -> list[str]:
    """Why a dataset is (partly) unknown: an opaque path into it."""
    if item.opaque_from is None or item.depth == 0:
        return []
    if item.severity is ImpactSeverity.UNKNOWN or not item.reads:
        return [_opaque_why(item)]
    return [f"another path into it is opaque ({_opaque_why(item)}): other columns may change too"]


def render_text(report: ImpactReport) -> str:
    """The report for a terminal, in the layout of docs/impact.md."""
    n = len(report.affected)
    lines = [
        f"impact: {report.severity.value} ({n} affected dataset(s), {_FROM[report.planned_from]})",
        f"  sink dataset: {report.sink_dataset} (last run {report.last_run or '-'})",
    ]
    if report.sample_rule is not None:
        lines.append(f"  sample rule: {_RULE[report.sample_rule]}")
    if report.planned_from is PlannedFrom.UNKNOWN:
        lines.append(
            "  schema delta: unknown, so everything downstream is unknown "
            "(the notes say why and how to make it known)"
        )
    elif report.schema_delta:
        lines.append("  schema delta:")
        lines.extend(f"    {_delta_token(c)} [{c.severity.value}]" for c in report.schema_delta)
    else:
        lines.append("  schema delta: none")
    for item in report.affected:
        via = ", ".join(item.written_by) or "-"
        lines.append(f"  [{item.label}] depth {item.depth} {item.dataset} (written by {via})")
        lines.extend(f"      {line}" for line in _opaque_lines(item))
        for read in item.reads:
            column = "(every column)" if read.column == "*" else read.column
            if item.depth == 0:
                lines.append(f"      {column}: {', '.join(read.because)}")
            else:
                how = "reads (inferred)" if read.inferred else "reads"
                lines.append(
                    f"      {column} {how} {', '.join(read.reads)} ({', '.join(read.because)})"
                )
                lines.extend(f"        evidence: {why}" for why in read.evidence)
        for hit in item.contracts:
            lines.append(
                f"      contract v{hit.version} of {hit.job} declares: {', '.join(hit.columns)}"
                f" (affected: {', '.join(hit.affected)})"
            )
        if item.owners:
            lines.append(f"      owners: {', '.join(item.owners)}")
        for consumer in item.consumers:
            contact = f" → {consumer.contact}" if consumer.contact else ""
            lines.append(
                f"      consumer {consumer.name} [{consumer.severity.value}] "
                f"({consumer.kind or '-'}){contact}"
            )
    lines.append(f"  owners to notify: {', '.join(report.owners) or '-'}")
    lines.extend(f"  note: {note}" for note in report.notes)
    return "\n".join(lines)


_FROM = {
    PlannedFrom.SAMPLE: "planned schema from the sample",
    PlannedFrom.DECLARED: "planned schema from the declared column schema",
    PlannedFrom.LINEAGE: "planned schema from upstream schemas through the column lineage",
    PlannedFrom.UNKNOWN: "planned schema unknown",
}

_RULE = {
    SampleRule.TYPED: "typed (its schema states the columns: a column absent from it is removed)",
    SampleRule.UNTYPED: (
        "untyped JSON lines (a column with no value is removed only when the asset declares "
        "it dropped)"
    ),
}
