"""ProfileStore on a real SQLite file and a real PostgreSQL server."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from faucet_core import ProfilingConfig
from faucet_core.config import OnDrift
from faucet_core.errors import ConfigError, StoreCorruptError, StoreError, StoreSchemaError
from faucet_core.store import SCHEMA_VERSION, BaselineKey, ProfileStore, RunStatus
from tests.faucet_core.store.helpers import day

CFG = ProfilingConfig(min_history=3, window=6)


@pytest.fixture
def store(store_url: str):  # type: ignore[no-untyped-def]
    with ProfileStore(store_url) as s:
        yield s


def test_warming_then_stable_then_drift(store: ProfileStore) -> None:
    outcomes = [store.record("orders", day(i), CFG) for i in range(5)]
    assert [o.status for o in outcomes] == [RunStatus.WARMING] * 3 + [RunStatus.STABLE] * 2
    assert [o.baseline_runs for o in outcomes] == [0, 1, 2, 3, 4]
    assert outcomes[2].warming_message == "warming up: 2 of 3 run(s)"
    spike = store.record("orders", day(99, null_share=0.4), CFG)
    assert spike.status is RunStatus.DRIFTED
    assert {(f.column, f.metric.value) for f in spike.findings} >= {("amount", "null_rate")}
    assert spike.in_baseline  # on_drift warn: the run joins the baseline


def test_repeated_drift_fades_under_warn(store: ProfileStore) -> None:
    for i in range(4):
        store.record("orders", day(i), CFG)
    statuses = [
        store.record("orders", day(100 + i, null_share=0.4), CFG).status
        for i in range(CFG.window + 1)
    ]
    assert statuses[0] is RunStatus.DRIFTED
    assert statuses[-1] is RunStatus.STABLE


def test_fail_keeps_drift_out_of_the_baseline(store: ProfileStore) -> None:
    cfg = CFG.model_copy(update={"on_drift": OnDrift.FAIL})
    for i in range(4):
        store.record("orders", day(i), cfg)
    depth = store.baseline_depth("orders")
    outcomes = [store.record("orders", day(200 + i, null_share=0.4), cfg) for i in range(8)]
    assert all(o.status is RunStatus.DRIFTED and not o.in_baseline for o in outcomes)
    assert store.baseline_depth("orders") == depth
    store.reset("orders")
    assert store.record("orders", day(300, null_share=0.4), cfg).status is RunStatus.WARMING


def test_same_run_id_is_recorded_once(store: ProfileStore) -> None:
    first = store.record("orders", day(1), CFG, run_id="mat-1")
    again = store.record("orders", day(2), CFG, run_id="mat-1")
    assert not first.duplicate
    assert again.duplicate
    assert (again.seq, again.status) == (first.seq, first.status)
    assert len(store.history("orders")) == 1


def test_history_is_pruned_to_the_window(store: ProfileStore) -> None:
    for i in range(CFG.window + 4):
        store.record("orders", day(i), CFG)
    runs = store.history("orders")
    assert len(runs) == CFG.window
    assert [r.seq for r in runs] == list(range(5, CFG.window + 5))
    assert len(store.baseline("orders")) == CFG.window


def test_partitions_are_separate_baselines(store: ProfileStore) -> None:
    for i in range(3):
        store.record("orders", day(i), CFG, partition="eu")
    store.record("orders", day(9), CFG, partition="us")
    store.record("payments", day(9), CFG)
    assert store.keys() == [
        BaselineKey("orders", "eu"),
        BaselineKey("orders", "us"),
        BaselineKey("payments", ""),
    ]
    assert store.baseline_depth("orders", partition="eu") == 3
    assert store.reset("orders", partition="eu") == 3
    assert store.keys() == [BaselineKey("orders", "us"), BaselineKey("payments", "")]
    assert store.reset("orders") == 1
    assert store.keys() == [BaselineKey("payments", "")]


def test_reset_one_column_relearns_only_that_column(store: ProfileStore) -> None:
    for i in range(5):
        store.record("orders", day(i), CFG)
    assert store.reset("orders", column="amount") == 5
    assert all("amount" not in r.profile.columns for r in store.history("orders"))
    assert all("region" in r.profile.columns for r in store.history("orders"))
    after = store.record("orders", day(50, null_share=0.4), CFG)
    assert after.status is RunStatus.STABLE  # amount is new again: learned, not flagged
    region = store.record("orders", day(51, region="latam"), CFG)
    assert "region" in {f.column for f in region.findings}


def test_latest_and_history_round_trip(store: ProfileStore) -> None:
    prof = day(7)
    store.record("orders", prof, CFG, run_id="r7")
    latest = store.latest("orders")
    assert latest is not None
    assert latest.run_id == "r7"
    assert latest.row_count == prof.row_count
    assert latest.profile.columns["region"] == prof.columns["region"]
    assert latest.recorded_at.tzinfo is not None
    assert store.latest("nothing") is None


def test_schema_version_recorded_and_reopen_keeps_data(store_url: str) -> None:
    with ProfileStore(store_url) as s:
        assert s.schema_version == SCHEMA_VERSION == s.check()
        s.record("orders", day(1), CFG)
    with ProfileStore(store_url) as s:
        assert len(s.history("orders")) == 1


def test_newer_schema_is_refused(store_url: str) -> None:
    ProfileStore(store_url).close()
    engine = create_engine(store_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as conn:
        conn.execute(text("UPDATE faucet_meta SET value = '999' WHERE name = 'schema_version'"))
    engine.dispose()
    with pytest.raises(StoreSchemaError) as err:
        ProfileStore(store_url)
    assert str(err.value) == (
        f"the store's schema version 999 is newer than this faucet-dagster understands "
        f"({SCHEMA_VERSION}); upgrade faucet-dagster"
    )


def test_corrupt_row_names_its_key(store: ProfileStore) -> None:
    store.record("orders", day(1), CFG, partition="p1")
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE faucet_profile_runs SET profile = :b"), {"b": b"garbage"})
    with pytest.raises(StoreCorruptError, match=r"^baseline orders::p1 run 1: stored bytes"):
        store.history("orders", partition="p1", strict=True)
    assert store.history("orders", partition="p1") == []  # left out, with a logged warning
    # A damaged old run no longer blocks the next record: it is skipped and named.
    outcome = store.record("orders", day(2), CFG, partition="p1")
    (skipped,) = outcome.skipped_runs
    assert (skipped.seq, skipped.row) == (1, 1)
    assert skipped.reason.startswith("baseline orders::p1 run 1: stored bytes are unreadable")


def test_bad_urls_say_what_to_do(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match=r"backend 'mysql' is not supported"):
        ProfileStore("mysql://root@127.0.0.1/test")
    with pytest.raises(ConfigError, match=r"is not a SQLAlchemy URL"):
        ProfileStore("not a url")
    with pytest.raises(StoreError, match=r"^cannot open the store at postgresql\+psycopg://"):
        ProfileStore("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")


def test_bad_key_is_refused(store: ProfileStore) -> None:
    with pytest.raises(StoreError, match=r"baseline key '' is invalid"):
        store.record("", day(1), CFG)


def test_metrics_accumulate_in_the_store(store_url: str) -> None:
    from faucet_core.store.metrics import exposition

    cfg = CFG.model_copy(update={"on_drift": OnDrift.FAIL})  # a drift stays out: drifts again
    with ProfileStore(store_url) as store:
        for i in range(3):
            store.record("orders", day(i), cfg, partition="eu")
        store.record("orders", day(3, null_share=0.4), cfg, partition="eu")
        store.record("orders", day(3, null_share=0.4), cfg, partition="eu", run_id="x")
        store.record("orders", day(3, null_share=0.4), cfg, partition="eu", run_id="x")
    with ProfileStore(store_url) as store:  # another process would see the same totals
        text = exposition(store).decode()
        store.reset("orders")
        after = exposition(store).decode()
    assert 'faucet_profile_runs_total{asset="orders",outcome="warming",row="eu"} 3.0' in text
    assert 'faucet_profile_runs_total{asset="orders",outcome="drifted",row="eu"} 2.0' in text
    drift = 'faucet_profile_drift_total{asset="orders",column="amount",metric="null_rate",row="eu"}'
    assert f"{drift} 2.0" in text
    assert 'faucet_profile_columns{asset="orders",row="eu"} 2.0' in text
    assert 'faucet_profile_baseline_runs{asset="orders",row="eu"} 3.0' in text
    assert 'faucet_profile_baseline_runs{asset="orders",row="eu"} 0.0' in after
    assert "# TYPE faucet_profile_drift_total counter" in text


def test_a_version_1_store_is_migrated_in_place(store_url: str) -> None:
    with ProfileStore(store_url) as store:
        store.record("orders", day(1), CFG)
        with store.engine.begin() as conn:  # turn it back into what version 1 created
            conn.execute(text("DROP TABLE faucet_metric_counters"))
            conn.execute(text("UPDATE faucet_meta SET value = '1' WHERE name = 'schema_version'"))
    with ProfileStore(store_url) as store:
        assert store.check() == SCHEMA_VERSION
        assert len(store.history("orders")) == 1
        store.record("orders", day(2), CFG)
        assert ("faucet_profile_columns", {"asset": "orders", "row": ""}, 2.0) in store.metrics()


def test_unwritable_sqlite_folder_is_a_config_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ConfigError, match=r"cannot create the folder '.*/file/sub' for the SQLite"):
        ProfileStore(f"sqlite:///{blocker}/sub/faucet.db")
