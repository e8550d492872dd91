"""profile_sql on the real PostgreSQL server agrees with the in-memory profiler (exact
distinct and quantiles there), through a fresh schema per test."""

from __future__ import annotations

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
