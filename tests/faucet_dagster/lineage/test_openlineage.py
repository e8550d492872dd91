"""OpenLineage emission from the sensor on the default SQLite event log, read back from
openlineage-python's file transport."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import dagster as dg
import pytest
from openlineage.client import OpenLineageClient
from openlineage.client.transport.file import FileConfig, FileTransport

from faucet_core.catalog import Catalog
from faucet_core.lineage import ingest, stable_run_id
from faucet_dagster import FaucetResource, build_lineage_sensor
from tests.faucet_dagster.lineage.assets import RAW_URI, checks, orders, raw_orders, report


def _materialize(instance: dg.DagsterInstance, store_url: str) -> dg.ExecuteInProcessResult:
    return dg.materialize(
        [raw_orders, orders, report, *checks],
        instance=instance,
        resources={"faucet": FaucetResource(store_url=store_url)},
    )


def _tick(
    sensor: dg.SensorDefinition,
    instance: dg.DagsterInstance,
    store_url: str,
    cursor: str | None = None,
) -> tuple[str, str | None]:
    resources = {"faucet": FaucetResource(store_url=store_url)}
    defs = dg.Definitions(
        assets=[raw_orders, orders, report],
        asset_checks=checks,
        sensors=[sensor],
        resources=resources,
    )
    with dg.build_sensor_context(
        instance=instance, cursor=cursor, definitions=defs, resources=resources
    ) as ctx:
        data = sensor.evaluate_tick(ctx)
        return str(data.skip_message), data.cursor


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_materializations_and_check_results_are_emitted(
    instance: dg.DagsterInstance, sqlite_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "lineage.jsonl"
    client = OpenLineageClient(transport=FileTransport(FileConfig(str(path), append=True)))
    sensor = build_lineage_sensor(name="faucet_openlineage", openlineage=client, namespace="prod")
    result = _materialize(instance, sqlite_url)
    message, cursor = _tick(sensor, instance, sqlite_url)
    assert message == "recorded 2 materialization(s); emitted 6 OpenLineage event(s)"
    events = _read(path)
    assert [(e["job"]["name"], e["eventType"]) for e in events] == [
        ("orders", "START"),
        ("orders", "COMPLETE"),
        ("report", "START"),
        ("report", "COMPLETE"),
        ("orders:faucet_profile", "START"),
        ("orders:faucet_profile", "COMPLETE"),
    ]
    complete = events[1]
    assert complete["job"]["namespace"] == "prod"
    assert complete["run"]["runId"] == stable_run_id(result.run_id, "orders", "")
    assert complete["run"]["facets"]["parent"]["run"]["runId"] == result.run_id
    assert complete["run"]["facets"]["parent"]["job"]["name"] == "__ephemeral_asset_job__"
    assert [(i["namespace"], i["name"]) for i in complete["inputs"]] == [
        ("postgres", "shop.raw.orders")
    ]
    (out,) = complete["outputs"]
    assert (out["namespace"], out["name"]) == ("dagster", "orders")
    assert [f["name"] for f in out["facets"]["schema"]["fields"]] == ["id", "total"]
    assert out["facets"]["ownership"]["owners"] == [{"name": "team:sales"}]
    fields = out["facets"]["columnLineage"]["fields"]
    assert {k: [i["field"] for i in v["inputFields"]] for k, v in fields.items()} == {
        "id": ["order_id"],
        "total": ["amount", "discount"],
    }
    assert "columnLineage" not in events[3]["outputs"][0]["facets"]  # report: unknown

    check = events[5]
    facets = check["inputs"][0]["inputFacets"]
    assertions = facets["dataQualityAssertions"]["assertions"]
    assert [(a.get("column"), a["success"], a["severity"]) for a in assertions] == [
        (None, True, "warn"),
        ("id", True, "warn"),
        ("total", True, "warn"),
    ]
    assert assertions[0]["actual"] == "warming"
    assert facets["dataQualityMetrics"]["rowCount"] == 50
    assert facets["dataQualityMetrics"]["columnMetrics"]["total"]["max"] == 49.0

    # a second tick emits nothing new; the emitted events ingest back into the same edges
    again, _ = _tick(sensor, instance, sqlite_url, cursor)
    assert again == "recorded 0 materialization(s); emitted 0 OpenLineage event(s)"
    with Catalog(f"sqlite:///{tmp_path / 'other.db'}") as other:
        ingest(other, [path])
        (edge,) = other.detail("dagster://orders").upstream
        assert edge.source_uri == RAW_URI
        assert edge.column_lineage is not None
        assert edge.column_lineage.as_map() == {"id": ["order_id"], "total": ["amount", "discount"]}


def test_the_configured_transport_is_used_by_default(
    instance: dg.DagsterInstance, sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "configured.jsonl"
    monkeypatch.setenv("OPENLINEAGE__TRANSPORT__TYPE", "file")
    monkeypatch.setenv("OPENLINEAGE__TRANSPORT__LOG_FILE_PATH", str(path))
    monkeypatch.setenv("OPENLINEAGE__TRANSPORT__APPEND", "true")
    _materialize(instance, sqlite_url)
    message, _ = _tick(
        build_lineage_sensor(name="faucet_openlineage", openlineage=True), instance, sqlite_url
    )
    assert message == "recorded 2 materialization(s); emitted 6 OpenLineage event(s)"
    assert len(_read(path)) == 6
