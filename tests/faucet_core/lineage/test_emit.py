"""Building RunEvents from faucet's models, emitting them through openlineage-python's file
transport, and reading them back: emission and ingest use the same derivation."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from openlineage.client import OpenLineageClient
from openlineage.client.serde import Serde
from openlineage.client.transport.file import FileConfig, FileTransport

from faucet_core.catalog import (
    Catalog,
    DatasetRef,
    FieldRef,
    JobRef,
    Observation,
    RunState,
    SchemaField,
)
from faucet_core.lineage import (
    AssertionResult,
    JobKind,
    default_client,
    emit,
    ingest,
    parse_event,
    run_event,
    stable_run_id,
)
from tests.faucet_core.store.helpers import day

SRC = DatasetRef("s3://lake", "raw/orders")
DST = DatasetRef("dagster", "orders")
WHEN = dt.datetime(2026, 1, 1, 12, tzinfo=dt.timezone.utc)
DAGSTER_RUN = "5b0ba3c4-7e2a-4f43-9a5b-5a1e0f3e9c11"


def _event(**extra: object) -> object:
    return run_event(
        state=RunState.COMPLETE,
        job=JobRef("dagster", "orders"),
        run_id=stable_run_id(DAGSTER_RUN, "orders"),
        event_time=WHEN,
        inputs=[Observation(SRC, schema=(SchemaField("amount", "number"),))],
        outputs=[
            Observation(
                DST,
                schema=(SchemaField("total", "number"),),
                owners=("team:sales",),
                column_lineage={"total": (FieldRef(SRC, "amount", ("DIRECT/AGGREGATION",)),)},
                dataset_lineage=(FieldRef(SRC, "status", ("INDIRECT/FILTER",)),),
            )
        ],
        parent=(JobRef("dagster", "__ASSET_JOB"), DAGSTER_RUN),
        kind=JobKind("DAGSTER", "ASSET"),
        **extra,  # type: ignore[arg-type]
    )


def test_an_emitted_event_reads_back_as_what_was_built() -> None:
    data = json.loads(Serde.to_json(_event()))
    assert data["eventType"] == "COMPLETE"
    assert data["eventTime"] == "2026-01-01T12:00:00Z"
    assert data["run"]["facets"]["parent"]["run"]["runId"] == DAGSTER_RUN
    assert data["job"]["facets"]["jobType"]["integration"] == "DAGSTER"
    lineage = data["outputs"][0]["facets"]["columnLineage"]
    assert lineage["fields"]["total"]["inputFields"][0] == {
        "namespace": "s3://lake",
        "name": "raw/orders",
        "field": "amount",
        "transformations": [{"type": "DIRECT", "subtype": "AGGREGATION"}],
    }
    record = parse_event(data)
    (out,) = record.outputs
    assert out.column_lineage == {"total": (FieldRef(SRC, "amount", ("DIRECT/AGGREGATION",)),)}
    assert out.dataset_lineage == (FieldRef(SRC, "status", ("INDIRECT/FILTER",)),)
    assert (out.owners, out.schema) == (("team:sales",), (SchemaField("total", "number"),))


def test_stable_run_ids_are_uuids_derived_from_their_parts() -> None:
    assert stable_run_id("r", "orders") == stable_run_id("r", "orders")
    assert stable_run_id("r", "orders") != stable_run_id("r", "order", "s")
    assert len(stable_run_id("r")) == 36


def test_assertions_and_metrics_are_input_facets() -> None:
    prof = day(1, rows=200, null_share=0.1)
    event = run_event(
        state=RunState.COMPLETE,
        job=JobRef("dagster", "orders:faucet_profile"),
        run_id=stable_run_id("x"),
        event_time=WHEN,
        inputs=[Observation(DST)],
        assertions={DST.id: [AssertionResult("faucet_profile_drift", False, column="amount")]},
        metrics={DST.id: prof},
    )
    facets = json.loads(Serde.to_json(event))["inputs"][0]["inputFacets"]
    assert facets["dataQualityAssertions"]["assertions"] == [
        {"assertion": "faucet_profile_drift", "success": False, "column": "amount", "params": {}}
    ]
    metrics = facets["dataQualityMetrics"]
    assert metrics["rowCount"] == 200
    amount = metrics["columnMetrics"]["amount"]
    assert amount["nullCount"] == round(prof.columns["amount"].null_rate * 200)
    assert amount["min"] >= 10
    assert set(amount["quantiles"]) == {"0.5", "0.95"}
    assert "min" not in metrics["columnMetrics"]["region"]


def test_the_file_transport_writes_what_ingest_reads(tmp_path: Path, sqlite_url: str) -> None:
    path = tmp_path / "events.jsonl"
    client = OpenLineageClient(transport=FileTransport(FileConfig(str(path), append=True)))
    assert emit(client, [_event(), _event()]) == 2
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    with Catalog(sqlite_url) as catalog:
        ingest(catalog, [path])
        (edge,) = catalog.edges(sinks=[DST.id])
        assert edge.column_lineage is not None
        assert edge.column_lineage.as_map() == {"total": ["amount"]}


def test_the_default_client_uses_the_configured_transport(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "configured.jsonl"
    monkeypatch.setenv("OPENLINEAGE__TRANSPORT__TYPE", "file")
    monkeypatch.setenv("OPENLINEAGE__TRANSPORT__LOG_FILE_PATH", str(path))
    monkeypatch.setenv("OPENLINEAGE__TRANSPORT__APPEND", "true")
    emit(default_client(), [_event()])
    assert json.loads(path.read_text())["job"]["name"] == "orders"
