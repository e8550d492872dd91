"""What a user sees when profile_sql cannot run: one line naming the table, the cause and
the fix, with any password in a URL hidden, and never a raw traceback."""

from __future__ import annotations

import socket

import pyarrow as pa
import pytest
import sqlalchemy as sa

from faucet_core.errors import FaucetError, ProfilingInputError
from faucet_core.profile import Profiler, SqlTable, profile, profile_sql
from tests.faucet_core.profile.sqldata import Warehouse

SECRET = "s3cr3t-pw"


def _one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text
    assert "Traceback" not in text
    assert exc.__cause__ is None
    assert exc.__suppress_context__
    return text


def test_a_missing_table(warehouse: Warehouse) -> None:
    with pytest.raises(ProfilingInputError) as info:
        profile_sql(SqlTable(warehouse.engine, "no_such_table"))
    text = _one_line(info.value)
    assert "table 'no_such_table'" in text
    assert "no such table or view; check the name and the schema" in text


def test_a_missing_schema(warehouse: Warehouse) -> None:
    warehouse.load(pa.table({"x": [1]}), "t")
    with pytest.raises(ProfilingInputError) as info:
        profile_sql(SqlTable(warehouse.engine, "t", schema="no_such_schema"))
    assert "table 'no_such_schema.t'" in _one_line(info.value)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_postgres_port_hides_the_password() -> None:
    url = f"postgresql+psycopg://faucet:{SECRET}@127.0.0.1:{_free_port()}/warehouse"
    for bind in (url, sa.create_engine(url)):
        with pytest.raises(ProfilingInputError) as info:
            profile(SqlTable(bind, "orders", schema="sales"))
        text = _one_line(info.value)
        assert SECRET not in text
        assert text.startswith(
            "cannot profile table 'sales.orders' at postgresql+psycopg://faucet:***@127.0.0.1:"
        )
        assert "OperationalError" in text
        assert text.endswith("check the database is reachable and the table readable")


@pytest.mark.parametrize(
    "url",
    ["not a url", f"nosuchdb://user:{SECRET}@host/db", f"postgresql+nodriver://u:{SECRET}@h/db"],
)
def test_a_bad_url(url: str) -> None:
    with pytest.raises(ProfilingInputError) as info:
        profile_sql(SqlTable(url, "orders"))
    text = _one_line(info.value)
    assert SECRET not in text
    assert "the database URL is not usable" in text
    assert "pass a SQLAlchemy URL such as 'duckdb:///path.db'" in text


def test_a_bind_of_the_wrong_type() -> None:
    with pytest.raises(ProfilingInputError) as info:
        profile_sql(SqlTable(42, "orders"))
    assert str(info.value) == (
        "SqlTable.bind is a int; pass a SQLAlchemy Engine, Connection or database URL"
    )


def test_profile_sql_refuses_anything_but_a_sql_table() -> None:
    with pytest.raises(ProfilingInputError, match="profile_sql takes a SqlTable, not a list"):
        profile_sql([{"x": 1}])  # type: ignore[arg-type]


def test_a_profiler_refuses_a_sql_table() -> None:
    with pytest.raises(FaucetError, match="pass it to profile\\(\\) or profile_sql\\(\\)"):
        Profiler().add(SqlTable("duckdb:///:memory:", "t"))


def test_a_query_error_is_one_line(postgres_url: str) -> None:
    engine = sa.create_engine(postgres_url)
    with engine.connect() as conn:
        schema = str(conn.execute(sa.text("SELECT current_schema()")).scalar_one())
    pg = Warehouse("postgres", engine, schema)
    pg.load(pa.table({"x": [1, 2]}), "locked")
    role = f"faucet_reader_{schema[-12:]}"
    pg.execute(f"CREATE ROLE {role}", f"GRANT USAGE ON SCHEMA {schema} TO {role}")
    try:
        with engine.connect() as conn:
            conn.execute(sa.text(f"SET ROLE {role}"))
            with pytest.raises(ProfilingInputError) as info:
                profile_sql(SqlTable(conn, "locked"))
            conn.rollback()
        text = _one_line(info.value)
        assert "InsufficientPrivilege: permission denied for table locked" in text
    finally:
        pg.execute(f"DROP OWNED BY {role}", f"DROP ROLE {role}")
        engine.dispose()
