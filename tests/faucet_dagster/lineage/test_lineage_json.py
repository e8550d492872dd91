"""Dataset-level column lineage (filters, joins, grouping) and the transformation of every
input, kept from an OpenLineage event through the store to ``faucet catalog show`` (text
and ``--json``), the HTTP API's dataset detail and the impact plan."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from faucet_core.catalog import Catalog, Consumer, DatasetRef, SchemaField
from faucet_core.impact import from_declared, plan_impact
from faucet_dagster.cli import main
from faucet_dagster.location import load_code_location
from faucet_dagster.serve import create_app
from tests.faucet_dagster.plan.test_cli import LOCATION
from tests.faucet_dagster.server.conftest import TABLE, auth, serving

HERE = Path(__file__).parent
EVENT = HERE / "events" / "revenue_by_region.json"
NS = "postgres://warehouse:5432"
MART = DatasetRef(NS, "shop.mart.revenue_by_region")
ORDERS = DatasetRef(NS, "shop.raw.orders")
CUSTOMERS = DatasetRef(NS, "shop.raw.customers")
BLOCKED = DatasetRef(NS, "shop.ref.blocked_customers")


def _input(field: str, kind: str, subtype: str) -> dict[str, Any]:
    return {"field": field, "transformations": [{"type": kind, "subtype": subtype}]}


EXPECTED_LINEAGE = {
    BLOCKED.id: {
        # Join-only: no output column reads it, yet every output depends on it.
        "fields": {},
        "dataset": [_input("customer_id", "INDIRECT", "JOIN")],
    },
    CUSTOMERS.id: {
        "fields": {"region": [_input("country", "DIRECT", "IDENTITY")]},
        "dataset": [
            _input("country", "INDIRECT", "GROUP_BY"),
            _input("id", "INDIRECT", "JOIN"),
        ],
    },
    ORDERS.id: {
        "fields": {"revenue": [_input("amount", "DIRECT", "AGGREGATION")]},
        "dataset": [
            _input("customer_id", "INDIRECT", "JOIN"),
            _input("status", "INDIRECT", "FILTER"),
        ],
    },
}


def _faucet(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


@pytest.fixture
def store(sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys) -> str:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FAUCET_STORE_URL", sqlite_url)
    code, out = _faucet(capsys, "lineage", "ingest", str(EVENT))
    assert (code, out.split(":")[-1]) == (
        0,
        " 2 COMPLETE, 2 run(s), 4 dataset(s) (4 new), 3 edge(s) written\n",
    )
    return sqlite_url


def _upstream(detail: dict[str, Any]) -> dict[str, Any]:
    return {e["source"]["id"]: e["column_lineage"] for e in detail["upstream"]}


def test_show_json_keeps_dataset_inputs_and_transformations(store: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out = _faucet(capsys, "catalog", "show", MART.id, "--json")
    assert code == 0
    assert _upstream(json.loads(out)) == EXPECTED_LINEAGE
    # Seen from the source, the same edge says the same.
    code, out = _faucet(capsys, "catalog", "show", BLOCKED.uri, "--json")
    [edge] = json.loads(out)["downstream"]
    assert edge["column_lineage"] == EXPECTED_LINEAGE[BLOCKED.id]


def test_show_text_names_the_transformations(store: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out = _faucet(capsys, "catalog", "show", MART.id)
    assert code == 0
    expected = HERE / "expected" / "show_revenue_by_region.txt"
    if os.environ.get("FAUCET_REGENERATE_FIXTURES") == "1":
        expected.write_text(out)
    assert out == expected.read_text()


def test_the_api_dataset_detail_carries_the_same_lineage(store: str) -> None:
    location = load_code_location(file=LOCATION)
    with serving(create_app(location, TABLE, store)) as url:
        response = httpx.get(f"{url}/v1/catalog/datasets/{MART.id}", headers=auth("viewer"))
    assert response.status_code == 200
    assert _upstream(response.json()) == EXPECTED_LINEAGE


def test_impact_of_a_join_key_reaches_every_column_through_the_json(store: str) -> None:
    with Catalog(store) as catalog:
        catalog.annotate(
            MART.uri, consumers=[Consumer("revenue-dashboard", "dashboard", "#bi", ("revenue",))]
        )
        # The join key changes type; no output column reads it directly.
        planned = from_declared((SchemaField("customer_id", "VARCHAR"),))
        report = plan_impact(catalog, BLOCKED.uri, planned).to_dict()["impact"]
    assert report["severity"] == "breaking"
    mart = next(a for a in report["affected"] if a["dataset"] == MART.uri)
    assert mart["severity"] == "breaking"
    assert mart["reads"] == [
        {
            "column": "*",
            "reads": ["customer_id"],
            "because": ["customer_id retyped INTEGER -> VARCHAR"],
        }
    ]
    assert [(c["name"], c["columns"]) for c in mart["consumers"]] == [
        ("revenue-dashboard", ["revenue"])
    ]
