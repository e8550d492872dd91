"""profile_sql on a real DuckDB database (duckdb-engine) agrees with the in-memory profiler."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
import sqlalchemy as sa

from faucet_core import ProfilingConfig
from faucet_core.profile import SqlTable, is_sql_table, profile, profile_sql
from tests.faucet_core.profile.sqldata import ROWS_TABLE, differences, load_duckdb, mixed_table


@pytest.fixture
def engine(tmp_path):  # type: ignore[no-untyped-def]
    eng = sa.create_engine(f"duckdb:///{tmp_path / 'warehouse.db'}")
    yield eng
    eng.dispose()


def test_mixed_table_agrees_with_the_in_memory_profile(engine: sa.Engine) -> None:
    rows = mixed_table()
    load_duckdb(engine, rows)
    pushed = profile_sql(SqlTable(engine, ROWS_TABLE))
    assert differences(profile(rows), pushed) == []
    assert pushed["price"].numeric is not None
    assert pushed["price"].numeric.nonfinite == 2  # +inf and -inf; NaN counts as null
    assert pushed["price"].null_count == 2
    assert pushed["label"].string is not None
    assert pushed["label"].string.len_max == 5  # 'héllo': characters, not bytes
    assert all(c.sketches == {} for c in pushed.columns.values())


def test_the_generic_entry_point_dispatches_a_sql_table(engine: sa.Engine) -> None:
    load_duckdb(engine, mixed_table())
    table = SqlTable(engine, ROWS_TABLE, schema="main")
    assert is_sql_table(table)
    assert not is_sql_table(mixed_table())
    assert profile(table) == profile_sql(table)


def test_a_url_string_and_a_connection_work_as_the_bind(engine: sa.Engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    load_duckdb(engine, mixed_table())
    engine.dispose()
    by_url = profile_sql(SqlTable(f"duckdb:///{tmp_path / 'warehouse.db'}", ROWS_TABLE))
    with engine.connect() as conn:
        by_conn = profile_sql(SqlTable(conn, ROWS_TABLE))
    assert by_url == by_conn
    assert by_url.row_count == 12


def test_in_memory_duckdb_through_one_connection() -> None:
    eng = sa.create_engine("duckdb:///:memory:")
    with eng.connect() as conn:
        raw = conn.connection.driver_connection
        raw.execute("CREATE TABLE t AS SELECT range AS x, range % 3 AS y FROM range(1000)")
        prof = profile_sql(SqlTable(conn, "t"))
    assert prof.row_count == 1000
    assert prof["y"].top_values is not None
    assert [t.value for t in prof["y"].top_values] == [0, 1, 2]  # 334 zeros, then 333 each
    assert prof["x"].high_cardinality
    assert prof["x"].top_values is None
    assert prof["x"].numeric is not None
    assert (prof["x"].numeric.p50, prof["x"].numeric.p95) == (500.0, 950.0)


def test_an_empty_table_agrees(engine: sa.Engine) -> None:
    rows = mixed_table().slice(0, 0)
    load_duckdb(engine, rows)
    pushed = profile_sql(SqlTable(engine, ROWS_TABLE))
    assert differences(profile(rows), pushed) == []
    assert pushed.row_count == 0


def test_config_columns_exclude_and_max_columns_as_in_memory(engine: sa.Engine) -> None:
    rows = mixed_table()
    load_duckdb(engine, rows)
    for config in (
        ProfilingConfig(columns=["label", "qty", "absent"]),
        ProfilingConfig(exclude=["at*", "price"]),
        ProfilingConfig(max_columns=3),
        ProfilingConfig(top_values=0),
        ProfilingConfig(top_values=0, columns=["absent", "qty"]),
        ProfilingConfig(top_values=2, categorical_max_distinct=5),
    ):
        pushed = profile_sql(SqlTable(engine, ROWS_TABLE), config)
        memory = profile(rows, config)
        assert differences(memory, pushed) == [], config
        assert pushed.skipped_columns == memory.skipped_columns


def test_ties_at_the_top_values_cut_are_broken_as_in_memory(engine: sa.Engine) -> None:
    rows = pa.table({"v": pa.array(["d", "c", "b", "a", "a", "e", "e", "z"])})
    load_duckdb(engine, rows)
    config = ProfilingConfig(top_values=3)
    pushed = profile_sql(SqlTable(engine, ROWS_TABLE), config)
    assert pushed["v"].top_values is not None
    assert [t.value for t in pushed["v"].top_values] == ["a", "e", "b"]
    assert differences(profile(rows, config), pushed) == []


def test_moments_of_huge_and_tiny_numbers_do_not_overflow(engine: sa.Engine) -> None:
    rows = pa.table(
        {
            "huge": pa.array([0.0, 1.8961503816218355e154, -1e300, 1e300]),
            "tiny": pa.array([1e-300, 3e-300, 0.0, 2e-300]),
        }
    )
    load_duckdb(engine, rows)
    pushed = profile_sql(SqlTable(engine, ROWS_TABLE))
    assert differences(profile(rows), pushed) == []
    assert pushed["huge"].numeric is not None
    assert pushed["huge"].numeric.stddev > 7e299


def test_few_distinct_values_are_counted_exactly(tmp_path: Path) -> None:
    """DuckDB's approx_count_distinct reads these five decimals as three; the pushdown
    counts a column with few values exactly."""
    import decimal

    values = [decimal.Decimal(v) for v in ("0.000", "0.000", "0.166", "0.503", "-3.634", "10.376")]
    table = pa.table({"d": pa.array(values, pa.decimal128(12, 3)), "n": pa.array(range(6))})
    engine = sa.create_engine(f"duckdb:///{tmp_path / 'few.duckdb'}")
    try:
        load_duckdb(engine, table, "few")
        with engine.connect() as conn:
            profiled = profile_sql(SqlTable(conn, "few"))
    finally:
        engine.dispose()
    assert profiled["d"].distinct == 5
    assert profiled["n"].distinct == 6
