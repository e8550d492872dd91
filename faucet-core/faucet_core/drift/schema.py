"""Observed schema changes: columns a run added or dropped, and JSON type sets that changed.

These are learned, not flagged as drift: a profile check reports them in its result's
metadata and description, and ``on_drift: notify`` sends one ``profile_schema_change``
notification for the run. A column's type set is the JSON types it held (nulls left out:
a column going all-null is a null-rate matter, not a schema change).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from faucet_core.profile import TableProfile

__all__ = ["SchemaChange", "SchemaChangeKind", "describe_schema_changes", "schema_changes"]


class SchemaChangeKind(str, Enum):
    ADDED = "added"
    DROPPED = "dropped"
    TYPES = "types"


@dataclass(frozen=True)
class SchemaChange:
    column: str
    kind: SchemaChangeKind
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "column": self.column,
            "change": self.kind.value,
            "before": list(self.before),
            "after": list(self.after),
        }

    @property
    def text(self) -> str:
        if self.kind is SchemaChangeKind.ADDED:
            return f"new column {self.column} ({', '.join(self.after) or 'only nulls'})"
        if self.kind is SchemaChangeKind.DROPPED:
            return f"column {self.column} dropped (was {', '.join(self.before) or 'only nulls'})"
        return (
            f"column {self.column} types {'/'.join(self.before) or 'null'} -> "
            f"{'/'.join(self.after) or 'null'}"
        )


def _types(profile: TableProfile, column: str) -> tuple[str, ...]:
    col = profile.columns[column]
    return tuple(sorted(t for t, n in col.types.items() if n > 0 and t != "null"))


def schema_changes(previous: TableProfile, current: TableProfile) -> list[SchemaChange]:
    """What changed from ``previous`` to ``current``: added, dropped, retyped columns.

    Columns left out by ``max_columns`` in either run are not compared (their absence says
    nothing about the table)."""
    before, after = set(previous.columns), set(current.columns)
    out: list[SchemaChange] = []
    capped = bool(previous.skipped_columns or current.skipped_columns)
    for name in sorted(after - before):
        if not capped:
            out.append(SchemaChange(name, SchemaChangeKind.ADDED, after=_types(current, name)))
    for name in sorted(before - after):
        if not capped:
            out.append(SchemaChange(name, SchemaChangeKind.DROPPED, before=_types(previous, name)))
    for name in sorted(before & after):
        old, new = _types(previous, name), _types(current, name)
        if old and new and old != new:
            out.append(SchemaChange(name, SchemaChangeKind.TYPES, before=old, after=new))
    return out


def describe_schema_changes(changes: list[SchemaChange]) -> str:
    """``schema changed since the previous run: column b dropped (was string); ...``."""
    if not changes:
        return ""
    return "schema changed since the previous run: " + "; ".join(c.text for c in changes)
