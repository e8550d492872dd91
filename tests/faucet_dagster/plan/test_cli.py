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


# -- change sets, markdown, typed samples (issue 13) --------------------------------------
def _record_untyped(url: str) -> None:
    """A run of ``untyped`` (it declares nothing: its planned schema is unknown)."""
    with Catalog(url) as catalog:
        catalog.record(
            [
                RunRecord(
                    job=JobRef("dagster", "untyped"),
                    run_id="dagster-run-2",
                    state=RunState.COMPLETE,
                    event_time=T0 + dt.timedelta(hours=3),
                    source="dagster",
                    inputs=(Observation(CUSTOMERS),),
                    outputs=(
                        Observation(
                            DatasetRef("dagster", "untyped"),
                            schema=(SchemaField("n", "integer"),),
                        ),
                    ),
                ),
            ]
        )


def test_markdown_comment_for_one_asset(store: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _faucet(
        capsys, "plan", "--impact", "-f", LOCATION, "--select", "customers",
        "--format", "markdown", "--fail-on", "breaking",
    )  # fmt: skip
    assert (code, err) == (EXIT_FAIL_ON, "")
    _expect("customers.md", out)
    assert out.startswith("<!-- faucet-impact -->\n### Change impact: breaking\n")


def test_change_set_from_a_dagster_selection_is_one_report(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _record_untyped(store)
    for fmt, fixture in (("markdown", "change.md"), ("text", "change.txt")):
        code, out, err = _faucet(
            capsys, "plan", "--impact", "-f", LOCATION, "--select", "customers+",
            "--format", fmt, "--fail-on", "breaking",
        )  # fmt: skip
        assert (code, err) == (EXIT_FAIL_ON, "")
        _expect(fixture, out)
    code, out, _ = _faucet(
        capsys, "plan", "--impact", "-f", LOCATION, "--select", "group:crm",
        "--select", "contacts", "--json",
    )  # fmt: skip
    assert code == 0
    change = json.loads(out)["change"]
    _expect("change.json", json.dumps(change, indent=2, sort_keys=True) + "\n")
    assert change["severity"] == "breaking"
    assert change["assets"] == ["contacts", "customers", "untyped"]
    plans = {p["asset"]: p for p in change["plans"]}
    assert plans["contacts"]["skipped"].startswith("dagster://contacts has no recorded run")
    assert plans["customers"]["impact"]["severity"] == "breaking"
    assert plans["untyped"]["impact"]["planned_from"] == "unknown"
    # the same change set through another selection: the same report
    code, again, _ = _faucet(
        capsys, "plan", "--impact", "-f", LOCATION, "--select", "key:customers or key:untyped",
        "--select", "+contacts", "--json",
    )  # fmt: skip
    assert json.loads(again) == json.loads(out)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--select", "customers or"],
            "Error: --select 'customers or': not an asset key or a Dagster asset selection "
            "(Invalid selection string: customers or); give a key (a/b) or a selection such "
            "as 'tag:team=crm', 'group:marts', 'customers+' or 'key:a or key:b'\n",
        ),
        (
            ["--select", "tag:team=nobody"],
            "Error: --select 'tag:team=nobody' selects no asset of the code location; check "
            "the selection (faucet plans assets the location defines)\n",
        ),
        (
            ["--select", "customers+", "--sample", "x.jsonl"],
            "Error: --sample is what one asset would write, but --select names 3 assets "
            "(contacts, customers, untyped); select one asset to plan it with a sample\n",
        ),
        (
            ["--select", "customers", "--json", "--format", "markdown"],
            "Error: --json and --format markdown disagree: give one of them\n",
        ),
    ],
)
def test_bad_selections_are_one_line(
    store: str, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _faucet(capsys, "plan", "--impact", "-f", LOCATION, *argv)
    assert (code, out, err) == (1, "", message)


def test_typed_sample_removal_fails_the_gate_and_a_ragged_csv_is_one_line(
    store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sample = tmp_path / "customers.parquet"  # no email (nor mail): a typed removal
    pq.write_table(
        pa.table({"id": pa.array([1, 2]), "score": pa.array([0.5, 1.0], pa.float32())}), sample
    )
    code, out, _ = _faucet(
        capsys, "plan", "--impact", "-f", LOCATION, "--select", "customers",
        "--sample", str(sample), "--json", "--fail-on", "breaking",
    )  # fmt: skip
    impact = json.loads(out)["impact"]
    assert code == EXIT_FAIL_ON
    assert impact["sample_rule"] == "typed"
    assert [(c["column"], c["change"], c["severity"]) for c in impact["schema_delta"]] == [
        ("email", "removed", "breaking"),
        ("legacy", "removed", "breaking"),
    ]  # id: int64 values fit the integer column: not a retype
    ragged = tmp_path / "customers.csv"
    ragged.write_text("id,score\n1,0.5\n2\n")
    code, out, err = _faucet(
        capsys, "plan", "--impact", "-f", LOCATION, "--select", "customers",
        "--sample", str(ragged),
    )  # fmt: skip
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {ragged}:3: 1 field(s) where the header has 2; every line of a CSV file "
        "needs one field per header column (quote a field that holds a comma)\n"
    )
