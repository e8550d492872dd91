"""Reflection for the SQL pushdown profiler: each column's name and SQLAlchemy type."""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa

__all__ = ["Nested", "reflect_columns"]


class Nested(sa.types.UserDefinedType[Any]):
    """A DuckDB STRUCT or MAP column (SQLAlchemy has no type for them): a JSON object."""

    cache_ok = True

    def get_col_spec(self, **_kw: Any) -> str:
        return "STRUCT"


def reflect_columns(conn: sa.Connection, name: str, schema: str | None) -> list[tuple[str, Any]]:
    """(name, SQLAlchemy type) of every column of table or view ``name``, in order.

    DuckDB is read from its ``information_schema``: duckdb-engine's reflection runs
    PostgreSQL catalog queries that DuckDB cannot answer under SQLAlchemy 2.1. Every other
    dialect goes through ``inspect(conn).get_columns``. A missing table raises
    ``sqlalchemy.exc.NoSuchTableError``.
    """
    if conn.dialect.name == "duckdb":
        return _duckdb_columns(conn, name, schema)
    return [(c["name"], c["type"]) for c in sa.inspect(conn).get_columns(name, schema=schema)]


def _duckdb_columns(conn: sa.Connection, name: str, schema: str | None) -> list[tuple[str, Any]]:
    cols = sa.table(
        "columns",
        sa.column("table_name"),
        sa.column("table_schema"),
        sa.column("column_name"),
        sa.column("data_type"),
        sa.column("ordinal_position"),
        schema="information_schema",
    )
    where = cols.c.table_schema == (schema if schema is not None else sa.func.current_schema())
    query = (
        sa.select(cols.c.column_name, cols.c.data_type)
        .where(cols.c.table_name == name, where)
        .order_by(cols.c.ordinal_position)
    )
    rows = conn.execute(query).all()
    if not rows:
        raise sa.exc.NoSuchTableError(name)
    return [(str(column), _duckdb_type(str(text))) for column, text in rows]


_DUCKDB_TYPES: dict[str, Any] = {
    "BOOLEAN": sa.Boolean(),
    "DOUBLE": sa.Float(53),
    "FLOAT": sa.REAL(),
    "REAL": sa.REAL(),
    "VARCHAR": sa.String(),
    "DATE": sa.Date(),
    "TIMESTAMP": sa.DateTime(),
    "TIMESTAMP_S": sa.DateTime(),
    "TIMESTAMP_MS": sa.DateTime(),
    "TIMESTAMP_NS": sa.DateTime(),
    "TIMESTAMP WITH TIME ZONE": sa.DateTime(timezone=True),
    "TIME": sa.Time(),
    "BLOB": sa.LargeBinary(),
    "JSON": sa.JSON(),
    "UUID": sa.Uuid(),
}
_DUCKDB_DECIMAL = re.compile(r"DECIMAL\((\d+),\s*(\d+)\)")
_DUCKDB_INTEGERS = re.compile(r"U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)")


def _duckdb_type(text: str) -> Any:
    if text in _DUCKDB_TYPES:
        return _DUCKDB_TYPES[text]
    if _DUCKDB_INTEGERS.fullmatch(text):
        return sa.BigInteger()
    decimal = _DUCKDB_DECIMAL.fullmatch(text)
    if decimal:
        return sa.Numeric(int(decimal[1]), int(decimal[2]))
    if text.endswith("]"):
        return sa.ARRAY(sa.types.NullType())
    if text.startswith(("STRUCT", "MAP", "UNION")):
        return Nested()
    if text.startswith("ENUM"):
        return sa.String()
    return sa.types.NullType()  # anything else is profiled as its text
