"""Property: on random tables loaded into DuckDB, profile_sql agrees with the in-memory
profiler: exact statistics equal, mean and stddev to float precision, distinct within
DuckDB's HyperLogLog error."""

from __future__ import annotations

import datetime as dt
import math

import pyarrow as pa
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig
from faucet_core.profile import SqlTable, profile, profile_sql
from tests.faucet_core.profile.sqldata import differences, load_duckdb

DISTINCT_ERROR = 0.05
"""DuckDB's approx_count_distinct against the in-memory HyperLogLog, relative (plus one)."""

# -0.0 becomes 0.0: SQL groups them as one value (IEEE equality), the in-memory profiler
# counts two (their JSON texts differ); docs/sql.md says so.
_FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.sampled_from([0.0, 1.5, -2.25, 1e300, math.nan, math.inf]),
).map(lambda v: v + 0.0)
_KINDS = {
    "int": (pa.int64(), st.integers(-(2**53), 2**53)),
    "small": (pa.int32(), st.integers(-3, 3)),
    "float": (pa.float64(), _FLOATS),
    "single": (pa.float32(), st.floats(width=32).map(lambda v: v + 0.0)),
    "decimal": (pa.decimal128(12, 3), st.decimals(-(10**8), 10**8, places=3, allow_nan=False)),
    "text": (pa.string(), st.text(max_size=8)),
    "cat": (pa.string(), st.sampled_from(["", "a", "é", "日本", "a b"])),
    "bool": (pa.bool_(), st.booleans()),
    "date": (pa.date32(), st.dates(dt.date(1970, 1, 1), dt.date(2100, 12, 31))),
    "ts": (
        pa.timestamp("us"),
        st.datetimes(dt.datetime(1970, 1, 1), dt.datetime(2100, 1, 1)),
    ),
}


@st.composite
def tables(draw: st.DrawFn) -> pa.Table:
    rows = draw(st.integers(0, 40))
    kinds = draw(st.lists(st.sampled_from(sorted(_KINDS)), min_size=1, max_size=5))
    columns = {}
    for i, kind in enumerate(kinds):
        arrow_type, values = _KINDS[kind]
        nulls = draw(st.sampled_from([0.0, 0.3, 1.0]))
        column = draw(
            st.lists(
                st.one_of(st.none(), values) if nulls else values, min_size=rows, max_size=rows
            )
        )
        if nulls == 1.0:
            column = [None] * rows
        columns[f"c{i} {kind}"] = pa.array(column, arrow_type)
    return pa.table(columns)


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(table=tables(), top=st.integers(0, 4), categorical=st.integers(1, 30))
def test_pushdown_agrees_on_random_tables(table: pa.Table, top: int, categorical: int) -> None:
    config = ProfilingConfig(top_values=top, categorical_max_distinct=categorical)
    engine = sa.create_engine("duckdb:///:memory:")
    try:
        with engine.connect() as conn:
            load_duckdb(engine, table, "t")
            pushed = profile_sql(SqlTable(conn, "t"), config)
    finally:
        engine.dispose()
    memory = profile(table, config)
    found = differences(memory, pushed, distinct_error=DISTINCT_ERROR)
    # near categorical_max_distinct, an approximate distinct may fall on the other side
    found = [f for f in found if not _cardinality_edge(f, memory, pushed)]
    assert found == []


def _cardinality_edge(found: str, memory: object, pushed: object) -> bool:
    """Whether ``found`` is a top-values / high-cardinality difference of a column whose two
    distinct estimates lie on either side of ``categorical_max_distinct``."""
    name, rest = found.split(".", 1)
    if not rest.startswith(("top_values", "high_cardinality")):
        return False
    a, b = memory.columns[name], pushed.columns[name]  # type: ignore[attr-defined]
    return bool(a.high_cardinality != b.high_cardinality)
