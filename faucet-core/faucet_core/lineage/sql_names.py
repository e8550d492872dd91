"""Table names and column types for :func:`faucet_core.lineage.sql.sql_lineage`: the query
inside a statement, a table's name parts matched to the known tables, a type spelling
sqlglot can read. sqlglot is imported on first use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["match_known", "query_of", "spell", "split_name", "sql_type", "table_parts"]


def query_of(statement: Any, exp: Any) -> Any:
    if isinstance(statement, exp.Query):
        return statement
    if isinstance(statement, (exp.Create, exp.Insert)):
        inner = statement.expression
        if isinstance(inner, exp.Query):
            return inner
    return None


def match_known(parts: tuple[str, ...], known: Mapping[tuple[str, ...], str]) -> list[str]:
    """The known tables whose name ends in ``parts`` (case-insensitive)."""
    n = len(parts)
    return [name for key, name in known.items() if len(key) >= n and key[-n:] == parts]


def table_parts(table: Any) -> tuple[str, ...]:
    return tuple(p.name.casefold() for p in table.parts if p.name)


def spell(table: Any) -> str:
    return ".".join(p.name for p in table.parts if p.name)


def split_name(name: str, dialect: str | None) -> tuple[str, ...]:
    from sqlglot import exp

    try:
        return table_parts(exp.to_table(name, dialect=dialect))
    except Exception:  # sqlglot raises its own errors for odd names
        return tuple(p.casefold() for p in name.split("."))


def sql_type(text: str | None, dialect: str | None) -> str:
    """A type sqlglot can read: the spelling itself, a JSON type's SQL counterpart
    (``integer|null`` -> ``BIGINT``), else ``UNKNOWN``."""
    from sqlglot import exp

    if text:
        try:
            return exp.DataType.build(text, dialect=dialect).sql(dialect=dialect)
        except Exception:  # not a SQL spelling: maybe the profile's JSON types
            held = [t for t in text.split("|") if t != "null"]
            if len(held) == 1 and held[0] in _JSON_SQL:
                return _JSON_SQL[held[0]]
    return "UNKNOWN"


_JSON_SQL = {"integer": "BIGINT", "number": "DOUBLE", "string": "TEXT", "boolean": "BOOLEAN"}
