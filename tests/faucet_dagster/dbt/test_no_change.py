"""The merge gate on an unchanged dbt project: planning every seed and model against what
its real runs recorded (dagster-dbt's column metadata: DuckDB's own type spellings) gives
no ``breaking`` and no ``additive`` dataset.

dim_customers has an enforced contract declaring ``data_type: varchar``; the warehouse
reports those columns as ``character varying(256)``: the same type, not a retype."""

from __future__ import annotations

import json
import re

import pytest

from faucet_core.catalog import Catalog
from faucet_core.impact import Severity
from faucet_dagster.cli import main
from faucet_dagster.plan import plan_change_impact
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
    gate = (Severity.BREAKING, Severity.ADDITIVE)
    assert {k: s for k, s in severities.items() if s in gate} == {}
    deltas = {p.asset: p.report.schema_delta for p in change.plans if p.report}
    assert deltas["marts/dim_customers"] == ()


def test_the_gate_passes_on_the_contracted_model(
    recorded: BuiltProject,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FAUCET_STORE_URL", recorded.store_url)
    location = recorded.folder / "faucet_dbt_example" / "definitions.py"
    args = ["plan", "--impact", "-f", str(location), "--select", "marts/dim_customers"]
    code = main([*args, "--json", "--fail-on", "additive"])
    captured = capsys.readouterr()
    # an error prints nothing on stdout: show what the command said instead
    assert captured.out, f"faucet plan exited {code}: {captured.err}"
    impact = json.loads(captured.out)["impact"]
    assert (code, impact["severity"], impact["schema_delta"]) == (0, "none", [])
