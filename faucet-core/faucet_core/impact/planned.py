"""The planned schema: what the asset would now write, and where that knowledge comes from.

Most exact first: a **sample** of the output (its JSON types, exact), the **declared**
column schema, the **lineage** (the last observed upstream schemas pushed through the
declared column lineage, each output column typed like its single origin), else
**unknown**.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from faucet_core.catalog.model import SchemaField
from faucet_core.impact.report import PlannedFrom, SampleRule

__all__ = ["Observed", "PlannedSchema", "from_declared", "from_lineage", "unknown"]


@dataclass(frozen=True)
class Observed:
    """What a sample's values show about one column, besides its planned type: their JSON
    type (the profiler's view, as a profile check records it), their numeric range, and
    for a CSV the type its reader infers."""

    json_type: str | None = None
    low: float | None = None
    high: float | None = None
    inferred: str | None = None
    """A CSV column's type as its reader infers it from the text (``timestamp``)."""

    @property
    def values(self) -> tuple[float, float] | None:
        if self.low is None or self.high is None:
            return None
        return (self.low, self.high)


@dataclass(frozen=True)
class PlannedSchema:
    """The planned columns (``None`` when unknown) and where they came from.

    For a sample, ``rule`` says how a column absent from it is read (a typed sample states
    its columns; JSON lines only show keys with a value) and ``observed`` what its values
    show, so the delta compares like with like.
    """

    source: PlannedFrom
    columns: tuple[SchemaField, ...] | None
    notes: tuple[str, ...] = ()
    rule: SampleRule | None = None
    observed: Mapping[str, Observed] = field(default_factory=dict)
    covers: frozenset[str] | None = None
    """The columns the plan speaks for; None: every column (a declared schema or a sample
    states them all). Column lineage speaks only for the columns it names: a current
    column it does not mention (an ``index``, a ``loaded_at``) is unknown, not removed."""

    def types(self) -> dict[str, str | None]:
        return {f.name: f.type for f in self.columns or ()}


UNKNOWN_FIX = (
    "to make it known, pass --sample (a file of what the asset would now write) or declare "
    "its column schema"
)


def unknown(reason: str = "") -> PlannedSchema:
    """No planned schema: ``reason`` says why (the note adds how to make it known)."""
    why = reason or "no sample, no declared column schema and no column lineage"
    return PlannedSchema(
        PlannedFrom.UNKNOWN,
        None,
        (f"what the asset would now write is unknown: {why}; {UNKNOWN_FIX}",),
    )


def from_declared(fields: Sequence[SchemaField]) -> PlannedSchema:
    return PlannedSchema(PlannedFrom.DECLARED, tuple(fields))


def from_lineage(
    lineage: Mapping[str, Sequence[tuple[str, str]]],
    upstream: Mapping[str, tuple[SchemaField, ...] | None],
) -> PlannedSchema:
    """Push upstream schemas through column lineage ``{out: [(dataset, column)...]}``.

    ``upstream`` maps each origin dataset (URI) to its last observed schema. An output whose
    single origin column is gone upstream is dropped from the plan (the change flows); one
    with several origins, or an origin whose dataset has no observed schema, is planned
    with an unknown type. The plan covers only the outputs ``lineage`` names.
    """
    fields, notes = [], []
    for out, origins in sorted(lineage.items()):
        refs = sorted(set(origins))
        if len(refs) != 1:
            fields.append(SchemaField(out, None))
            continue
        dataset, column = refs[0]
        schema = upstream.get(dataset)
        if schema is None:
            fields.append(SchemaField(out, None))
            notes.append(f"{out}: {dataset} has no observed schema; its type is unknown")
            continue
        types = {f.name: f.type for f in schema}
        if column not in types:
            notes.append(f"{out}: its origin {dataset} {column} is no longer observed upstream")
            continue
        fields.append(SchemaField(out, types[column]))
    return PlannedSchema(
        PlannedFrom.LINEAGE, tuple(fields), tuple(notes), covers=frozenset(lineage)
    )
