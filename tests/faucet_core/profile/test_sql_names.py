"""Awkward identifiers are quoted by the dialect, never pasted: spaces, quotes, mixed
case and reserved words in column, table and schema names; a view; an explicit schema."""

from __future__ import annotations

import uuid

import pyarrow as pa

from faucet_core.profile import SqlTable, profile, profile_sql
from tests.faucet_core.profile.sqldata import Warehouse, differences

AWKWARD = pa.table(
    {
        "order id": pa.array([1, 2, 3, 3]),
        'say "hi"': pa.array(["a", "b", "b", None]),
        "it's": pa.array([1.5, 2.5, None, 4.0]),
        "MixedCase": pa.array([True, False, True, True]),
        "select": pa.array(["x", "x", "y", "z"]),
        "order": pa.array([10, 20, 30, 40]),
    }
)


def test_awkward_column_and_table_names(warehouse: Warehouse) -> None:
    name = 'My "Odd" Table; DROP'
    warehouse.load(AWKWARD, name)
    pushed = profile_sql(SqlTable(warehouse.engine, name))
    assert list(pushed.columns) == list(AWKWARD.column_names)
    assert differences(profile(AWKWARD), pushed) == []


def test_a_reserved_word_table_in_an_explicit_schema(warehouse: Warehouse) -> None:
    schema = f"Faucet Schema {uuid.uuid4().hex[:8]}"
    warehouse.execute(f"CREATE SCHEMA {warehouse.quote(schema)}")
    try:
        warehouse.load(AWKWARD, "select", schema)
        pushed = profile_sql(SqlTable(warehouse.engine, "select", schema=schema))
        assert differences(profile(AWKWARD), pushed) == []
    finally:
        warehouse.execute(f"DROP SCHEMA {warehouse.quote(schema)} CASCADE")


def test_a_view_with_a_mixed_case_name(warehouse: Warehouse) -> None:
    warehouse.load(AWKWARD, "base")
    view = warehouse.quote("Recent Orders")
    column = warehouse.quote("order id")
    warehouse.execute(f"CREATE VIEW {view} AS SELECT * FROM base WHERE {column} > 1")
    pushed = profile_sql(SqlTable(warehouse.engine, "Recent Orders"))
    expected = profile(AWKWARD.filter(pa.compute.greater(AWKWARD["order id"], 1)))
    assert pushed.row_count == 3
    assert differences(expected, pushed) == []


def test_the_default_schema_given_explicitly(warehouse: Warehouse) -> None:
    warehouse.load(AWKWARD, "t")
    implicit = profile_sql(SqlTable(warehouse.engine, "t"))
    explicit = profile_sql(SqlTable(warehouse.engine, "t", schema=warehouse.default_schema))
    assert implicit == explicit
