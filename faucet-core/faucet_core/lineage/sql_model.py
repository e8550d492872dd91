"""The result of :func:`faucet_core.lineage.sql.sql_lineage`: OpenLineage's transformation
types, the input and output columns, and the whole query's lineage."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DIRECT_AGGREGATION",
    "DIRECT_IDENTITY",
    "DIRECT_TRANSFORMATION",
    "INDIRECT_CONDITIONAL",
    "INDIRECT_FILTER",
    "INDIRECT_GROUP_BY",
    "INDIRECT_JOIN",
    "INDIRECT_SORT",
    "INDIRECT_WINDOW",
    "MAX_SQL_CHARS",
    "OutputColumn",
    "SourceColumn",
    "SqlLineage",
]

DIRECT_IDENTITY = "DIRECT/IDENTITY"
DIRECT_TRANSFORMATION = "DIRECT/TRANSFORMATION"
DIRECT_AGGREGATION = "DIRECT/AGGREGATION"
INDIRECT_CONDITIONAL = "INDIRECT/CONDITIONAL"
INDIRECT_WINDOW = "INDIRECT/WINDOW"
INDIRECT_FILTER = "INDIRECT/FILTER"
INDIRECT_JOIN = "INDIRECT/JOIN"
INDIRECT_GROUP_BY = "INDIRECT/GROUP_BY"
INDIRECT_SORT = "INDIRECT/SORT"

MAX_SQL_CHARS = 1_000_000
"""Longer SQL is not parsed (its lineage is opaque)."""


@dataclass(frozen=True, order=True)
class SourceColumn:
    """An input column: the known table's name (as given to :func:`sql_lineage`; the SQL's
    spelling for an unresolved table), the column, and how it is used."""

    table: str
    column: str
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class OutputColumn:
    """One column the query returns, with its SQL type when sqlglot can tell it."""

    name: str
    type: str | None = None


@dataclass(frozen=True)
class SqlLineage:
    """The column lineage of one query (see the module docstring)."""

    dialect: str | None
    columns: tuple[OutputColumn, ...] = ()
    fields: Mapping[str, tuple[SourceColumn, ...]] = field(default_factory=dict)
    """Output column -> the input columns it reads."""
    dataset: tuple[SourceColumn, ...] = ()
    """Input columns that decide which rows there are (every output column depends on them)."""
    tables: tuple[str, ...] = ()
    """Every table the query reads (known names; the SQL's spelling when unresolved)."""
    unresolved: tuple[str, ...] = ()
    """Tables the query reads that are not among the known tables."""
    opaque: Mapping[str, str] = field(default_factory=dict)
    """Known tables whose lineage is incomplete -> why."""
    error: str | None = None
    """Why the whole query is opaque (unparseable, not a query, unknown output columns)."""

    @property
    def known(self) -> bool:
        return self.error is None

    def complete_for(self, table: str) -> bool:
        """Whether the lineage from ``table`` is complete (its edge may carry it)."""
        return (
            self.known
            and table in self.tables
            and table not in self.opaque
            and table not in self.unresolved
        )

    def to_dict(self) -> dict[str, Any]:
        def enc(items: Iterable[SourceColumn]) -> list[dict[str, Any]]:
            return [{"table": s.table, "column": s.column, "kinds": list(s.kinds)} for s in items]

        return {
            "dialect": self.dialect,
            "columns": [{"name": c.name, "type": c.type} for c in self.columns],
            "fields": {k: enc(v) for k, v in self.fields.items()},
            "dataset": enc(self.dataset),
            "tables": list(self.tables),
            "unresolved": list(self.unresolved),
            "opaque": dict(self.opaque),
            "error": self.error,
        }
