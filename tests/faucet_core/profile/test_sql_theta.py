"""profile_sql on a PostgreSQL table past the exact bound, with and without the planner's
statistics: the theta sketch counts again when its expectation was too high, and the
categorical columns share one GROUP BY of their combinations, with the same figures as the
in-memory profiler."""

from __future__ import annotations

import pyarrow as pa
import pytest
import sqlalchemy as sa

from faucet_core.profile import SqlTable, TableProfile, profile, profile_sql

ROWS = 250_000
_TABLE = f"""
CREATE TABLE {{name}} WITH (autovacuum_enabled = false) AS
SELECT g AS id,
       mod(g * 7, 110000) AS d,
       mod(g, 3) AS a,
       'kind-' || mod(g * 13, 5) AS b,
       mod(g, 4) = 0 AS c,
       CASE WHEN mod(g, 9) = 0 THEN NULL ELSE mod(g, 11) END AS e
FROM generate_series(1, {ROWS}) g
"""


@pytest.fixture(scope="module")
def engine(postgres_url_module: str):  # type: ignore[no-untyped-def]
    eng = sa.create_engine(postgres_url_module)
    with eng.begin() as conn:
        conn.exec_driver_sql(_TABLE.format(name="many"))  # never analyzed
        conn.exec_driver_sql(_TABLE.format(name="counted"))
    with eng.connect() as conn:
        conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE counted")
    yield eng
    eng.dispose()


def _profiled(engine: sa.Engine, name: str) -> tuple[TableProfile, list[str]]:
    sent: list[str] = []

    def record(*args: object) -> None:
        sent.append(str(args[2]))

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        prof = profile_sql(SqlTable(engine, name))
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    return prof, sent


def test_without_statistics_the_sketch_counts_again_within_its_error(engine: sa.Engine) -> None:
    prof, sent = _profiled(engine, "many")  # never analyzed: the non-null count is the expectation
    theta = [s for s in sent if "count(DISTINCT anon_1.h" in s]
    # 250,000 expected, 110,000 present: ~3,600 hashes kept, fewer than the 4,096 the
    # error needs, so `d` is counted once more with a larger share of the hash range
    assert len(theta) == 2
    assert abs(prof["d"].distinct - 110_000) <= 0.049 * 110_000
    assert abs(prof["id"].distinct - ROWS) <= 0.049 * ROWS


def test_categorical_columns_share_one_group_by_and_agree(engine: sa.Engine) -> None:
    prof, sent = _profiled(engine, "counted")
    grouped = [s for s in sent if "GROUP BY" in s]
    assert len(grouped) == 1
    assert "GROUP BY counted.a, counted.b, counted.c, counted.e" in grouped[0]
    with engine.connect() as conn:
        result = conn.exec_driver_sql("SELECT a, b, c, e FROM counted")
        names = list(result.keys())
        columns = list(zip(*result.all(), strict=True))
    rows = pa.table({n: list(v) for n, v in zip(names, columns, strict=True)})
    in_memory = profile(rows)
    for name in ("a", "b", "c", "e"):
        got, want = prof[name], in_memory[name]
        assert got.distinct == want.distinct, name
        assert got.top_values == want.top_values, name
        assert got.null_count == want.null_count, name
