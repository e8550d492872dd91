"""The planned schema: what the asset would now write, and where that knowledge comes from.

Most exact first: a **sample** of the output (its JSON types, exact), the **declared**
column schema, the **lineage** (the last observed upstream schemas pushed through the
declared column lineage, each output column typed like its single origin), else
**unknown**.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from faucet_core.catalog.model import SchemaField
from faucet_core.impact.report import PlannedFrom

__all__ = ["PlannedSchema", "from_declared", "from_lineage", "from_sample", "unknown"]


@dataclass(frozen=True)
class PlannedSchema:
    """The planned columns (``None`` when unknown) and where they came from."""

    source: PlannedFrom
    columns: tuple[SchemaField, ...] | None
    notes: tuple[str, ...] = ()

    def types(self) -> dict[str, str | None]:
        return {f.name: f.type for f in self.columns or ()}


def unknown(reason: str = "") -> PlannedSchema:
    note = reason or "no sample, no declared column schema and no column lineage"
    return PlannedSchema(PlannedFrom.UNKNOWN, None, (f"{note}: pass --sample",))


def from_declared(fields: Sequence[SchemaField]) -> PlannedSchema:
    return PlannedSchema(PlannedFrom.DECLARED, tuple(fields))


def _json_type(types: Mapping[str, int]) -> str:
    seen = [t for t, n in types.items() if n and t != "null"]
    return "|".join(sorted(seen) + (["null"] if types.get("null") else []))


def from_sample(data: Any) -> PlannedSchema:
    """The schema of a sample (anything :func:`faucet_core.profile` takes: records, a
    DataFrame, an Arrow reader), typed with the profiler's JSON types (``integer|null``).
    """
    from faucet_core.profile import profile

    prof = profile(data)
    fields = tuple(SchemaField(name, _json_type(col.types)) for name, col in prof.columns.items())
    notes: tuple[str, ...] = ()
    if prof.skipped_columns:
        notes = (f"the sample has {prof.skipped_columns} column(s) past max_columns, not planned",)
    return PlannedSchema(PlannedFrom.SAMPLE, fields, notes)


def from_lineage(
    lineage: Mapping[str, Sequence[tuple[str, str]]],
    upstream: Mapping[str, tuple[SchemaField, ...] | None],
) -> PlannedSchema:
    """Push upstream schemas through column lineage ``{out: [(dataset, column)...]}``.

    ``upstream`` maps each origin dataset (URI) to its last observed schema. An output whose
    single origin column is gone upstream is dropped from the plan (the change flows); one
    with several origins, or an origin whose dataset has no observed schema, is planned
    with an unknown type.
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
    return PlannedSchema(PlannedFrom.LINEAGE, tuple(fields), tuple(notes))
