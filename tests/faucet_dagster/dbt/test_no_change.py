"""The merge gate on an unchanged dbt project: planning every seed and model against what
its real runs recorded (dagster-dbt's column metadata: DuckDB's own type spellings) gives
no ``breaking`` and no ``additive`` dataset.

dim_customers has an enforced contract declaring ``data_type: varchar``; the warehouse
reports those columns as ``character varying(256)``: the same type, not a retype."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from faucet_core.catalog import Catalog
from faucet_core.impact import ImpactSeverity
from faucet_dagster.cli import main
from faucet_dagster.plan.impact import plan_change_impact
from tests.faucet_dagster.dbt.project import BuiltProject

DIM = "duckdb://warehouse.marts.dim_customers"


@pytest.fixture(scope="module")
def recorded(built: BuiltProject) -> BuiltProject:
    assert re.match(r"recorded \d+ materialization\(s\)", built.record_lineage())
    return built


def test_the_contract_spells_varchar_and_the_warehouse_character_varying(
    recorded: BuiltProject,
) -> None:
    with Catalog(recorded.store_url) as catalog:
        observed = {f.name: f.type for f in catalog.dataset(DIM).schema or ()}
    assert observed["email"] == "character varying(256)"  # what the test is about


def test_no_asset_of_the_unchanged_project_plans_a_break_or_an_addition(
    recorded: BuiltProject,
) -> None:
    with Catalog(recorded.store_url) as catalog:
        change = plan_change_impact(catalog, recorded.defs, ["*"])
    severities = {
        (plan.asset, a.dataset): a.severity
        for plan in change.plans
        for a in (plan.report.affected if plan.report else ())
    }
    assert len(change.plans) == 12
    gate = (ImpactSeverity.BREAKING, ImpactSeverity.ADDITIVE)
    assert {k: s for k, s in severities.items() if s in gate} == {}
    deltas = {p.asset: p.report.schema_delta for p in change.plans if p.report}
    assert deltas["marts/dim_customers"] == ()


def _gate(recorded: BuiltProject, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``faucet plan --impact`` of dim_customers, in process: its exit code and stdout."""
    location = recorded.folder / "faucet_dbt_example" / "definitions.py"
    args = ["plan", "--impact", "-f", str(location), "--select", "marts/dim_customers"]
    code = main([*args, "--json", "--fail-on", "additive"])
    captured = capsys.readouterr()
    # an error prints nothing on stdout: show what the command said instead
    assert captured.out, f"faucet plan exited {code}: {captured.err}"
    return code, captured.out


def test_the_gate_passes_on_the_contracted_model(
    recorded: BuiltProject,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FAUCET_STORE_URL", recorded.store_url)
    code, out = _gate(recorded, capsys)
    impact = json.loads(out)["impact"]
    assert (code, impact["severity"], impact["schema_delta"]) == (0, "none", [])


@pytest.mark.parametrize("where", ["project", "on_sys_path"])
def test_the_gate_loads_its_file_with_the_package_first_on_sys_path_from_any_folder(
    recorded: BuiltProject,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    where: str,
) -> None:
    """The state a CI run failed in: the example's package not imported yet (another test
    module's fixture had dropped it from sys.modules), importable only through the entry at
    sys.path[0], and the working directory the project folder or a folder further down
    sys.path (the repository, which pytest puts there): dagster-dbt's column-metadata
    threads each ``pushd`` the project folder, so a build leaves the process in one or the
    other at random. Dagster's file loader drops sys.path[0] while it imports (a console
    script's folder, in a CLI): faucet must not lose the caller's entry to it."""
    monkeypatch.setenv("FAUCET_STORE_URL", recorded.store_url)
    folder = str(recorded.folder)
    rest = [p for p in sys.path if p != folder]
    if where == "project":
        monkeypatch.chdir(folder)
    else:
        monkeypatch.chdir(tmp_path)
        rest.insert(0, str(tmp_path))
    monkeypatch.setattr(sys, "path", [folder, *rest])  # the package: through sys.path[0] only
    for name in [m for m in sys.modules if m.split(".")[0] == "faucet_dbt_example"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delitem(sys.modules, "definitions", raising=False)  # Dagster's name for -f
    code, out = _gate(recorded, capsys)
    assert (code, json.loads(out)["impact"]["severity"]) == (0, "none")
