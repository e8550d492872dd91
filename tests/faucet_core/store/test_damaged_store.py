"""Damaged stores: every page of a real SQLite file, every column of a stored run, a
dropped table or column, a nonsense schema version. Each read and write either works or
raises one of our errors (never a driver or ``ValueError`` traceback), and one damaged
run never blocks later records."""

from __future__ import annotations

import json
import shutil
import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from faucet_core import ProfilingConfig
from faucet_core.errors import FaucetError, StoreCorruptError, StoreError, StoreSchemaError
from faucet_core.store import ProfileStore
from faucet_core.store.audit import list_audit
from faucet_core.store.quarantine import diagnose, move_to_quarantine
from tests.faucet_core.store.helpers import day

CFG = ProfilingConfig(min_history=2, window=10)


def _build(url: str, runs: int = 4) -> None:
    with ProfileStore(url) as store:
        for i in range(runs):
            store.record("orders", day(i, rows=200), CFG, run_id=f"o{i}")
            store.record("customers", day(i, rows=50), CFG, partition="eu", run_id=f"c{i}")


def _every_operation(url: str) -> list[str]:
    """Run every read and write; return what each did ("ok" or our error's class)."""
    outcomes: list[str] = []

    def attempt(name: str, action: Callable[[], Any]) -> None:
        try:
            action()
            outcomes.append(f"{name}: ok")
        except FaucetError as exc:
            message = str(exc)
            outcomes.append(f"{name}: {type(exc).__name__}")
        else:
            return
        assert message, name
        assert "Traceback" not in message

    try:
        store = ProfileStore(url, busy_timeout=1)
    except FaucetError as exc:
        return [f"open: {type(exc).__name__}"]
    with store:
        attempt("keys", store.keys)
        for key, part in (("orders", None), ("customers", "eu")):
            attempt("history", lambda k=key, p=part: store.history(k, partition=p))
            attempt("strict", lambda k=key, p=part: store.history(k, partition=p, strict=True))
            attempt("latest", lambda k=key, p=part: store.latest(k, partition=p))
            attempt("baseline", lambda k=key, p=part: store.baseline(k, partition=p))
            attempt("depth", lambda k=key, p=part: store.baseline_depth(k, partition=p))
        attempt("metrics", store.metrics)
        attempt("check", store.check)
        attempt("audit", lambda: list_audit(store.engine))
        attempt("diagnose", lambda: diagnose(store, {}))
        attempt("record", lambda: store.record("orders", day(9, rows=200), CFG))
        attempt("reset", lambda: store.reset("customers", column="amount"))
    return outcomes


def test_every_damaged_page_gives_our_errors(tmp_path: Path) -> None:
    pristine = tmp_path / "pristine.db"
    _build(f"sqlite:///{pristine}")
    with sqlite3.connect(pristine) as conn:  # fold the WAL into the file, leave no -wal
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode = DELETE")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = pristine.stat().st_size // page_size
    assert pages >= 20
    seen: set[str] = set()
    for page in range(pages):
        for pattern in (b"\xa5", b"\x00"):
            damaged = tmp_path / f"page{page}-{pattern.hex()}.db"
            shutil.copyfile(pristine, damaged)
            with damaged.open("r+b") as f:
                f.seek(page * page_size)
                f.write(pattern * page_size)
            seen.update(_every_operation(f"sqlite:///{damaged}"))
            damaged.unlink()
    # The damage was seen: the file as a whole, and pages the reads hit.
    assert "open: StoreCorruptError" in seen
    assert any(s.endswith(": StoreCorruptError") and not s.startswith("open") for s in seen)


def _damage_run(url: str, sql: str, **params: Any) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(sql), params)
    engine.dispose()


SQLITE_COLUMN_DAMAGE = [
    ("recorded_at", "'not a time'", "column recorded_at holds 'not a time'"),
    ("recorded_at", "12345", "column recorded_at holds 12345"),
    ("row_count", "'many'", "column row_count holds 'many', not a whole number >= 0"),
    ("row_count", "-5", "column row_count holds -5, not a whole number >= 0"),
    ("baseline_runs", "x'00'", "column baseline_runs holds b'\\x00'"),
    ("status", "'exploded'", "unknown status 'exploded'"),
    ("in_baseline", "'maybe'", "column in_baseline holds 'maybe'"),
    ("seq", "'first'", "column seq holds 'first'"),
    ("profile", "'text, not bytes'", "stored bytes are unreadable"),
    ("profile", "x'00ff'", "stored bytes are unreadable"),
    ("findings", "x'789c'", "stored bytes are unreadable"),
    ("run_id", "x'0102'", "column run_id holds"),
]


@pytest.mark.parametrize(("column", "value", "expected"), SQLITE_COLUMN_DAMAGE)
def test_each_damaged_column_is_named_and_skipped(
    sqlite_url: str, column: str, value: str, expected: str
) -> None:
    _build(sqlite_url)
    _damage_run(
        sqlite_url,
        f"UPDATE faucet_profile_runs SET {column} = {value} WHERE run_id = 'o1' OR "
        "(seq = 2 AND baseline_id = (SELECT id FROM faucet_baseline_keys WHERE key='orders'))",
    )
    with ProfileStore(sqlite_url) as store:
        read = store.read_history("orders")
        (bad,) = read.skipped
        assert expected in bad.reason, bad.reason
        assert bad.reason.startswith("baseline orders ")
        assert len(read.runs) == 3
        with pytest.raises(StoreCorruptError) as err:
            store.history("orders", strict=True)
        assert str(err.value).endswith(
            "; run `faucet doctor --repair` to move damaged runs to the quarantine table"
        )
        # The damaged run never blocks the next record.
        outcome = store.record("orders", day(7, rows=200), CFG, run_id="o7")
        assert outcome.seq == 5
        health = diagnose(store, {})
        assert not health.healthy
        assert [d.row for d in health.damaged] == [bad.row]
        assert move_to_quarantine(store, health.damaged) == 1
        assert diagnose(store, {}).healthy
        assert [r.run_id for r in store.history("orders", strict=True)] == ["o0", "o2", "o3", "o7"]
        with store.engine.connect() as conn:
            (kept,) = conn.execute(text("SELECT run_row, reason, row FROM faucet_quarantine"))
        assert kept.run_row == bad.row
        assert kept.reason == bad.reason
        assert set(json.loads(kept.row)) >= {"profile", "recorded_at", "seq", "status"}


def _mutate_profile(url: str, change: Callable[[dict[str, Any]], None]) -> None:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as conn:
        row = conn.execute(
            text("SELECT id, profile FROM faucet_profile_runs WHERE run_id = 'o1'")
        ).one()
        data = json.loads(zlib.decompress(bytes(row.profile)))
        change(data)
        blob = zlib.compress(json.dumps(data).encode())
        conn.execute(
            text("UPDATE faucet_profile_runs SET profile = :b WHERE id = :i"),
            {"b": blob, "i": row.id},
        )
    engine.dispose()


def _numeric(data: dict[str, Any]) -> dict[str, Any]:
    column = next(c for c in data["columns"] if c["name"] == "amount")
    return column["numeric"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(
            lambda d: _numeric(d).update(mean="abc"),
            "numeric.mean is 'abc', not a number (nor one of NaN, Infinity, -Infinity)",
            id="mean-is-a-string",
        ),
        pytest.param(
            lambda d: _numeric(d).update(stddev=None),
            "numeric.stddev is None, not a number (nor one of NaN, Infinity, -Infinity)",
            id="stddev-is-null",
        ),
    ],
)
def test_a_damaged_profile_does_not_block_record(
    store_url: str, change: Callable[[dict[str, Any]], None], expected: str
) -> None:
    _build(store_url)
    _mutate_profile(store_url, change)
    with ProfileStore(store_url) as store:
        outcome = store.record("orders", day(8, rows=200), CFG, run_id="o8")
        (bad,) = outcome.skipped_runs
        assert (bad.seq, bad.run_id) == (2, "o1")
        assert bad.reason.startswith("baseline orders run 2: ")
        assert expected in bad.reason
        assert outcome.baseline_runs == 3
        health = diagnose(store, {"orders": CFG})
        assert [d.run_id for d in health.damaged] == ["o1"]
        assert move_to_quarantine(store, health.damaged) == 1
        again = store.record("orders", day(9, rows=200), CFG, run_id="o9")
        assert again.skipped_runs == ()


@pytest.mark.parametrize("version", ["-1", "abc", "0"])
def test_a_nonsense_schema_version(sqlite_url: str, version: str) -> None:
    _build(sqlite_url, runs=1)
    _damage_run(sqlite_url, "UPDATE faucet_meta SET value = :v", v=version)
    with pytest.raises(StoreSchemaError) as err:
        ProfileStore(sqlite_url)
    assert str(err.value) == (
        f"the store's schema version {version!r} is not a version number (1 or more); the "
        "faucet_meta table was edited by hand or belongs to something else: restore the "
        "store from a backup, or point the store URL at another database"
    )


@pytest.mark.parametrize(
    "table", ["faucet_profile_runs", "faucet_baseline_keys", "faucet_metric_counters"]
)
def test_a_dropped_table(sqlite_url: str, table: str) -> None:
    _build(sqlite_url, runs=1)
    _damage_run(sqlite_url, f"DROP TABLE {table}")
    outcomes = _every_operation(sqlite_url)
    assert any(o.endswith("StoreSchemaError") for o in outcomes), outcomes
    with ProfileStore(sqlite_url) as store:
        health = diagnose(store, {})
    assert health.schema_problems == (f"table {table} is missing",)


def test_a_dropped_column(sqlite_url: str) -> None:
    _build(sqlite_url, runs=1)
    _damage_run(sqlite_url, "ALTER TABLE faucet_profile_runs DROP COLUMN findings")
    with ProfileStore(sqlite_url) as store:
        with pytest.raises(StoreSchemaError) as err:
            store.history("orders")
        assert str(err.value) == (
            f"cannot read the history of baseline orders in {sqlite_url}: part of the store's "
            "schema is missing (no such column: faucet_profile_runs.findings); the store was "
            "edited or damaged: restore it from a backup, or move it aside to start anew"
        )
        assert diagnose(store, {}).schema_problems == (
            "column faucet_profile_runs.findings is missing",
        )
        with pytest.raises(StoreSchemaError):
            store.record("orders", day(2), CFG)


def test_garbage_counters_and_audit_rows(sqlite_url: str) -> None:
    _build(sqlite_url, runs=1)
    _damage_run(
        sqlite_url, "UPDATE faucet_metric_counters SET labels = '{not json' WHERE rowid = 1"
    )
    _damage_run(
        sqlite_url,
        "INSERT INTO faucet_audit_log (at, actor, role, action, target, outcome, status, detail)"
        " VALUES ('yesterday', 'a', 'r', 'x', '', 'weird', 'five', '[')",
    )
    with ProfileStore(sqlite_url) as store:
        with pytest.raises(StoreCorruptError, match=r"^metric faucet_profile_\w+: stored labels"):
            store.metrics()
        with pytest.raises(StoreCorruptError, match=r"^audit entry 1: "):
            list_audit(store.engine)


def test_damaged_reads_never_raise_anything_else(sqlite_url: str) -> None:
    _build(sqlite_url, runs=2)
    _damage_run(sqlite_url, "UPDATE faucet_profile_runs SET recorded_at = 'x', profile = 'y'")
    outcomes = _every_operation(sqlite_url)
    assert "strict: StoreCorruptError" in outcomes
    assert "history: ok" in outcomes
    assert "record: ok" in outcomes


def test_store_error_type_is_ours(sqlite_url: str) -> None:
    assert issubclass(StoreSchemaError, StoreError)


def test_a_dropped_table_on_postgres(postgres_url: str) -> None:
    _build(postgres_url, runs=1)
    _damage_run(postgres_url, "DROP TABLE faucet_profile_runs")
    with ProfileStore(postgres_url) as store:
        with pytest.raises(StoreSchemaError) as err:
            store.history("orders")
        assert str(err.value).startswith(
            f"cannot read the history of baseline orders in {store.url}: part of the store's "
            'schema is missing (relation "faucet_profile_runs" does not exist'
        )
        with pytest.raises(StoreSchemaError):
            store.record("orders", day(2), CFG)
        assert diagnose(store, {}).schema_problems == ("table faucet_profile_runs is missing",)
