"""``faucet plan --impact`` on a real code location and a real catalog mixing Dagster
assets and datasets known only from OpenLineage; expected outputs in ``expected/``
(FAUCET_REGENERATE_FIXTURES=1 rewrites them)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest

from faucet_core.catalog import (
    Catalog,
    Consumer,
    DatasetRef,
    FieldRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
    SchemaField,
)
from faucet_dagster.cli import main
from faucet_dagster.cli.plan import EXIT_FAIL_ON

HERE = Path(__file__).parent
EXPECTED = HERE / "expected"
LOCATION = str(HERE / "location.py")
CUSTOMERS = DatasetRef("dagster", "customers")
CRM = DatasetRef("s3://lake", "crm/customers.parquet")  # known from OpenLineage only
MART = DatasetRef("bigquery", "mart.customers")
T0 = dt.datetime(2026, 3, 1, tzinfo=dt.timezone.utc)


def _expect(name: str, text: str) -> None:
    text = text.replace(LOCATION, "LOCATION")  # the checkout's folder differs between runs
    path = EXPECTED / name
    if os.environ.get("FAUCET_REGENERATE_FIXTURES") == "1":
        path.write_text(text)
    assert text == path.read_text()


def _record(url: str) -> None:
    cols = ("id:integer", "email:string", "legacy:string", "score:float32")
    with Catalog(url) as catalog:
        catalog.record(
            [
                RunRecord(
                    job=JobRef("dagster", "customers"),
                    run_id="dagster-run-1",
                    state=RunState.COMPLETE,
                    event_time=T0,
                    source="dagster",
                    outputs=(
                        Observation(
                            CUSTOMERS,
                            schema=tuple(SchemaField(*c.split(":")) for c in cols),
                            owners=("team:crm",),
                        ),
                    ),
                ),
                RunRecord(  # an Airflow job that copies customers to the lake (OpenLineage)
                    job=JobRef("airflow", "export_crm"),
                    run_id="ol-run-1",
                    state=RunState.COMPLETE,
                    event_time=T0 + dt.timedelta(hours=1),
                    inputs=(Observation(CUSTOMERS),),
                    outputs=(
                        Observation(
                            CRM,
                            owners=("team:lake",),
                            column_lineage={
                                "customer_id": (FieldRef(CUSTOMERS, "id"),),
                                "email": (FieldRef(CUSTOMERS, "email"),),
                            },
                        ),
                    ),
                ),
                RunRecord(  # then an opaque SQL step into the mart
                    job=JobRef("airflow", "mart"),
                    run_id="ol-run-2",
                    state=RunState.COMPLETE,
                    event_time=T0 + dt.timedelta(hours=2),
                    inputs=(Observation(CRM),),
                    outputs=(Observation(MART, owners=("team:bi",)),),
                ),
            ]
        )
        catalog.annotate(
            CRM.uri,
            consumers=[
                Consumer("crm-sync", "export", "#crm", ("email",)),
                Consumer("lake-audit", "job", "#lake"),
                Consumer("ids-only", "model", "", ("customer_id",)),
            ],
        )


@pytest.fixture
def store(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("FAUCET_STORE_URL", sqlite_url)
    _record(sqlite_url)
    return sqlite_url


def _faucet(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_declared_schema_rename_reaches_dagster_and_openlineage_datasets(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _faucet(capsys, "plan", "--impact", "-f", LOCATION, "--select", "customers")
    assert (code, err) == (0, "")
    _expect("customers.txt", out)


def test_json_and_fail_on_breaking(store: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _faucet(
        capsys,
        "plan", "--impact", "-f", LOCATION, "--select", "customers", "--json",
        "--fail-on", "breaking",
    )  # fmt: skip
    assert code == EXIT_FAIL_ON
    impact = json.loads(out)["impact"]
    _expect("customers.json", json.dumps(impact, indent=2, sort_keys=True) + "\n")
    assert impact["severity"] == "breaking"
    assert impact["planned_from"] == "declared"
    assert {(c["column"], c["change"], c["severity"]) for c in impact["schema_delta"]} == {
        ("email", "renamed", "breaking"),
        ("legacy", "removed", "breaking"),
        ("score", "retyped", "additive"),
        ("id", "retyped", "breaking"),  # integer -> int64 narrows JSON's unbounded integer
    }
    affected = {a["dataset"]: a for a in impact["affected"]}
    assert affected["dagster://contacts"]["severity"] == "breaking"  # Dagster-only edge
    assert affected["dagster://untyped"]["severity"] == "unknown"  # no column lineage
    assert affected[MART.uri]["severity"] == "unknown"  # opaque OpenLineage step
    assert [c["name"] for c in affected[CRM.uri]["consumers"]] == [
        "crm-sync",
        "ids-only",
        "lake-audit",
    ]


def test_sample_planned_schema(
    store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "customers.jsonl"
    sample.write_text('{"id": 1, "email": "a@x", "score": 0.5}\n{"id": 2, "score": 1}\n')
    code, out, _ = _faucet(
        capsys, "plan", "--impact", "-f", LOCATION, "--select", "customers",
        "--sample", str(sample), "--json", "--fail-on", "breaking",
    )  # fmt: skip
    impact = json.loads(out)["impact"]
    assert impact["planned_from"] == "sample"
    assert [(c["column"], c["change"]) for c in impact["schema_delta"]] == [
        ("email", "retyped"),  # string -> string|null: widening
        ("legacy", "removed"),  # declared in faucet/drops
    ]  # score: 0.5 and 1 fit float32, the type it has: not a retype (like with like)
    assert impact["sample_rule"] == "untyped"
    assert code == EXIT_FAIL_ON


def test_depth_zero_and_unknown_plan(store: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _faucet(
        capsys, "plan", "--impact", "-f", LOCATION, "--select", "customers", "--depth", "0"
    )
    assert code == 0
    assert "the walk stopped at depth 0" in out


def test_never_ran_and_unknown_asset_exit_non_zero(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _faucet(capsys, "plan", "--impact", "-f", LOCATION, "--select", "contacts")
    assert (code, out) == (1, "")
    assert err.startswith("Error: dagster://contacts: no recorded run")
    code, _, err = _faucet(capsys, "plan", "--impact", "-f", LOCATION, "--select", "nope")
    assert code == 1
    assert err == (
        "Error: --select 'nope': no such asset in the code location; its assets are: "
        "contacts, customers, raw, untyped\n"
    )
