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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.elements import ColumnElement, Grouping
from sqlalchemy.sql.functions import FunctionElement

from faucet_core.profile.sql_reflect import Nested, reflect_columns

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
    hash64: Callable[[Expr, str], Expr] | None = None
    """A 64-bit hash of a value, given the value and its family (``integer``, ``float``,
    ``decimal``, ``timestamp``, ``timestamptz``, ``other``): the distinct count of a large
    table then comes from a theta sketch computed in SQL (see ``profile.sql_theta``) instead
    of ``count(DISTINCT)``; None: the dialect's :attr:`distinct`."""
    distinct_hints: Callable[[Any, str, str | None], dict[str, float]] | None = None
    """The planner's distinct estimates of a table's columns (a count, or minus a fraction
    of the rows), from its statistics: a column they put well below the exact bound skips
    the estimate and is counted exactly at once, and the theta sketch sizes its threshold
    from them (a hint only: every figure is still computed)."""
    sample: Callable[[Any, float], Any] | None = None
    """A repeatable Bernoulli sample of about ``percent`` % of a table's rows (a FROM
    clause); None: quantiles are computed in the aggregate query, over every value."""
    fraction_chars: Callable[[Expr], Expr] | None = None
    """Characters the fraction of a second adds to ISO text ('' or '.' and up to 6 digits
    without trailing zeros), from the microseconds (0..999,999) as a BIGINT, referring to
    them once; None: a CASE ladder that evaluates them up to six times per row."""
    length_set: Callable[[Expr], Expr] | None = None
    """An aggregate of small non-negative integers (under 63) into the bit set of the values
    present (``bit_or(1 << x)``): a temporal column's text lengths take their sum and this
    set (two evaluations of the per-row length) instead of min, max and sum (three)."""


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


def _pg_micros(expr: Expr) -> Expr:
    # date_part is double precision (exact for whole microseconds below 60 seconds);
    # EXTRACT is numeric from PostgreSQL 14 on, several times slower per row
    return sa.func.date_part("microseconds", expr, type_=sa.Float(53))


def _pg_stddev_pop(expr: Expr) -> Expr:
    # over integers as double precision: stddev_pop(bigint) accumulates in numeric, several
    # times slower per row; the in-memory profiler takes integers as float64 too
    if isinstance(expr.type, sa.Integer):
        expr = sa.cast(expr, sa.Float(53))
    return sa.func.stddev_pop(expr)


_SAMPLE_SEED = 26


def _pg_distinct_hints(conn: Any, name: str, schema: str | None) -> dict[str, float]:
    stats = sa.table(
        "pg_stats",
        sa.column("schemaname"),
        sa.column("tablename"),
        sa.column("attname"),
        sa.column("n_distinct"),
        schema="pg_catalog",
    )
    where = stats.c.schemaname == (schema if schema is not None else sa.func.current_schema())
    query = sa.select(stats.c.attname, stats.c.n_distinct).where(stats.c.tablename == name, where)
    return {str(column): float(n) for column, n in conn.execute(query) if n is not None}


_PG_HASHES: dict[str, tuple[str, Any]] = {
    "integer": ("hashint8extended", sa.BigInteger()),
    "float": ("hashfloat8extended", sa.Float(53)),
    "decimal": ("hash_numeric_extended", sa.Numeric()),
    "timestamp": ("timestamp_hash_extended", None),
    "timestamptz": ("timestamptz_hash_extended", None),
}


def _pg_hash64(expr: Expr, family: str) -> Expr:
    name, cast = _PG_HASHES.get(family, ("hashtextextended", sa.Text()))
    value = expr if cast is None else sa.cast(expr, cast)
    hashed: Expr = getattr(sa.func, name)(value, sa.literal(0, sa.BigInteger), type_=sa.BigInteger)
    return hashed


def _pg_sample(table: Any, percent: float) -> Any:
    return sa.tablesample(table, sa.func.bernoulli(percent), seed=sa.literal(_SAMPLE_SEED))


def _fraction_table() -> list[int]:
    """Fraction characters by gcd(micros, 10**6) % 73: the gcd is 2**a * 5**b (a, b <= 6;
    10**6 only for 0 micros), its trailing decimal zeros min(a, b), and 73 the smallest
    modulus that tells all 49 such divisors apart."""
    table = [0] * 73
    for a in range(7):
        for b in range(7):
            divisor = 2**a * 5**b
            table[divisor % 73] = 0 if divisor == 10**6 else 7 - min(a, b)
    return table


_FRACTION_TABLE = _fraction_table()


def _pg_fraction_chars(micros: Expr) -> Expr:
    # one evaluation of the microseconds per row (gcd: PostgreSQL 13 and later)
    table = Grouping(
        sa.cast(sa.literal(_FRACTION_TABLE, sa.ARRAY(sa.Integer)), sa.ARRAY(sa.Integer))
    )
    index = sa.func.gcd(micros, sa.literal(1_000_000, sa.BigInteger)) % 73 + 1
    return table[index]


def _duckdb_sample(table: Any, percent: float) -> Any:
    # USING SAMPLE p% (bernoulli, seed): DuckDB reads a bare TABLESAMPLE bernoulli(p) as
    # a count of rows, and SQLAlchemy's tablesample() wraps a non-function in system()
    clause = f"USING SAMPLE {float(percent):.6f}% (bernoulli, {_SAMPLE_SEED})"
    return sa.select(*table.c).select_from(table).suffix_with(clause).subquery("sampled")


def _bit_or_set(expr: Expr) -> Expr:
    return sa.func.bit_or(sa.literal(1, sa.BigInteger).op("<<")(expr), type_=sa.BigInteger)


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
    sample=_duckdb_sample,
)

POSTGRESQL = SqlDialect(
    name="postgresql",
    distinct=_count_distinct,
    distinct_exact=True,
    quantile=_percentile_disc,
    quantile_exact=True,
    char_length=lambda e: sa.func.char_length(e),
    byte_length=lambda e: sa.func.octet_length(e),
    stddev_pop=_pg_stddev_pop,
    is_nan=_special("NaN"),
    is_inf=_inf_literal,
    decimal_nan=True,
    micros=_pg_micros,
    json_text=_to_json_text,
    json_kind=_pg_json_kind,
    tested=True,
    quantiles=_percentile_disc_array,
    hash64=_pg_hash64,
    distinct_hints=_pg_distinct_hints,
    sample=_pg_sample,
    fraction_chars=_pg_fraction_chars,
    length_set=_bit_or_set,
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
