"""Concurrency edges of the store: ``record`` racing ``reset``, readers during a long write."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pyarrow as pa
import pytest
from sqlalchemy import text

from faucet_core import ProfilingConfig, profile
from faucet_core.errors import StoreError
from faucet_core.store import ProfileStore
from tests.faucet_core.store.helpers import day

# No pruning (window >= every run recorded) and no detection: the counts are the point.
RACE_CFG = ProfilingConfig(min_history=1000, window=1000)
WRITERS, RECORDS, RESETS = 4, 50, 20


def _orphans(store: ProfileStore) -> int:
    with store.engine.connect() as conn:
        return int(
            conn.execute(
                text(
                    "SELECT count(*) FROM faucet_profile_runs WHERE baseline_id NOT IN "
                    "(SELECT id FROM faucet_baseline_keys)"
                )
            ).scalar_one()
        )


def _rows(store: ProfileStore) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM faucet_profile_runs")).scalar_one())


def test_record_racing_reset_loses_nothing(store_url: str) -> None:
    small = profile(pa.table({"x": list(range(20))}))
    ProfileStore(store_url).close()  # migrate once
    landed: list[int] = []
    resets: list[int] = []
    errors: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(WRITERS + 1)

    def writer(number: int) -> None:
        with ProfileStore(store_url) as store:
            start.wait()
            for i in range(RECORDS):
                try:
                    store.record("orders", small, RACE_CFG, run_id=f"w{number}-{i}")
                except StoreError as exc:
                    with lock:
                        errors.append(str(exc))
                    continue
                with lock:
                    landed.append(1)

    def resetter() -> None:
        with ProfileStore(store_url) as store:
            start.wait()
            for _ in range(RESETS):
                count = store.reset("orders")
                with lock:
                    resets.append(count)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    threads.append(threading.Thread(target=resetter))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with ProfileStore(store_url) as store:
        seen = len(store.history("orders"))
        assert _orphans(store) == 0
        assert _rows(store) == seen  # nothing hidden under another key
    assert len(landed) == WRITERS * RECORDS
    assert len(resets) == RESETS
    assert len(landed) == seen + sum(resets)


def test_a_reader_reads_while_a_writer_holds_the_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "faucet.db"
    url = f"sqlite:///{path}"
    cfg = ProfilingConfig(min_history=2, window=5)
    with ProfileStore(url) as store:
        store.record("orders", day(1), cfg, run_id="r1")
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # a long write: holds the write lock
        holder.execute("UPDATE faucet_baseline_keys SET next_seq = next_seq")
        with ProfileStore(url, busy_timeout=0.3) as store:
            (run,) = store.history("orders")  # does not wait for the writer
            assert run.run_id == "r1"
            assert store.keys()[0].key == "orders"
            assert len(store.baseline("orders")) == 1
            assert store.metrics()
            with pytest.raises(StoreError) as err:
                store.record("orders", day(2), cfg, run_id="r2")
            assert str(err.value) == (
                f"cannot record baseline orders in {url}: the store is busy: another process "
                "held its lock for more than 0.3 s (database is locked); retry when that "
                "process has finished"
            )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with ProfileStore(url) as store:  # the refused write left nothing behind
        assert [r.run_id for r in store.history("orders")] == ["r1"]


def test_a_reader_locked_out_gets_our_error(tmp_path: Path) -> None:
    path = tmp_path / "faucet.db"
    url = f"sqlite:///{path}"
    with ProfileStore(url) as store:
        store.record("orders", day(1), ProfilingConfig(min_history=2, window=5))
    holder = sqlite3.connect(path, isolation_level=None)
    try:  # exclusive locking mode: nobody else may even read until it closes
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE faucet_baseline_keys SET next_seq = next_seq")
        holder.execute("COMMIT")
        with pytest.raises(StoreError) as err:
            ProfileStore(url, busy_timeout=0.2)
        assert str(err.value).startswith(f"cannot open the store at {url}: the store is busy")
    finally:
        holder.close()
