"""The type lattice: widening, narrowing, incompatible, nullable handling."""

from __future__ import annotations

import pytest

from faucet_core.impact import TypeChange, compare_types

W, N, X, S, U = (
    TypeChange.WIDENING,
    TypeChange.NARROWING,
    TypeChange.INCOMPATIBLE,
    TypeChange.SAME,
    TypeChange.UNKNOWN,
)


@pytest.mark.parametrize(
    ("current", "planned", "sample", "expected"),
    [
        ("integer", "number", False, W),
        ("number", "integer", False, N),
        ("int32", "int64", False, W),
        ("int64", "int32", False, N),
        ("uint8", "int16", False, W),
        ("float32", "float64", False, W),
        ("date", "timestamp", False, W),
        ("integer", "string", False, X),
        ("string", "integer", False, X),
        ("integer|null", "integer", False, S),
        ("integer", "integer|null", False, W),
        ("INT", "int32", False, S),
        ("varchar(10)", "string", False, S),
        ("number", "integer", True, S),
        ("integer|null", "number", False, W),
        (None, "integer", False, U),
    ],
    ids=lambda v: str(v),
)
def test_compare_types(
    current: str | None, planned: str, sample: bool, expected: TypeChange
) -> None:
    assert compare_types(current, planned, sample=sample) is expected


@pytest.mark.parametrize(
    ("current", "planned", "dialect", "expected"),
    [
        ("character varying(256)", "varchar", "duckdb", S),
        ("character varying(256)|null", "VARCHAR", "postgres", S),
        ("VARCHAR", "varchar", None, S),
        ("text", "character varying(40)", "postgres", S),
        ("integer", "int4", "postgres", S),
        ("INTEGER", "int", None, S),
        ("bigint", "int8", "postgres", S),  # PostgreSQL's int8 is 8 bytes, Arrow's 8 bits
        ("double precision", "float8", "postgres", S),
        ("timestamp with time zone", "timestamptz", "postgres", S),
        ("numeric(10, 2)", "decimal", "duckdb", S),
        ("varchar(100)", "varchar(256)", None, W),
        ("varchar(256)", "character varying(100)", "postgres", N),
        ("numeric(10,2)", "numeric(12,2)", None, W),
        ("numeric(12,2)", "numeric(10,2)", None, N),
        ("numeric(12,2)", "numeric(12,4)", None, X),
        ("integer", "bigint", "duckdb", W),
        ("BIGINT", "integer", "duckdb", N),
        ("INTEGER", "numeric(12, 0)", None, W),
        ("numeric(10, 2)", "DOUBLE", None, W),
        ("varchar", "integer", "duckdb", X),
        ("UUID", "uuid", "postgres", S),
    ],
    ids=lambda v: str(v),
)
def test_sql_spellings_compare_by_meaning(
    current: str, planned: str, dialect: str | None, expected: TypeChange
) -> None:
    assert compare_types(current, planned, dialect=dialect) is expected
