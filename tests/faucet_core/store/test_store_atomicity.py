"""Writes are all-or-nothing, and concurrent writers lose nothing."""

from __future__ import annotations

import multiprocessing as mp

import pytest
from sqlalchemy import text

from faucet_core import ProfilingConfig
from faucet_core.errors import StoreError
from faucet_core.store import ProfileStore
from tests.faucet_core.store.helpers import day

CFG = ProfilingConfig(min_history=3, window=100)


def _snapshot(store: ProfileStore) -> tuple:  # type: ignore[type-arg]
    with store.engine.connect() as conn:
        keys = conn.execute(
            text(
                "SELECT key, partition, next_seq FROM faucet_baseline_keys ORDER BY key, partition"
            )
        ).all()
        runs = conn.execute(
            text(
                "SELECT baseline_id, seq, status FROM faucet_profile_runs ORDER BY baseline_id, seq"
            )
        ).all()
    return tuple(map(tuple, keys)), tuple(map(tuple, runs))


def _add_failing_trigger(store: ProfileStore) -> None:
    with store.engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.execute(
                text(
                    "CREATE TRIGGER refuse BEFORE INSERT ON faucet_profile_runs "
                    "WHEN NEW.seq = 3 BEGIN SELECT RAISE(ABORT, 'disk full (simulated)'); END"
                )
            )
        else:
            conn.execute(
                text(
                    "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                    "IF NEW.seq = 3 THEN RAISE EXCEPTION 'disk full (simulated)'; END IF; "
                    "RETURN NEW; END $$ LANGUAGE plpgsql"
                )
            )
            conn.execute(
                text(
                    "CREATE TRIGGER refuse BEFORE INSERT ON faucet_profile_runs "
                    "FOR EACH ROW EXECUTE FUNCTION refuse()"
                )
            )


def test_failed_write_leaves_the_store_as_it_was(store_url: str) -> None:
    with ProfileStore(store_url) as store:
        store.record("orders", day(1), CFG)
        store.record("orders", day(2), CFG)
        _add_failing_trigger(store)
        before = _snapshot(store)
        with pytest.raises(StoreError, match=r"^cannot record baseline orders in .*disk full"):
            store.record("orders", day(3), CFG, run_id="third")
        assert _snapshot(store) == before
        assert len(store.history("orders")) == 2
        with pytest.raises(StoreError):
            store.record("orders", day(3), CFG, run_id="third")
        assert _snapshot(store) == before


def _writer(url: str, worker: int, runs: int) -> None:
    with ProfileStore(url) as store:
        for i in range(runs):
            store.record("orders", day(worker * 1000 + i, rows=200), CFG, run_id=f"w{worker}-{i}")


def test_two_processes_recording_one_key_lose_nothing(store_url: str) -> None:
    ProfileStore(store_url).close()  # migrate once up front; migration races are tested below
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(store_url, w, 15)) for w in (1, 2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=240)
    assert [p.exitcode for p in procs] == [0, 0]
    with ProfileStore(store_url) as store:
        runs = store.history("orders")
    assert sorted(r.run_id or "" for r in runs) == sorted(
        f"w{w}-{i}" for w in (1, 2) for i in range(15)
    )
    assert [r.seq for r in runs] == list(range(1, 31))


def _opener(url: str) -> None:
    ProfileStore(url).close()


def test_concurrent_first_open_migrates_once(store_url: str) -> None:
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_opener, args=(store_url,)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    with ProfileStore(store_url) as store, store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM faucet_meta")).scalar() == 1
