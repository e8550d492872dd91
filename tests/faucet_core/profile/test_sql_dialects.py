"""The dialect table: what each dialect's functions render as (the untested warehouses
are checked as SQL text), and the public names of the pushdown API."""

from __future__ import annotations

import importlib

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from faucet_core.profile import sql, sql_dialects
from faucet_core.profile.sql_dialects import ANSI, DIALECTS, DISC_SHIFT, dialect_for

X = sa.column("x", sa.Float)

EXPECTED = {
    "duckdb": ("approx_count_distinct(x)", "quantile_disc(x, 0.500000000001)", "length(x)"),
    "postgresql": (
        "count(DISTINCT x)",
        "percentile_disc(0.500000000001) WITHIN GROUP (ORDER BY x)",
        "char_length(x)",
    ),
    "snowflake": ("approx_count_distinct(x)", "approx_percentile(x, 0.5)", "length(x)"),
    "bigquery": (
        "approx_count_distinct(x)",
        "APPROX_QUANTILES(x, 100)[OFFSET(50)]",
        "char_length(x)",
    ),
    "redshift": (
        "APPROXIMATE COUNT(DISTINCT x)",
        "APPROXIMATE PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY x)",
        "char_length(x)",
    ),
    "databricks": ("approx_count_distinct(x)", "percentile_approx(x, 0.5)", "char_length(x)"),
}


def _sql(expr: sa.ColumnElement) -> str:  # type: ignore[type-arg]
    return str(expr.compile(dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_dialect_renders_its_functions(name: str) -> None:
    d = DIALECTS[name]
    distinct, quantile, length = EXPECTED[name]
    assert _sql(d.distinct(X)) == distinct
    assert _sql(d.quantile(X, 0.5)) == quantile
    assert _sql(d.char_length(X)) == length
    assert _sql(d.stddev_pop(X)) == "stddev_pop(x)"
    assert d.tested == (name in ("duckdb", "postgresql"))
    assert d.distinct_exact == (name == "postgresql")
    assert d.quantile_exact == (name in ("duckdb", "postgresql"))


def test_an_unknown_dialect_uses_ansi() -> None:
    assert dialect_for("oracle") is ANSI
    assert _sql(ANSI.distinct(X)) == "count(DISTINCT x)"


def test_public_names() -> None:
    profile_package = importlib.import_module("faucet_core.profile")  # not the function
    assert sql.__all__ == ["SqlTable", "is_sql_table", "profile_sql"]
    for name in sql.__all__:
        assert getattr(profile_package, name) is getattr(sql, name)
        assert name in profile_package.__all__
    assert set(sql_dialects.__all__) == {
        "ANSI",
        "DIALECTS",
        "DISC_SHIFT",
        "Nested",
        "SqlDialect",
        "dialect_for",
        "reflect_columns",
    }


def test_duckdb_and_postgres_ask_both_quantiles_in_one_aggregate() -> None:
    pg = DIALECTS["postgresql"].quantiles
    duck = DIALECTS["duckdb"].quantiles
    assert pg is not None
    assert duck is not None
    shifted = f"ARRAY[{0.5 + DISC_SHIFT!r}, {0.95 + DISC_SHIFT!r}]"
    assert _sql(pg(X, [0.5, 0.95])) == f"percentile_disc({shifted}) WITHIN GROUP (ORDER BY x)"
    assert _sql(duck(X, [0.5, 0.95])) == f"quantile_disc(x, {shifted})"
