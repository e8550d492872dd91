"""``faucet doctor`` reads what the detector reads, exits 1 on damage, and ``--repair``
moves damaged runs to the quarantine table. Expected output lives in fixture files."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pyarrow as pa
import pytest
from sqlalchemy import create_engine, text

from faucet_core import ProfilingConfig, profile
from faucet_core.profile import hll_hash, kll_batch
from faucet_core.store import SCHEMA_VERSION, ProfileStore
from faucet_dagster.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CFG = ProfilingConfig(min_history=2, window=10)
T0 = dt.datetime(2026, 9, 20, 2, 0, 0, tzinfo=dt.timezone.utc)


def _table(i: int) -> pa.Table:
    return pa.table({"amount": [float(10 + (k * 7 + i) % 90) for k in range(50)]})


@pytest.fixture
def damaged(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'faucet.db'}"
    with ProfileStore(url) as store:
        for i in range(4):
            store.record(
                "orders", profile(_table(i)), CFG, run_id=f"r{i}", recorded_at=T0 + dt.timedelta(i)
            )
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE faucet_profile_runs SET recorded_at = 'soon' WHERE seq = 2"))
        conn.execute(text("UPDATE faucet_profile_runs SET profile = x'00' WHERE seq = 3"))
    engine.dispose()
    return url


@pytest.fixture(autouse=True)
def both_fast_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expected output is that of an installation with both of the profiler's fast
    paths (``tests/faucet_dagster/cli/test_cli.py`` covers the advice without them)."""
    monkeypatch.setattr(hll_hash, "_compiled", object())
    monkeypatch.setattr(kll_batch, "SORTS_WITH_SIMD", True)


def _run(args: list[str], capsys: pytest.CaptureFixture[str], url: str) -> tuple[int, str]:
    code = main(args)
    out, err = capsys.readouterr()
    assert err == ""
    return code, out.replace(url, "STORE").replace(
        f"schema version {SCHEMA_VERSION}", "schema version N"
    )


def _expect(name: str, text: str) -> None:
    path = FIXTURES / name
    if os.environ.get("FAUCET_REGENERATE_FIXTURES") == "1":
        path.write_text(text)
    assert text == path.read_text()


def test_doctor_names_damaged_runs_and_fails(damaged: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out = _run(["doctor", "--store", damaged], capsys, damaged)
    assert code == 1
    _expect("doctor_damaged.txt", out)


def test_doctor_json_is_unhealthy(damaged: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out = _run(["doctor", "--store", damaged, "--json"], capsys, damaged)
    assert code == 1
    report = json.loads(out)
    assert report["healthy"] is False
    (check,) = report["checks"]
    assert [(d["seq"], d["run_id"]) for d in check["damaged"]] == [(2, "r1"), (3, "r2")]


def test_doctor_repair_quarantines_and_is_healthy(damaged: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out = _run(["doctor", "--store", damaged, "--repair"], capsys, damaged)
    assert code == 0
    _expect("doctor_repaired.txt", out)
    code, out = _run(["doctor", "--store", damaged], capsys, damaged)
    assert code == 0
    with ProfileStore(damaged) as store:
        assert [r.run_id for r in store.history("orders", strict=True)] == ["r0", "r3"]
        with store.engine.connect() as conn:
            moved = conn.execute(text("SELECT run_id FROM faucet_quarantine ORDER BY id")).all()
    assert [r.run_id for r in moved] == ["r1", "r2"]


def test_show_warns_about_damaged_runs(damaged: str, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["profiling", "show", "--store", damaged]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("orders — 2 run(s) in the baseline\n")
    assert err.splitlines() == [
        "warning: baseline orders run 2: column recorded_at holds 'soon', which is not a valid "
        "datetime; it is left out (run `faucet doctor --repair` to move it to the quarantine "
        "table)",
        "warning: baseline orders run 3: stored bytes are unreadable (Error -5 while "
        "decompressing data: incomplete or truncated stream); it is left out (run `faucet "
        "doctor --repair` to move it to the quarantine table)",
    ]


def test_doctor_on_a_store_missing_a_table(damaged: str, capsys) -> None:  # type: ignore[no-untyped-def]
    engine = create_engine(damaged)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE faucet_metric_counters"))
    engine.dispose()
    code, out = _run(["doctor", "--store", damaged], capsys, damaged)
    assert code == 1
    assert out == (
        "store: STORE (reachable, schema version N)\n"
        "  ! table faucet_metric_counters is missing\n"
        "profiler: compiled distinct-count hash, numpy SIMD sort\n"
        "unhealthy: part of the store's schema is missing; restore the store from a backup, "
        "or point the store URL at a new database\n"
    )


def test_doctor_on_a_file_that_is_not_a_store(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "faucet.db"
    path.write_bytes(b"this is not a database, " * 200)
    assert main(["doctor", "--store", f"sqlite:///{path}"]) == 1
    _, err = capsys.readouterr()
    assert err == (
        f"Error: cannot open the store at sqlite:///{path}: the store is damaged (file is not a "
        "database); restore it from a backup, or move the file aside to start an empty store "
        "(baselines are then learned again)\n"
    )
