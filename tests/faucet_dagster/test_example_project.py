"""The example project's pieces that ``make demo`` shows, on real Dagster runs in process:
the ``notify`` check's findings delivered by the notification sensor to a local Slack and
webhook receiver, and the blocking ``on_drift: fail`` check that keeps ``regional_report``
from materializing. ``make demo`` itself runs the same project through the dagster CLI."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import dagster as dg
import pytest

from faucet_dagster.location import load_code_location

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

EXAMPLE = Path(__file__).resolve().parents[2] / "example_project"


def _demo_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("faucet_run_demo", EXAMPLE / "run_demo.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def demo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Any]:
    monkeypatch.syspath_prepend(str(EXAMPLE / "src"))
    monkeypatch.chdir(EXAMPLE / "src")  # the code location loads from its working directory
    monkeypatch.setenv("FAUCET_STORE_URL", f"sqlite:///{tmp_path / 'faucet.db'}")
    module = _demo_module()
    receiver = module.Receiver()
    monkeypatch.setenv("SLACK_WEBHOOK_URL", f"{receiver.url}/slack")
    monkeypatch.setenv("ALERTS_WEBHOOK_URL", f"{receiver.url}/webhook")
    yield module, receiver
    receiver.close()
    for name in [m for m in sys.modules if m.startswith("faucet_example")]:
        del sys.modules[name]


def _day(defs: dg.Definitions, instance: dg.DagsterInstance, day: int, mp: Any) -> Any:
    mp.setenv("FAUCET_EXAMPLE_DAY", str(day))
    job = defs.resolve_implicit_global_asset_job_def()
    return job.execute_in_process(instance=instance, raise_on_error=False)


def test_the_demo_notifies_and_blocks(demo, instance, monkeypatch):
    module, receiver = demo
    defs = load_code_location("faucet_example.definitions").defs
    (sensor,) = [s for s in defs.sensors or [] if s.name == module.SENSOR]
    for day in range(1, 9):  # warm-up and stable days
        assert _day(defs, instance, day, monkeypatch).success, day
        if day == 1:
            cursor, said = module._tick(sensor, instance, defs, None)
            assert said.startswith("started after check evaluation ")
    cursor, said = module._tick(sensor, instance, defs, cursor)
    assert receiver.take() == []  # nothing drifted yet

    before = len(instance.get_runs())
    result = _day(defs, instance, 10, monkeypatch)  # amounts in cents
    assert not result.success
    built = {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}
    assert built == {"raw_orders", "orders", "revenue_by_region"}  # no regional_report
    failed = {
        e.asset_key.to_user_string(): e.severity
        for e in result.get_asset_check_evaluations()
        if not e.passed
    }
    assert failed["revenue_by_region"] == dg.AssetCheckSeverity.ERROR
    assert failed["orders"] == dg.AssetCheckSeverity.WARN
    assert module._run_outcome(instance, before) == (
        False,
        "run FAILURE: the blocking check of revenue_by_region (on_drift: fail) failed with "
        "severity ERROR; not materialized: regional_report",
    )

    cursor, said = module._tick(sensor, instance, defs, cursor)
    assert said.startswith("delivered 4 notification(s) (slack_webhook 2, webhook 2)"), said
    received = receiver.take()
    hooks = {p["asset"]: p for path, p in received if path == "/webhook"}
    assert set(hooks) == {"orders", "revenue_by_region"}  # notify and fail; warn sends none
    assert hooks["orders"]["on_drift"] == "notify"
    assert hooks["revenue_by_region"]["on_drift"] == "fail"
    assert hooks["orders"]["findings"][0]["column"] == "amount"
    slack = [p for path, p in received if path == "/slack"]
    assert len(slack) == 2
    assert sorted(p["blocks"][0]["text"]["text"] for p in slack) == [
        ":rotating_light: Profile drift: revenue_by_region",  # ERROR: the blocking check
        ":warning: Profile drift: orders",  # WARN: the notify check
    ]

    cursor, said = module._tick(sensor, instance, defs, cursor)
    assert receiver.take() == []  # exactly once


def test_dagster_dev_names_the_location_as_the_project_does():
    # `dagster dev` run in example_project (no -m) loads pyproject's [tool.dg.project]; the
    # component tree warns once a minute when its project name and the location name differ.
    from dagster._core.workspace.load_target import get_target_from_toml_data

    data = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())
    target: Any = get_target_from_toml_data(data)
    project = data["tool"]["dg"]["project"]
    assert target.module_name == "faucet_example.definitions"
    assert target.location_name == project["code_location_name"] == "faucet_example"


def test_faucet_toml_names_the_demo_store():
    from faucet_core.db.project import find_project_store

    found = find_project_store(EXAMPLE / "src")
    assert found is not None
    assert found.url == f"sqlite:///{EXAMPLE / '.dagster_home' / 'faucet.db'}"


def test_the_demo_reports_the_overdue_partner_and_the_dropped_column(demo, instance, monkeypatch):
    module, receiver = demo
    defs = load_code_location("faucet_example.definitions").defs
    (sensor,) = [s for s in defs.sensors or [] if s.name == module.SENSOR]
    cursor, _ = module._tick(sensor, instance, defs, None)
    for day in range(1, module.PARTNER_DAYS + 1):  # the partner delivers each morning
        module.deliver_partner_rates(instance, day)
        evaluation = module.tick_freshness(instance, defs, day)
        assert evaluation is not None
        assert evaluation.passed, day
    overdue = module.tick_freshness(instance, defs, 9)  # nothing arrived on day 9
    assert overdue is not None
    assert not overdue.passed
    assert overdue.metadata["faucet/episode"].value == "overdue"
    assert "learned cadence: daily at 06:1" in overdue.description
    assert module.tick_freshness(instance, defs, 10) is None  # still overdue: not again

    assert _day(defs, instance, 8, monkeypatch).success
    result = _day(defs, instance, 11, monkeypatch)  # ordered_at dropped upstream
    checks = {e.asset_key.to_user_string(): e for e in result.get_asset_check_evaluations()}
    dropped = "schema changed since the previous run: column ordered_at dropped (was string)"
    assert checks["orders"].metadata["faucet/schema_change"].value == dropped
    assert checks["raw_orders"].metadata["faucet/schema_change"].value == dropped

    module._tick(sensor, instance, defs, cursor)
    hooks = [(p["kind"], p["asset"]) for path, p in receiver.take() if path == "/webhook"]
    assert ("profile_freshness", "partner_rates") in hooks
    assert ("profile_schema_change", "orders") in hooks  # notify; raw_orders warns only
    assert ("profile_schema_change", "raw_orders") not in hooks
