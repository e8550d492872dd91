"""SQL type spellings read by meaning, with sqlglot's type parser in the warehouse's dialect.

``varchar``, ``VARCHAR``, ``text`` and ``character varying(256)`` are all strings (the last
one 256 long); ``int4``, ``integer`` and ``INT`` are one 32-bit integer; ``numeric(12, 2)``
is a decimal with 10 integer digits and 2 decimals. sqlglot is imported on first use.

Each spelling becomes a :class:`SqlType`: a family, for integers a value range, and a size
(a string's length, a decimal's precision and scale) when the spelling states one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["SqlType", "dialect_of", "parse_sql_type"]


@dataclass(frozen=True)
class SqlType:
    """One SQL type by meaning. ``bits``: an integer's width (``signed`` or not) or a
    float's; ``size``: a string's length or a decimal's ``(precision, scale)``; empty when
    the spelling states none."""

    family: str
    bits: int = 0
    signed: bool = True
    size: tuple[int, ...] = ()


_INT_BITS = {
    "TINYINT": 8,
    "SMALLINT": 16,
    "MEDIUMINT": 24,
    "INT": 32,
    "BIGINT": 64,
    "INT128": 128,
    "INT256": 256,
    "UTINYINT": -8,
    "USMALLINT": -16,
    "UMEDIUMINT": -24,
    "UINT": -32,
    "UBIGINT": -64,
    "UINT128": -128,
    "UINT256": -256,
    "SERIAL": 32,
    "SMALLSERIAL": 16,
    "BIGSERIAL": 64,
}
_FLOAT_BITS = {"FLOAT": 32, "DOUBLE": 64}
_DECIMALS = {"DECIMAL", "BIGDECIMAL", "DECIMAL32", "DECIMAL64", "DECIMAL128", "DECIMAL256"}
_SIZED_STRINGS = {"VARCHAR", "NVARCHAR", "CHAR", "NCHAR", "BPCHAR"}
_FAMILIES = {
    "string": {"TEXT", "NAME", "MEDIUMTEXT", "LONGTEXT", "TINYTEXT", *_SIZED_STRINGS},
    "boolean": {"BOOLEAN", "BIT"},
    "date": {"DATE", "DATE32"},
    "timestamp": {
        "TIMESTAMP",
        "TIMESTAMPTZ",
        "TIMESTAMPLTZ",
        "TIMESTAMPNTZ",
        "TIMESTAMP_S",
        "TIMESTAMP_MS",
        "TIMESTAMP_NS",
        "DATETIME",
        "DATETIME2",
        "DATETIME64",
        "SMALLDATETIME",
    },
    "time": {"TIME", "TIMETZ"},
    "object": {"JSON", "JSONB", "STRUCT", "MAP", "OBJECT", "VARIANT"},
    "array": {"ARRAY", "LIST"},
    "binary": {"BINARY", "VARBINARY", "BLOB", "LONGBLOB", "MEDIUMBLOB", "TINYBLOB"},
}
_FAMILY_OF = {name: family for family, names in _FAMILIES.items() for name in names}


def dialect_of(uri: str | None) -> str | None:
    """The sqlglot dialect a dataset URI's scheme names (``postgres://db:5432/shop.orders``,
    ``duckdb://warehouse.marts.orders``, ``snowflake://...``), else None (sqlglot's own
    dialect reads the spellings)."""
    if not uri or "://" not in uri:
        return None
    name = uri.split("://", 1)[0].strip().lower()
    name = {"postgresql": "postgres", "pg": "postgres"}.get(name, name)
    import sqlglot

    try:
        return name if sqlglot.Dialect.get(name) is not None else None
    except Exception:  # an unknown dialect name: not a SQL warehouse
        return None


def _ints(expressions: Any) -> tuple[int, ...]:
    out = []
    for e in expressions:
        text = e.sql() if hasattr(e, "sql") else str(e)
        if not text.strip().isdigit():
            return ()
        out.append(int(text))
    return tuple(out)


@lru_cache(maxsize=4096)
def parse_sql_type(text: str, dialect: str | None = None) -> SqlType | None:
    """``text`` as a :class:`SqlType` in ``dialect``; None when sqlglot cannot read it or
    it is of no family above (then it is compared by its name)."""
    from sqlglot import exp
    from sqlglot.errors import SqlglotError

    try:
        parsed = exp.DataType.build(text.strip(), dialect=dialect)
    except (SqlglotError, ValueError, KeyError, AttributeError):
        return None
    name = parsed.this.name
    if name in _INT_BITS:
        bits = _INT_BITS[name]
        return SqlType("integer", abs(bits), signed=bits > 0)
    if name in _FLOAT_BITS:
        return SqlType("number", _FLOAT_BITS[name])
    stated = "(" in text  # a dialect's default precision is not the spelling's
    if name in _DECIMALS or name == "MONEY":
        size = _ints(parsed.expressions) if stated else ()
        if len(size) == 1:
            size = (size[0], 0)
        return SqlType("decimal", size=size)
    family = _FAMILY_OF.get(name)
    if family is None:
        return None  # a type this table does not judge (uuid, interval...): by its name
    size = _ints(parsed.expressions) if stated and name in _SIZED_STRINGS else ()
    return SqlType(family, size=size[:1])
