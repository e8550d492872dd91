"""Impact through dbt: dropping a column of a staging model, planned against what the real
runs recorded (dagster-dbt's column lineage on every SQL model's materialization)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from faucet_core.impact import ImpactReport, ImpactSeverity
from faucet_dagster.cli import main
from faucet_dagster.plan.impact import plan_change_impact
from tests.faucet_dagster.dbt.project import BuiltProject, copy_example, dbt_on_path, example_module

STG = "duckdb://warehouse.staging.stg_customers"
DIM = "duckdb://warehouse.marts.dim_customers"
FCT = "duckdb://warehouse.marts.fct_orders"
SEGMENTS = "duckdb://warehouse.marts.customer_segments"


@dataclass(frozen=True)
class Changed:
    """A second copy of the project whose stg_customers no longer selects ``email``."""

    folder: Path
    defs: Any


def _drop_email(folder: Path) -> None:
    sql = folder / "models" / "staging" / "stg_customers.sql"
    sql.write_text(sql.read_text().replace("    lower(email) as email,\n", ""))
    yml = folder / "models" / "staging" / "staging.yml"
    text = yml.read_text()
    cut = "      - name: email\n        description: Contact address, lower case.\n"
    assert cut in text
    yml.write_text(text.replace(cut, "", 1))


@pytest.fixture(scope="module")
def changed(built: BuiltProject, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Changed]:
    assert re.match(r"recorded \d+ materialization\(s\)", built.record_lineage())
    folder = copy_example(tmp_path_factory.mktemp("dbt-changed") / "dbt_example")
    _drop_email(folder)
    with dbt_on_path(folder):
        example = example_module()
        project = example.prepare(folder)  # dbt parse of the changed project
        yield Changed(folder, example.build_defs(project, store_url=built.store_url))


@pytest.fixture(scope="module")
def report(built: BuiltProject, changed: Changed) -> ImpactReport:
    with built.catalog() as catalog:
        change = plan_change_impact(catalog, changed.defs, ["staging/stg_customers"])
    (plan,) = change.plans
    assert plan.report is not None
    return plan.report


def _affected(report: ImpactReport) -> dict[str, Any]:
    return {a.dataset: a for a in report.affected}


def test_the_dropped_column_is_the_delta(report: ImpactReport) -> None:
    assert report.severity is ImpactSeverity.BREAKING
    assert [(c.column, c.change.value) for c in report.schema_delta] == [("email", "removed")]


def test_it_reaches_the_mart_column_the_contract_and_the_exposure(report: ImpactReport) -> None:
    dim = _affected(report)[DIM]
    assert dim.severity is ImpactSeverity.BREAKING
    assert [r.column for r in dim.reads] == ["email"]
    (contract,) = dim.contracts
    assert re.fullmatch(r"[0-9a-f]{12}", contract.version)  # dbt's contract checksum
    assert "email" in contract.columns
    assert contract.affected == ("email",)
    (consumer,) = dim.consumers
    assert (consumer.name, consumer.kind, consumer.contact) == (
        "crm_dashboard",
        "dashboard",
        "CRM analytics <crm-analytics@example.com>",
    )


def test_the_owners_to_notify_come_from_the_dbt_meta(report: ImpactReport) -> None:
    # dbt_project.yml: meta.dagster.owners of staging and marts (dagster-dbt's owners)
    assert sorted(report.owners) == ["analytics@example.com", "team:data-platform"]


def test_a_model_that_reads_other_columns_is_not_affected(report: ImpactReport) -> None:
    # fct_orders joins stg_customers for country only: its lineage says email never reaches it
    assert FCT not in _affected(report)


def test_the_python_model_is_an_opaque_edge(report: ImpactReport) -> None:
    segments = _affected(report)[SEGMENTS]
    assert segments.severity is ImpactSeverity.UNKNOWN
    assert segments.opaque_edge is True


def test_faucet_plan_on_the_example_code_location(
    built: BuiltProject,
    changed: Changed,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FAUCET_STORE_URL", built.store_url)
    location = changed.folder / "faucet_dbt_example" / "definitions.py"
    code = main(
        [
            "plan",
            "--impact",
            "-f",
            str(location),
            "--select",
            "staging/stg_customers",
            "--format",
            "json",
            "--fail-on",
            "breaking",
        ]
    )
    assert code == 3  # --fail-on breaking
    impact = json.loads(capsys.readouterr().out)["impact"]
    severities = {a["dataset"]: a["severity"] for a in impact["affected"]}
    assert severities == {
        STG: "breaking",
        DIM: "breaking",
        SEGMENTS: "unknown",
    }
    (dim,) = [a for a in impact["affected"] if a["dataset"] == DIM]
    assert [c["name"] for c in dim["consumers"]] == ["crm_dashboard"]
