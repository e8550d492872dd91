"""Load a pyarrow table into a real database, and compare a pushdown profile with the
in-memory one: the helpers of the ``test_sql_*`` tests."""

from __future__ import annotations

import datetime as dt
import decimal
import math
import sys
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pytest
import sqlalchemy as sa

from faucet_core import TableProfile

ROWS_TABLE = "faucet_rows"


def mixed_table() -> pa.Table:
    """Every kind of column the pushdown path types: ints, floats with NaN and infinities,
    single floats, decimals, unicode strings (and an empty one), booleans, dates, naive and
    aware timestamps with fractions, an all-null column."""
    n = 12
    return pa.table(
        {
            "id": pa.array(range(1, n + 1), pa.int64()),
            "qty": pa.array([1, 2, None, 4, 4, 7, 10, 11, 12, 13, 4, None], pa.int32()),
            "price": pa.array(
                [1.5, math.nan, math.inf, None, -2.0, 3.25, 3.25, 0.1, 1e10, -math.inf, 7.0, 2.5]
            ),
            "ratio": pa.array([0.1, 0.2, 0.1, None] * 3, pa.float32()),
            "amount": pa.array(
                [decimal.Decimal("1.10")] * 5 + [None] * 4 + [decimal.Decimal("2.25")] * 3,
                pa.decimal128(10, 2),
            ),
            "label": pa.array(
                ["a", "héllo", "", None, "a", "a", "b", "日本語", "x y", "a", "b", "ü"]
            ),
            "flag": pa.array(
                [True, False, None, True, True, True, False, None, True, True, True, False]
            ),
            "day": pa.array([dt.date(2020, 1, i + 1) for i in range(n - 1)] + [None], pa.date32()),
            "at": pa.array(
                [dt.datetime(2020, 1, 1, 0, 0, i, i * 10_000) for i in range(n)], pa.timestamp("us")
            ),
            "at_utc": pa.array(
                [
                    dt.datetime(2021, 6, 1, 12, 0, i, i * 123, tzinfo=dt.timezone.utc)
                    for i in range(n)
                ],
                pa.timestamp("us", tz="UTC"),
            ),
            "nothing": pa.array([None] * n, pa.int64()),
        }
    )


def load_duckdb(
    engine: sa.Engine, table: pa.Table, name: str = ROWS_TABLE, schema: str = "main"
) -> None:
    """Create ``schema.name`` in DuckDB from the Arrow table (DuckDB reads Arrow natively)."""
    with engine.begin() as conn:
        raw = conn.connection.driver_connection
        raw.register("faucet_src", table)
        quoted = conn.dialect.identifier_preparer
        target = f"{quoted.quote_identifier(schema)}.{quoted.quote_identifier(name)}"
        raw.execute(f"CREATE SCHEMA IF NOT EXISTS {quoted.quote_identifier(schema)}")
        raw.execute(f"CREATE TABLE {target} AS SELECT * FROM faucet_src")
        raw.unregister("faucet_src")


def _sql_type(t: pa.DataType) -> Any:
    if pa.types.is_integer(t):
        return sa.BigInteger()
    if pa.types.is_float32(t):
        return sa.REAL()
    if pa.types.is_floating(t):
        return sa.Double()
    if pa.types.is_decimal(t):
        return sa.Numeric(t.precision, t.scale)
    if pa.types.is_boolean(t):
        return sa.Boolean()
    if pa.types.is_date(t):
        return sa.Date()
    if pa.types.is_timestamp(t):
        return sa.DateTime(timezone=t.tz is not None)
    if pa.types.is_null(t):
        return sa.Integer()
    return sa.Text()


def load_postgres(
    engine: sa.Engine, table: pa.Table, name: str = ROWS_TABLE, schema: str | None = None
) -> None:
    """Create ``name`` in PostgreSQL with the matching column types and insert the rows."""
    meta = sa.MetaData()
    target = sa.Table(
        name,
        meta,
        *[sa.Column(f.name, _sql_type(f.type)) for f in table.schema],
        schema=schema,
    )
    with engine.begin() as conn:
        meta.create_all(conn)
        rows = table.to_pylist()
        if rows:
            conn.execute(target.insert(), rows)


def differences(
    memory: TableProfile, pushed: TableProfile, *, distinct_error: float = 0.0
) -> list[str]:
    """Where the pushdown profile disagrees with the in-memory one: exact statistics must be
    equal, mean and stddev within 1e-9 (relative), distinct within ``distinct_error``
    (relative) of the in-memory estimate."""
    found: list[str] = []
    if memory.row_count != pushed.row_count:
        found.append(f"row_count {memory.row_count} != {pushed.row_count}")
    if list(memory.columns) != list(pushed.columns):
        found.append(f"columns {list(memory.columns)} != {list(pushed.columns)}")
    for name, mine in memory.columns.items():
        theirs = pushed.columns.get(name)
        if theirs is None:
            continue
        a, b = mine.to_dict(sketches=False), theirs.to_dict(sketches=False)
        na, nb = a.pop("numeric"), b.pop("numeric")
        da, db = a.pop("distinct"), b.pop("distinct")
        if abs(da - db) > distinct_error * max(da, 1) + (1 if distinct_error else 0):
            found.append(f"{name}.distinct {da} != {db}")
        for key in a:
            if a[key] != b[key]:
                found.append(f"{name}.{key} {a[key]!r} != {b[key]!r}")
        if (na is None) != (nb is None):
            found.append(f"{name}.numeric {na!r} != {nb!r}")
        elif na is not None:
            for key in na:
                x, y = na[key], nb[key]
                if key in ("mean", "stddev"):
                    # a float sum of n values of magnitude m errs by up to n * eps * m:
                    # large values that cancel leave a small mean with that absolute error
                    ends = [abs(v) for v in (na["min"], na["max"]) if v is not None]
                    scale = max(ends) if na["count"] and ends else 0.0
                    scale = scale if math.isfinite(scale) else 0.0
                    bound = 4 * sys.float_info.epsilon * scale * max(na["count"], 1)
                    if not math.isclose(x, y, rel_tol=1e-9, abs_tol=max(1e-12, bound)):
                        found.append(f"{name}.numeric.{key} {x!r} != {y!r}")
                elif x != y:
                    found.append(f"{name}.numeric.{key} {x!r} != {y!r}")
    return found


class Warehouse:
    """A real database to profile in: DuckDB (a file) or PostgreSQL (a fresh schema)."""

    def __init__(self, kind: str, engine: sa.Engine, default_schema: str) -> None:
        self.kind = kind
        self.engine = engine
        self.default_schema = default_schema

    def load(self, table: pa.Table, name: str = ROWS_TABLE, schema: str | None = None) -> None:
        if self.kind == "duckdb":
            load_duckdb(self.engine, table, name, schema or self.default_schema)
        else:
            load_postgres(self.engine, table, name, schema)

    def execute(self, *statements: str) -> None:
        with self.engine.begin() as conn:
            for statement in statements:
                conn.execute(sa.text(statement))

    def quote(self, name: str) -> str:
        return self.engine.dialect.identifier_preparer.quote_identifier(name)


@pytest.fixture(params=["duckdb", "postgres"])
def warehouse(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Warehouse]:
    """Each test runs on a DuckDB file and on the PostgreSQL server."""
    if request.param == "duckdb":
        engine = sa.create_engine(f"duckdb:///{tmp_path / 'warehouse.db'}")
        default = "main"
    else:
        url = str(request.getfixturevalue("postgres_url"))
        engine = sa.create_engine(url)
        with engine.connect() as conn:
            default = str(conn.execute(sa.text("SELECT current_schema()")).scalar_one())
    try:
        yield Warehouse(request.param, engine, default)
    finally:
        engine.dispose()
