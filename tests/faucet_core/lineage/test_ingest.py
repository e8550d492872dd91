"""Ingesting OpenLineage event files into the catalog (SQLite and PostgreSQL)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from faucet_core.catalog import Catalog, DatasetRef, JobRef, RunState
from faucet_core.errors import LineageError
from faucet_core.lineage import EventsRejected, ingest
from tests.faucet_core.lineage.helpers import EVENTS, PG

MART = DatasetRef(PG, "shop.mart.orders")
ORDERS = DatasetRef(PG, "shop.raw.orders")
CUSTOMERS = DatasetRef(PG, "shop.raw.customers")


@pytest.fixture
def catalog(store_url: str):  # type: ignore[no-untyped-def]
    with Catalog(store_url) as cat:
        yield cat


def test_airflow_events_write_edges_schema_owners_and_runs(catalog: Catalog) -> None:
    result = ingest(catalog, [EVENTS / "airflow_etl.jsonl"])
    s = result.summary
    assert (s.events, s.complete, s.runs, s.edges) == (5, 1, 3, 2)
    detail = catalog.detail(MART.uri)
    assert detail.dataset.owners == ("team:analytics",)
    assert [f.name for f in detail.dataset.schema or ()] == ["id", "contact", "total", "region"]
    by_source = {e.source_uri: e.column_lineage for e in detail.upstream}
    orders, customers = by_source[ORDERS.uri], by_source[CUSTOMERS.uri]
    assert orders is not None
    assert customers is not None
    assert orders.as_map() == {"contact": ["email"], "id": ["id"], "total": ["amount"]}
    assert [i.field for i in orders.dataset] == ["status"]
    assert customers.as_map() == {"region": ["country"]}
    assert [i.field for i in customers.dataset] == ["id"]
    # the FAIL and ABORT runs are recorded, but write no edge
    assert [(e.job, e.sink_uri) for e in detail.downstream] == []
    runs = {(r.job.name, r.state) for r in detail.runs}
    assert runs == {
        ("etl.load_orders", RunState.COMPLETE),
        ("etl.export", RunState.FAIL),
        ("etl.cleanup", RunState.ABORT),
    }
    assert catalog.dataset(ORDERS.id).schema is not None


def test_a_folder_a_json_array_and_concatenated_pretty_events(
    catalog: Catalog, tmp_path: Path
) -> None:
    folder = tmp_path / "export"
    (folder / "nested").mkdir(parents=True)
    shutil.copy(EVENTS / "spark_array.json", folder / "a.json")
    shutil.copy(EVENTS / "static.json", folder / "nested" / "b.json")
    (folder / "notes.txt").write_text("not an event file")
    result = ingest(catalog, [folder])
    assert result.sources == (str(folder / "a.json"), str(folder / "nested" / "b.json"))
    assert result.summary.events == 4
    lake = "s3://lake"
    totals = catalog.detail(f"{lake}/mart/daily_totals")
    (up,) = totals.upstream
    assert up.column_lineage is not None
    assert up.column_lineage.as_map() == {"day": ["day"], "total": ["amount"]}
    assert [i.kinds for i in up.column_lineage.fields["day"]] == [("DIRECT/IDENTITY",)]
    sinks = sorted((e.sink_uri, str(e.job), e.run_id) for e in totals.downstream)
    assert sinks == [
        (f"{lake}/mart/finance", "dbt/marts.finance", None),  # a JobEvent: static lineage
        (f"{lake}/report/weekly", "spark/report", "01941f2a-0000-7000-8000-000000000002"),
    ]
    raw = catalog.dataset(f"{lake}/raw/orders")  # the DatasetEvent came last: its schema wins
    assert raw.owners == ("team:ingest",)
    assert [f.name for f in raw.schema or ()] == ["amount", "day", "currency"]


def test_standard_input(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO((EVENTS / "airflow_etl.jsonl").read_text()))
    result = ingest(catalog, ["-"])
    assert (result.sources, result.summary.events) == (("<stdin>",), 5)


def test_malformed_events_are_listed_with_index_and_reason_and_nothing_is_written(
    catalog: Catalog,
) -> None:
    source = EVENTS / "malformed.jsonl"
    with pytest.raises(EventsRejected) as err:
        ingest(catalog, [EVENTS / "airflow_etl.jsonl", source])
    assert str(err.value) == (
        "rejected 4 of 11 event(s); nothing was written:\n"
        f"  event 1 ({source} line 2): eventType 'DONE' is not one of START, RUNNING, COMPLETE, "
        "ABORT, FAIL, OTHER\n"
        f"  event 2 ({source} line 3): run.runId is missing\n"
        f"  event 3 ({source} line 5): outputs[0].facets.columnLineage.fields.total.inputFields[0]"
        ".transformations[0].type 'COPY' is not DIRECT or INDIRECT\n"
        f"  event 4 ({source} line 6): invalid JSON: Expecting value (line 6 column 46)"
    )
    assert [r.index for r in err.value.rejections] == [1, 2, 3, 4]
    assert catalog.counts()["datasets"] == catalog.counts()["runs"] == 0


def test_more_than_twenty_rejections_are_summarised(catalog: Catalog, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("42\n" * 25)
    with pytest.raises(EventsRejected) as err:
        ingest(catalog, [bad])
    lines = str(err.value).splitlines()
    assert lines[0] == "rejected 25 of 25 event(s); nothing was written:"
    assert lines[-1] == "  ... and 5 more"
    assert len(lines) == 22


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing.jsonl", "{path}: no such file or folder"),
        ("empty-dir", "{path} holds no event files"),
    ],
    ids=["missing", "empty-dir"],
)
def test_bad_sources(catalog: Catalog, tmp_path: Path, name: str, message: str) -> None:
    path = tmp_path / name
    if name == "empty-dir":
        path.mkdir()
    with pytest.raises(LineageError) as err:
        ingest(catalog, [path])
    assert str(err.value).startswith(message.format(path=path))


def test_ingesting_again_is_idempotent(catalog: Catalog) -> None:
    ingest(catalog, [EVENTS / "airflow_etl.jsonl"])
    before = catalog.counts()
    ingest(catalog, [EVENTS / "airflow_etl.jsonl"])
    assert catalog.counts() == before
    job = JobRef("airflow", "etl.load_orders")
    assert {str(e.job) for e in catalog.edges(sinks=[MART.id])} == {str(job)}
