"""A pushdown profile has no sketches: the JSON round trip, the drift detector and the store
(SQLite and PostgreSQL) take it like any profile; merging refuses it with a clear message."""

from __future__ import annotations

import pyarrow as pa
import pytest
import sqlalchemy as sa

from faucet_core import ProfilingConfig, TableProfile, detect_drift
from faucet_core.errors import SketchError
from faucet_core.profile import SqlTable, profile_sql
from faucet_core.store import ProfileStore, RunStatus
from tests.faucet_core.profile.sqldata import load_duckdb


def _day(engine: sa.Engine, day: int, *, null_every: int = 50) -> TableProfile:
    n = 500
    table = pa.table(
        {
            "amount": [None if i % null_every == 0 else float(i % 90 + day) for i in range(n)],
            "region": [("eu", "us", "apac")[(i + day) % 3] for i in range(n)],
        }
    )
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE IF EXISTS orders")
    load_duckdb(engine, table, "orders")
    return profile_sql(SqlTable(engine, "orders"))


@pytest.fixture
def engine(tmp_path):  # type: ignore[no-untyped-def]
    eng = sa.create_engine(f"duckdb:///{tmp_path / 'w.db'}")
    yield eng
    eng.dispose()


def test_round_trip_and_detection(engine: sa.Engine) -> None:
    baseline = [_day(engine, d) for d in range(4)]
    for prof in baseline:
        assert TableProfile.from_json(prof.to_json()) == prof
        assert TableProfile.from_json(prof.to_json()).to_json() == prof.to_json()
    drifted = _day(engine, 4, null_every=2)
    config = ProfilingConfig(min_history=3)
    assert detect_drift(_day(engine, 4), baseline, config) == []
    findings = detect_drift(drifted, baseline, config)
    assert [(f.column, f.metric.value) for f in findings] == [("amount", "null_rate")]


def test_the_store_records_and_reads_sketchless_runs(engine: sa.Engine, store_url: str) -> None:
    config = ProfilingConfig(min_history=3)
    with ProfileStore(store_url) as store:
        for day in range(3):
            outcome = store.record("orders", _day(engine, day), config, run_id=f"r{day}")
            assert outcome.status is RunStatus.WARMING
        outcome = store.record("orders", _day(engine, 3, null_every=2), config, run_id="r3")
        assert outcome.status is RunStatus.DRIFTED
        runs = store.history("orders", strict=True)
    assert [r.profile.row_count for r in runs] == [500] * 4
    assert runs[-1].profile == _day(engine, 3, null_every=2)


def test_merge_refuses_a_pushdown_profile(engine: sa.Engine) -> None:
    prof = _day(engine, 0)
    with pytest.raises(SketchError) as info:
        prof.merge(prof)
    assert str(info.value) == (
        "column 'amount': the profile carries no sketches (it was serialized with "
        "sketches=False, or computed in the database by profile_sql); merge needs profiles "
        "serialized with their sketches (profile a whole SQL table at once)"
    )
