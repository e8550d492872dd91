"""The shipped Prometheus rules and Grafana dashboard: they load as package data, promtool
accepts the rules and their unit tests fire every alert, and the dashboard only asks for
metrics that faucet exports."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from faucet_core import monitoring
from faucet_core.store.metrics import METRICS
from faucet_dagster.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parent / "fixtures"
METRIC_NAME = re.compile(r"\bfaucet_[a-z_]+\b")


def _promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        if os.environ.get("FAUCET_REQUIRE_PROMTOOL"):
            pytest.fail(
                "promtool is missing but FAUCET_REQUIRE_PROMTOOL is set: install Debian's "
                "prometheus package (make promtool)"
            )
        pytest.skip("promtool is not installed (make promtool installs it)")
    return found


def _rules() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(monitoring.read(monitoring.RULES))
    return loaded


def _dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(monitoring.read(monitoring.DASHBOARD))
    return loaded


def test_the_files_load_through_importlib_resources():
    folder = resources.files("faucet_core.monitoring")
    for name in (monitoring.RULES, monitoring.DASHBOARD):
        assert folder.joinpath(name).is_file()
        assert monitoring.read(name) == folder.joinpath(name).read_text(encoding="utf-8")
    names = [r["alert"] for g in _rules()["groups"] for r in g["rules"]]
    assert tuple(names) == monitoring.ALERTS


def test_an_unknown_file_name_is_refused_with_the_known_ones():
    expected = (
        "'rules.yml' is not a faucet monitoring file: use faucet-alerts.rules.yml or "
        "faucet-dashboard.json"
    )
    with pytest.raises(ValueError, match="is not a faucet monitoring file") as info:
        monitoring.read("rules.yml")
    assert str(info.value) == expected


def test_the_files_are_built_into_the_package(tmp_path):
    # The same package-data step the wheel runs (setuptools build_py), on a copy of the tree.
    # The files belong to the engine's own distribution (faucet-core/ in the repository).
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / "faucet-core" / name, src / name)
    shutil.copytree(
        ROOT / "faucet-core" / "faucet_core",
        src / "faucet_core",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    out = tmp_path / "build"
    subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
         "--build-lib", str(out)],
        cwd=src, check=True, capture_output=True,
    )  # fmt: skip
    built = out / "faucet_core" / "monitoring"
    for name in (monitoring.RULES, monitoring.DASHBOARD):
        assert (built / name).read_text() == monitoring.read(name)


def test_every_metric_the_rules_use_is_exported():
    rules = [r for g in _rules()["groups"] for r in g["rules"]]
    used = {m for r in rules for m in METRIC_NAME.findall(r["expr"])}
    assert used == {
        "faucet_profile_drift_total",
        "faucet_check_errors_total",
        "faucet_profile_runs_total",
        "faucet_asset_overdue",
    }
    assert used <= set(METRICS)


def test_promtool_checks_the_rules(tmp_path):
    rules = tmp_path / monitoring.RULES
    rules.write_text(monitoring.read(monitoring.RULES))
    done = subprocess.run(
        [_promtool(), "check", "rules", str(rules)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 4 rules found" in done.stdout


def test_promtool_unit_tests_fire_every_alert(tmp_path):
    (tmp_path / monitoring.RULES).write_text(monitoring.read(monitoring.RULES))
    test_file = tmp_path / "faucet-alerts.test.yml"
    shutil.copy(FIXTURES / "faucet-alerts.test.yml", test_file)
    fired = {
        t["alertname"]
        for case in yaml.safe_load(test_file.read_text())["tests"]
        for t in case["alert_rule_test"]
        if t["exp_alerts"]
    }
    assert fired == set(monitoring.ALERTS)
    done = subprocess.run(
        [_promtool(), "test", "rules", str(test_file)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout


@pytest.mark.parametrize(
    ("good", "bad", "missed"),
    [
        # A drift rule that misses a column's first finding.
        (
            "(faucet_profile_drift_total unless faucet_profile_drift_total offset 15m)",
            "(faucet_profile_drift_total unless faucet_profile_drift_total)",
            "alertname: FaucetProfileDrift, time: 5m",
        ),
        # An overdue rule that reads the wrong gauge value never fires.
        (
            "max by (asset) (faucet_asset_overdue) == 1",
            "max by (asset) (faucet_asset_overdue) == 2",
            "alertname: FaucetAssetOverdue, time: 15m",
        ),
    ],
    ids=["drift", "overdue"],
)
def test_promtool_unit_tests_catch_a_broken_rule(tmp_path, good, bad, missed):
    broken = monitoring.read(monitoring.RULES).replace(good, bad)
    assert broken != monitoring.read(monitoring.RULES)
    (tmp_path / monitoring.RULES).write_text(broken)
    shutil.copy(FIXTURES / "faucet-alerts.test.yml", tmp_path / "t.yml")
    done = subprocess.run(
        [_promtool(), "test", "rules", str(tmp_path / "t.yml")], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert missed in done.stdout + done.stderr


def _panels(dashboard: dict[str, Any]) -> list[dict[str, Any]]:
    return list(dashboard["panels"])


def test_the_dashboard_panels_ask_only_for_exported_metrics():
    dashboard = _dashboard()
    panels = _panels(dashboard)
    assert len({p["id"] for p in panels}) == len(panels)
    used: set[str] = set()
    for panel in panels:
        assert panel["title"]
        assert panel["gridPos"]["w"] > 0
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            names = set(METRIC_NAME.findall(target["expr"]))
            assert names, target["expr"]
            used |= names
    for variable in dashboard["templating"]["list"]:
        if variable["type"] == "query":
            used |= set(METRIC_NAME.findall(variable["definition"]))
    assert used <= set(METRICS), used - set(METRICS)
    assert used == set(METRICS)  # every exported metric has a panel


def test_faucet_metrics_prints_the_shipped_files(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # printing them opens no store
    assert main(["metrics", "--rules"]) == 0
    assert capsys.readouterr().out == monitoring.read(monitoring.RULES)
    assert main(["metrics", "--dashboard"]) == 0
    assert json.loads(capsys.readouterr().out) == _dashboard()
    assert list(tmp_path.iterdir()) == []
