"""profile_sql on the real PostgreSQL server agrees with the in-memory profiler (exact
distinct and quantiles there), through a fresh schema per test."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest
import sqlalchemy as sa

from faucet_core import ProfilingConfig
from faucet_core.profile import SqlTable, profile, profile_sql
from tests.faucet_core.profile.sqldata import ROWS_TABLE, differences, load_postgres, mixed_table


@pytest.fixture
def engine(postgres_url: str):  # type: ignore[no-untyped-def]
    eng = sa.create_engine(postgres_url)
    yield eng
    eng.dispose()


def test_mixed_table_agrees_exactly(engine: sa.Engine) -> None:
    rows = mixed_table()
    load_postgres(engine, rows)
    pushed = profile_sql(SqlTable(engine, ROWS_TABLE))
    assert differences(profile(rows), pushed) == []
    assert pushed["price"].numeric is not None
    assert pushed["price"].numeric.nonfinite == 2
    assert pushed["at_utc"].top_values is not None
    assert pushed["at_utc"].top_values[0].value == "2021-06-01T12:00:00Z"  # UTC, as 'Z'


def test_an_empty_table_agrees(engine: sa.Engine) -> None:
    rows = mixed_table().slice(0, 0)
    load_postgres(engine, rows)
    assert differences(profile(rows), profile_sql(SqlTable(engine, ROWS_TABLE))) == []


def test_config_variants_agree(engine: sa.Engine) -> None:
    rows = mixed_table()
    load_postgres(engine, rows)
    for config in (
        ProfilingConfig(columns=["label", "qty", "absent"]),
        ProfilingConfig(top_values=2, categorical_max_distinct=5),
    ):
        assert (
            differences(profile(rows, config), profile_sql(SqlTable(engine, ROWS_TABLE), config))
            == []
        )


def test_numeric_nan_time_bytea_uuid_and_interval(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "CREATE TABLE odd (n numeric(10,2), f float8, tm time, b bytea, u uuid, iv interval)"
        )
        conn.exec_driver_sql(
            "INSERT INTO odd VALUES "
            "('NaN', 'NaN', '01:02:03', '\\x6162', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', "
            "'1 day'), "
            "(1.5, 'Infinity', '04:05:06.12', '\\x61626364', NULL, '2 hours'), "
            "(NULL, 2, NULL, NULL, NULL, NULL)"
        )
    pushed = profile_sql(SqlTable(engine, "odd"))
    n, f = pushed["n"], pushed["f"]
    assert (n.null_count, n.types) == (2, {"null": 2, "number": 1})  # NaN counts as null
    assert n.numeric is not None
    assert (n.numeric.min, n.numeric.max, n.numeric.count) == (1.5, 1.5, 1)
    assert (f.null_count, f.types) == (1, {"null": 1, "number": 2})  # infinity is a number
    assert f.numeric is not None
    assert (f.numeric.count, f.numeric.nonfinite, f.numeric.mean) == (1, 1, 2.0)
    assert pushed["u"].string is not None
    assert pushed["u"].string.len_max == 36
    assert pushed["iv"].top_values is not None
    assert {t.value for t in pushed["iv"].top_values} == {"1 day", "02:00:00"}  # its text
    # time and bytea agree with the in-memory profiler on the same values
    rows = pa.Table.from_pylist(
        [
            {"tm": dt.time(1, 2, 3), "b": b"ab"},
            {"tm": dt.time(4, 5, 6, 120000), "b": b"abcd"},
            {"tm": None, "b": None},
        ],
        schema=pa.schema([("tm", pa.time64("us")), ("b", pa.binary())]),
    )
    config = ProfilingConfig(columns=["tm", "b"])
    assert differences(profile(rows), profile_sql(SqlTable(engine, "odd"), config)) == []
