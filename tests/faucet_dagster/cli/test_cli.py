"""The faucet command: output kept in fixture files, exit codes, errors."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from faucet_core import ProfilingConfig, profile
from faucet_core.profile import hll_hash, kll_batch
from faucet_core.store import SCHEMA_VERSION, ProfileStore
from faucet_dagster.cli import main

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
LOCATION = str(HERE / "location.py")
CFG = ProfilingConfig(min_history=3, window=10)
T0 = dt.datetime(2026, 9, 20, 2, 0, 0, tzinfo=dt.timezone.utc)


def _day(i: int, *, null_share: float = 0.0, region: str | None = None) -> pa.Table:
    n = 100
    amounts = [None if k < n * null_share else float(10 + (k * 7 + i) % 90) for k in range(n)]
    regions = [region or ("eu" if k % 2 else "us") for k in range(n)]
    return pa.table({"amount": amounts, "region": regions})


@pytest.fixture
def store_file(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'faucet.db'}"
    with ProfileStore(url) as store:
        for i in range(4):
            store.record(
                "orders",
                profile(_day(i), CFG),
                CFG,
                run_id=f"run-{i}",
                recorded_at=T0 + dt.timedelta(days=i),
            )
        store.record(
            "orders",
            profile(_day(9, null_share=0.4), CFG),
            CFG,
            run_id="run-9",
            recorded_at=T0 + dt.timedelta(days=9),
        )
        store.record("customers", profile(_day(1), CFG), CFG, run_id="c-1", recorded_at=T0)
    return url


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _expect(name: str, text: str) -> None:
    path = FIXTURES / name
    if os.environ.get("FAUCET_REGENERATE_FIXTURES") == "1":
        path.write_text(text)
    assert text == path.read_text()


def test_show_prints_latest_profile_and_drift(store_file: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _run(["profiling", "show", "--store", store_file], capsys)
    assert code == 0
    _expect("show.txt", out)
    assert "! amount.null_rate: null_rate 40.0%" in out


def test_show_full_has_trends(store_file: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _run(
        ["profiling", "show", "--store", store_file, "--full", "--select", "orders"], capsys
    )
    assert code == 0
    _expect("show_full.txt", out)
    assert "customers" not in out


def test_show_json(store_file: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _run(["profiling", "show", "--store", store_file, "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert [d["key"] for d in data] == ["customers", "orders"]
    orders = data[1]
    assert orders["baseline_runs"] == 5
    assert orders["latest"]["status"] == "drifted"
    assert orders["latest"]["findings"][0]["metric"] == "null_rate"
    assert "sketches" not in orders["latest"]["profile"]["columns"][0]


def test_doctor_reports_depth_and_last_drift(store_file: str, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # the golden output is that of an installation with both fast paths
    monkeypatch.setattr(hll_hash, "_compiled", object())
    monkeypatch.setattr(kll_batch, "SORTS_WITH_SIMD", True)
    os.environ["CLI_TEST_STORE"] = store_file
    try:
        code, out, _ = _run(["doctor", "-f", LOCATION], capsys)
    finally:
        del os.environ["CLI_TEST_STORE"]
    assert code == 0
    version = f"schema version {SCHEMA_VERSION}"
    _expect("doctor.txt", out.replace(store_file, "STORE").replace(version, "schema version N"))


def test_doctor_json_names_warming_checks(store_file: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _run(["doctor", "--store", store_file, "--json"], capsys)
    assert code == 0
    assert json.loads(out)["profiler"] == {
        "compiled_hash": hll_hash._compiled is not None,
        "simd_sort": kll_batch.SORTS_WITH_SIMD,
    }
    checks = {c["key"]: c for c in json.loads(out)["checks"]}
    assert checks["customers"]["state"] == "warming up: 1 of 5 run(s)"
    assert checks["orders"]["last_drifted"] is True


def test_reset_one_column_then_all(store_file: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _run(
        ["profiling", "reset", "--store", store_file, "--select", "orders", "--column", "amount"],
        capsys,
    )
    assert (code, out) == (0, "reset orders column amount: 5 run(s) affected\n")
    with ProfileStore(store_file) as store:
        assert all("amount" not in r.profile.columns for r in store.history("orders"))
    code, out, _ = _run(["profiling", "reset", "--store", store_file, "--all"], capsys)
    assert code == 0
    assert out == ("reset customers: 1 run(s) affected\nreset orders: 5 run(s) affected\n")
    with ProfileStore(store_file) as store:
        assert store.keys() == []


def test_reset_needs_a_target(store_file: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = _run(["profiling", "reset", "--store", store_file], capsys)
    assert (code, err) == (1, "Error: say what to reset: --select ASSET (repeatable) or --all\n")


def test_bad_store_url_is_one_clear_line(capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = _run(["doctor", "--store", "mysql://x@127.0.0.1/db"], capsys)
    assert code == 1
    assert err.startswith("Error: store URL 'mysql://x@127.0.0.1/db': backend 'mysql' is not")


def test_missing_code_location_file(capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = _run(["doctor", "-f", "/nonexistent/defs.py"], capsys)
    assert (code, err) == (1, "Error: -f '/nonexistent/defs.py': no such file\n")


def test_schema_profiling_is_the_json_schema(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _run(["schema", "profiling"], capsys)
    schema = json.loads(out)
    assert code == 0
    assert schema["properties"]["min_history"]["default"] == 5
    assert schema["additionalProperties"] is False


def test_console_script_runs_in_a_subprocess(store_file: str) -> None:
    exe = Path(sys.executable).with_name("faucet")
    done = subprocess.run(
        [str(exe), "profiling", "show", "--store", store_file, "--select", "customers"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("customers — 1 run(s) in the baseline\n")


def test_metrics_prints_prometheus_text(store_file: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _run(["metrics", "--store", store_file], capsys)
    assert code == 0
    assert (
        'faucet_profile_drift_total{asset="orders",column="amount",metric="null_rate",row=""} 1.0'
        in out
    )


def test_doctor_says_how_to_get_a_missing_fast_path(store_file: str, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An installation without the compiled hash or numpy's SIMD sort stays healthy; doctor
    names what is slower and how to get it."""
    monkeypatch.setattr(hll_hash, "_compiled", None)
    monkeypatch.setattr(kll_batch, "SORTS_WITH_SIMD", False)
    code, out, _ = _run(["doctor", "--store", store_file], capsys)
    assert code == 0
    assert "profiler: numpy distinct-count hash, numpy scalar sort" in out
    assert "Reinstall faucet-core where a C compiler and Python's headers are found" in out
    assert "numpy has no SIMD sort here" in out
    assert out.rstrip().endswith("every baseline used by the detector")
