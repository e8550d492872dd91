"""Every SQL dialect difference of the pushdown profiler (:mod:`faucet_core.profile.sql`).

One :class:`SqlDialect` per SQLAlchemy dialect name says which function computes each
statistic and whether it is exact. DuckDB and PostgreSQL are tested against a real
database; Snowflake, BigQuery, Redshift and Databricks are written from their SQL
references and run through their own SQLAlchemy packages (untested here). A dialect not
listed uses :data:`ANSI`: exact ``count(DISTINCT)``, ``percentile_disc`` and
``char_length``.

Quantiles: the in-memory profiler reports, for ``q`` in (0.5, 0.95), the value at 0-based
position ``floor(q * n)`` of the ``n`` sorted finite values (its KLL sketch's exclusive
rank, exact below 200 values). ``percentile_disc(q)`` returns position ``ceil(q * n) - 1``,
which differs when ``q * n`` is a whole number, so the exact dialects ask for
``q + 1e-12`` (:data:`DISC_SHIFT`): the same position for any table under 10^10 rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.functions import FunctionElement

__all__ = [
    "ANSI",
    "DIALECTS",
    "DISC_SHIFT",
    "Nested",
    "SqlDialect",
    "dialect_for",
    "reflect_columns",
]

Expr = ColumnElement[Any]

DISC_SHIFT = 1e-12
"""Added to ``q`` for ``percentile_disc``/``quantile_disc`` (see the module docstring)."""


class Nested(sa.types.UserDefinedType[Any]):
    """A DuckDB STRUCT or MAP column (SQLAlchemy has no type for them): a JSON object."""

    cache_ok = True

    def get_col_spec(self, **_kw: Any) -> str:
        return "STRUCT"


@dataclass(frozen=True)
class SqlDialect:
    """The functions one SQL dialect computes the profile with."""

    name: str
    distinct: Callable[[Expr], Expr]
    """Distinct non-null values of an expression."""
    distinct_exact: bool
    quantile: Callable[[Expr, float], Expr]
    """The ``q`` quantile (0 < q < 1) of the non-null values of a numeric expression."""
    quantile_exact: bool
    char_length: Callable[[Expr], Expr]
    """Length of a text in characters (not bytes)."""
    byte_length: Callable[[Expr], Expr]
    stddev_pop: Callable[[Expr], Expr]
    """Population standard deviation (the in-memory profiler's definition)."""
    is_nan: Callable[[Expr], Expr] | None
    """Whether a float is NaN; None: the dialect's floats hold no NaN or infinity."""
    is_inf: Callable[[Expr], Expr] | None
    decimal_nan: bool
    """Whether a DECIMAL/NUMERIC column can hold NaN and infinity too (PostgreSQL)."""
    micros: Callable[[Expr], Expr] | None
    """Microseconds within the second of a time or timestamp (None: not supported)."""
    json_text: Callable[[Expr], Expr] | None
    """A value (JSON, array, struct) as JSON text; None: nested values publish no top values."""
    json_kind: Callable[[Expr], Expr] | None
    """The JSON type name (``object``, ``array``, ``string``, ``integer``, ``number``,
    ``boolean``, or NULL for a JSON null) of each value of a JSON column."""
    tested: bool = False
    quantiles: Callable[[Expr, Sequence[float]], Expr] | None = None
    """Several quantiles in one aggregate (one sort), as an array; None: one per quantile."""


# -- shared pieces --------------------------------------------------------------------------
def _count_distinct(expr: Expr) -> Expr:
    return sa.func.count(sa.distinct(expr))


def _percentile_disc(expr: Expr, q: float) -> Expr:
    return sa.func.percentile_disc(q + DISC_SHIFT).within_group(expr)


def _shifted(qs: Sequence[float]) -> Any:
    return sa.literal([q + DISC_SHIFT for q in qs], sa.ARRAY(sa.Float(53)))


def _percentile_disc_array(expr: Expr, qs: Sequence[float]) -> Expr:
    return sa.func.percentile_disc(_shifted(qs)).within_group(expr)


def _special(text: str) -> Callable[[Expr], Expr]:
    def test(expr: Expr) -> Expr:
        return expr == sa.cast(sa.literal(text), sa.Float(53))

    return test


def _inf_literal(expr: Expr) -> Expr:
    inf = sa.cast(sa.literal("Infinity"), sa.Float(53))
    ninf = sa.cast(sa.literal("-Infinity"), sa.Float(53))
    return sa.or_(expr == inf, expr == ninf)


def _extract_micros(expr: Expr) -> Expr:
    return sa.extract("microseconds", expr)


_INTEGER_TEXT = r"^-?[0-9]+$"


def _pg_json_kind(expr: Expr) -> Expr:
    kind = sa.func.jsonb_typeof(sa.cast(expr, JSONB))
    text = sa.cast(expr, sa.Text)
    return sa.case(
        (kind == "null", sa.null()),
        (sa.and_(kind == "number", text.regexp_match(_INTEGER_TEXT)), sa.literal("integer")),
        else_=kind,
    )


def _duckdb_json_kind(expr: Expr) -> Expr:
    kind = sa.func.json_type(expr)
    return sa.case(
        (kind == "NULL", sa.null()),
        (kind.in_(["BIGINT", "UBIGINT", "HUGEINT"]), sa.literal("integer")),
        (kind == "DOUBLE", sa.literal("number")),
        (kind == "VARCHAR", sa.literal("string")),
        else_=sa.func.lower(kind),
    )


def _to_json_text(expr: Expr) -> Expr:
    return sa.cast(sa.func.to_json(expr), sa.Text)


# -- constructs some dialects spell their own way --------------------------------------------
class _ApproximateCountDistinct(FunctionElement[Any]):
    """Redshift: ``APPROXIMATE COUNT(DISTINCT x)``."""

    inherit_cache = True
    type = sa.BigInteger()


@compiles(_ApproximateCountDistinct)
def _approximate_count_distinct(element: Any, compiler: Any, **kw: Any) -> str:
    return f"APPROXIMATE COUNT(DISTINCT {compiler.process(element.clauses, **kw)})"


class _ApproximatePercentile(FunctionElement[Any]):
    """Redshift: ``APPROXIMATE PERCENTILE_DISC(q) WITHIN GROUP (ORDER BY x)``."""

    inherit_cache = True
    type = sa.Float()


@compiles(_ApproximatePercentile)
def _approximate_percentile(element: Any, compiler: Any, **kw: Any) -> str:
    expr, q = list(element.clauses)
    return (
        f"APPROXIMATE PERCENTILE_DISC({compiler.process(q, **kw)}) "
        f"WITHIN GROUP (ORDER BY {compiler.process(expr, **kw)})"
    )


class _ApproxQuantiles(FunctionElement[Any]):
    """BigQuery: ``APPROX_QUANTILES(x, 100)[OFFSET(p)]``."""

    inherit_cache = True
    type = sa.Float()


@compiles(_ApproxQuantiles)
def _approx_quantiles(element: Any, compiler: Any, **kw: Any) -> str:
    expr, offset = list(element.clauses)
    return (
        f"APPROX_QUANTILES({compiler.process(expr, **kw)}, 100)"
        f"[OFFSET({compiler.process(offset, **kw)})]"
    )


# -- the dialects -----------------------------------------------------------------------------
DUCKDB = SqlDialect(
    name="duckdb",
    distinct=lambda e: sa.func.approx_count_distinct(e),
    distinct_exact=False,
    quantile=lambda e, q: sa.func.quantile_disc(e, q + DISC_SHIFT),
    quantile_exact=True,
    char_length=lambda e: sa.func.length(e),
    byte_length=lambda e: sa.func.octet_length(e),
    stddev_pop=lambda e: sa.func.stddev_pop(e),
    is_nan=lambda e: sa.func.isnan(e),
    is_inf=lambda e: sa.func.isinf(e),
    decimal_nan=False,
    micros=_extract_micros,
    json_text=_to_json_text,
    json_kind=_duckdb_json_kind,
    tested=True,
    quantiles=lambda e, qs: sa.func.quantile_disc(e, _shifted(qs)),
)

POSTGRESQL = SqlDialect(
    name="postgresql",
    distinct=_count_distinct,
    distinct_exact=True,
    quantile=_percentile_disc,
    quantile_exact=True,
    char_length=lambda e: sa.func.char_length(e),
    byte_length=lambda e: sa.func.octet_length(e),
    stddev_pop=lambda e: sa.func.stddev_pop(e),
    is_nan=_special("NaN"),
    is_inf=_inf_literal,
    decimal_nan=True,
    micros=_extract_micros,
    json_text=_to_json_text,
    json_kind=_pg_json_kind,
    tested=True,
    quantiles=_percentile_disc_array,
)

SNOWFLAKE = SqlDialect(
    name="snowflake",
    distinct=lambda e: sa.func.approx_count_distinct(e),
    distinct_exact=False,
    quantile=lambda e, q: sa.func.approx_percentile(e, q),
    quantile_exact=False,
    char_length=lambda e: sa.func.length(e),
    byte_length=lambda e: sa.func.octet_length(e),
    stddev_pop=lambda e: sa.func.stddev_pop(e),
    is_nan=_special("NaN"),
    is_inf=_inf_literal,
    decimal_nan=False,
    micros=lambda e: sa.func.date_part("microsecond", e),
    json_text=None,
    json_kind=None,
)

BIGQUERY = SqlDialect(
    name="bigquery",
    distinct=lambda e: sa.func.approx_count_distinct(e),
    distinct_exact=False,
    quantile=lambda e, q: _ApproxQuantiles(e, sa.literal(round(q * 100), literal_execute=True)),
    quantile_exact=False,
    char_length=lambda e: sa.func.char_length(e),
    byte_length=lambda e: sa.func.byte_length(e),
    stddev_pop=lambda e: sa.func.stddev_pop(e),
    is_nan=lambda e: sa.func.is_nan(e),
    is_inf=lambda e: sa.func.is_inf(e),
    decimal_nan=False,
    micros=lambda e: sa.func.mod(sa.extract("microsecond", e), 1_000_000),
    json_text=None,
    json_kind=None,
)

REDSHIFT = SqlDialect(
    name="redshift",
    distinct=lambda e: _ApproximateCountDistinct(e),
    distinct_exact=False,
    quantile=lambda e, q: _ApproximatePercentile(e, sa.literal(q, literal_execute=True)),
    quantile_exact=False,
    char_length=lambda e: sa.func.char_length(e),
    byte_length=lambda e: sa.func.octet_length(e),
    stddev_pop=lambda e: sa.func.stddev_pop(e),
    is_nan=None,
    is_inf=None,
    decimal_nan=False,
    micros=_extract_micros,
    json_text=None,
    json_kind=None,
)

DATABRICKS = SqlDialect(
    name="databricks",
    distinct=lambda e: sa.func.approx_count_distinct(e),
    distinct_exact=False,
    quantile=lambda e, q: sa.func.percentile_approx(e, q),
    quantile_exact=False,
    char_length=lambda e: sa.func.char_length(e),
    byte_length=lambda e: sa.func.octet_length(e),
    stddev_pop=lambda e: sa.func.stddev_pop(e),
    is_nan=lambda e: sa.func.isnan(e),
    is_inf=_inf_literal,
    decimal_nan=False,
    micros=None,
    json_text=lambda e: sa.func.to_json(e),
    json_kind=None,
)

ANSI = SqlDialect(
    name="ansi",
    distinct=_count_distinct,
    distinct_exact=True,
    quantile=_percentile_disc,
    quantile_exact=True,
    char_length=lambda e: sa.func.char_length(e),
    byte_length=lambda e: sa.func.octet_length(e),
    stddev_pop=lambda e: sa.func.stddev_pop(e),
    is_nan=None,
    is_inf=None,
    decimal_nan=False,
    micros=None,
    json_text=None,
    json_kind=None,
)

DIALECTS: dict[str, SqlDialect] = {
    d.name: d for d in (DUCKDB, POSTGRESQL, SNOWFLAKE, BIGQUERY, REDSHIFT, DATABRICKS)
}
"""By SQLAlchemy dialect name (``engine.dialect.name``)."""


def dialect_for(name: str) -> SqlDialect:
    """The functions for SQLAlchemy dialect ``name``; :data:`ANSI` for any other."""
    return DIALECTS.get(name, ANSI)


# -- reflection -------------------------------------------------------------------------------
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
