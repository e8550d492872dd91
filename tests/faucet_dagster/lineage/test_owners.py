"""Annotated owners survive ``faucet catalog sync`` and materializations (a real Dagster
instance), are shown with their source in the text, the JSON and the API, and the impact
plan notifies the union."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import httpx
import pytest

from faucet_core.catalog import Catalog, DatasetRef, SchemaField
from faucet_core.impact import from_declared, plan_impact
from faucet_dagster.cli import main
from faucet_dagster.location import load_code_location
from faucet_dagster.serve import create_app
from tests.faucet_dagster.lineage.test_record import _run
from tests.faucet_dagster.server.conftest import TABLE, auth, serving

LOCATION = str(Path(__file__).parent / "location.py")
ORDERS = DatasetRef("dagster", "orders")
REPORT = DatasetRef("dagster", "report")
LABELLED = [
    {"name": "team:sales", "sources": ["code"]},
    {"name": "team-b", "sources": ["annotation"]},
    {"name": "team-c", "sources": ["annotation"]},
]


def _faucet(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out


def _sync(capsys: pytest.CaptureFixture[str], store: str) -> None:
    # --store: the location file reads FAUCET_STORE_URL once, when Dagster first imports it.
    _faucet(capsys, "catalog", "sync", "-f", LOCATION, "--store", store)


def _owners(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    out = _faucet(capsys, "catalog", "show", ORDERS.uri, "--json")
    return list(json.loads(out)["owner_sources"])


def test_annotated_owners_survive_sync_and_materialization(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FAUCET_STORE_URL", sqlite_url)
    with dg.instance_for_test() as instance:
        assert _run(instance, sqlite_url).success
        capsys.readouterr()  # Dagster's own log of the run
        out = _faucet(
            capsys, "catalog", "annotate", ORDERS.uri, "--owner", "team-b", "--owner", "team-c"
        )
        assert out.splitlines()[1] == (
            "  owners: team:sales (code), team-b (annotation), team-c (annotation)"
        )
        _sync(capsys, sqlite_url)
        assert _owners(capsys) == LABELLED
        assert _run(instance, sqlite_url).success
        capsys.readouterr()  # Dagster's own log of the run
        assert _owners(capsys) == LABELLED
    # The catalog: block of the location (config) joins the report's; nothing replaced.
    report = json.loads(_faucet(capsys, "catalog", "show", REPORT.uri, "--json"))
    assert report["owner_sources"] == [{"name": "team:bi", "sources": ["config"]}]

    text = _faucet(capsys, "catalog", "show", ORDERS.id[:6])
    assert text.splitlines()[1] == (
        "  owners: team:sales (code), team-b (annotation), team-c (annotation)"
    )
    out = _faucet(capsys, "catalog", "annotate", ORDERS.uri, "--remove-owner", "team-c")
    assert out.splitlines()[1] == "  owners: team:sales (code), team-b (annotation)"

    # The API shows the same labels.
    location = load_code_location(file=LOCATION)
    with serving(create_app(location, TABLE, sqlite_url)) as url:
        got = httpx.get(f"{url}/v1/catalog/datasets/{ORDERS.id}", headers=auth("viewer")).json()
    assert (got["owners"], got["owner_sources"]) == (["team:sales", "team-b"], LABELLED[:2])

    # Impact notifies the union of every source's owners.
    with Catalog(sqlite_url) as catalog:
        planned = from_declared((SchemaField("id", "string"), SchemaField("total", "float")))
        impact = plan_impact(catalog, ORDERS.uri, planned)
    assert impact.owners == ("team-b", "team:bi", "team:sales")

    # Clearing drops only the annotated owners.
    out = _faucet(capsys, "catalog", "annotate", ORDERS.uri, "--clear-owners")
    assert out.splitlines()[1] == "  owners: team:sales (code)"


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (
            ["--remove-owner", "team:sales"],
            "Error: owner 'team:sales' of dataset {id} is not an annotated owner: it comes from "
            "code (the Dagster asset's owners=); change it there (annotate edits only the "
            "annotated owners)\n",
        ),
        (
            ["--clear-owners", "--owner", "x"],
            "Error: --clear-owners drops every annotated owner: it cannot be combined with "
            "--owner or --remove-owner\n",
        ),
    ],
    ids=["code-owner", "clear-and-set"],
)
def test_annotate_refuses_to_edit_other_sources(
    sqlite_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    error: str,
) -> None:
    monkeypatch.setenv("FAUCET_STORE_URL", sqlite_url)
    _sync(capsys, sqlite_url)
    assert main(["catalog", "annotate", ORDERS.uri, *argv]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", error.format(id=ORDERS.id))
    assert _owners(capsys) == LABELLED[:1]
