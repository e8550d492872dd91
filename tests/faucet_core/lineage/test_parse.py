"""Parsing one OpenLineage event: what is read, and exact reasons for what is refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from faucet_core.catalog import DatasetRef, FieldRef, JobRef, RunState, SchemaField
from faucet_core.lineage import MalformedEvent, parse_event
from tests.faucet_core.lineage.helpers import PG, complete_event

ORDERS = DatasetRef(PG, "shop.raw.orders")
CUSTOMERS = DatasetRef(PG, "shop.raw.customers")


def test_a_complete_run_event_is_read_with_its_standard_facets() -> None:
    record = parse_event(complete_event())
    assert (record.job, record.state, record.run_id) == (
        JobRef("airflow", "etl.load_orders"),
        RunState.COMPLETE,
        "01941f29-7c00-7087-8e1f-0b5a4b3c2d10",
    )
    assert record.event_time.isoformat() == "2026-01-01T00:05:00+00:00"
    assert [o.dataset for o in record.inputs] == [ORDERS, CUSTOMERS]
    assert record.inputs[0].schema is not None
    assert record.inputs[0].schema[:2] == (
        SchemaField("id", "INTEGER"),
        SchemaField("email", "VARCHAR"),
    )
    (out,) = record.outputs
    assert out.owners == ("team:analytics",)
    assert out.column_lineage is not None
    assert out.column_lineage["contact"] == (FieldRef(ORDERS, "email", ("DIRECT/TRANSFORMATION",)),)
    assert out.column_lineage["region"] == (FieldRef(CUSTOMERS, "country", ("DIRECT/IDENTITY",)),)
    assert out.dataset_lineage == (
        FieldRef(ORDERS, "status", ("INDIRECT/FILTER",)),
        FieldRef(CUSTOMERS, "id", ("INDIRECT/JOIN",)),
    )


def test_a_missing_column_lineage_facet_means_unknown() -> None:
    event = complete_event()
    del event["outputs"][0]["facets"]["columnLineage"]
    assert parse_event(event).outputs[0].column_lineage is None


def test_a_missing_event_type_is_other_and_a_naive_time_is_utc() -> None:
    event = complete_event()
    del event["eventType"]
    event["eventTime"] = "2026-01-01T00:05:00"
    record = parse_event(event)
    assert record.state is RunState.OTHER
    assert record.event_time.isoformat() == "2026-01-01T00:05:00+00:00"


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(event: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = event
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        elif value is KeyError:
            del node[last]
        else:
            node[last] = value

    return edit


TF = "outputs.0.facets.columnLineage.fields.total.inputFields.0.transformations.0"
CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("time-missing", _set("eventTime", KeyError), "eventTime is missing"),
    (
        "time-bad",
        _set("eventTime", "yesterday"),
        "eventTime 'yesterday' is not an ISO 8601 date-time (e.g. 2024-05-01T12:00:00.000Z)",
    ),
    (
        "type-bad",
        _set("eventType", "DONE"),
        "eventType 'DONE' is not one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER",
    ),
    ("type-number", _set("eventType", 3), "eventType must be a string, found number"),
    ("run-id", _set("run.runId", KeyError), "run.runId is missing"),
    ("run-id-empty", _set("run.runId", " "), "run.runId must be a non-empty string, found ' '"),
    ("run-array", _set("run", []), "run must be an object, found array"),
    ("job-missing", _set("job", KeyError), "job is missing"),
    ("job-name", _set("job.name", 42), "job.name must be a non-empty string, found number"),
    ("inputs-object", _set("inputs", {}), "inputs must be an array, found object"),
    ("input-name", _set("inputs.1.name", None), "inputs[1].name is missing"),
    (
        "schema-fields",
        _set("outputs.0.facets.schema.fields", {"id": "INTEGER"}),
        "outputs[0].facets.schema.fields must be an array, found object",
    ),
    (
        "schema-field-name",
        _set("outputs.0.facets.schema.fields.1", {"type": "VARCHAR"}),
        "outputs[0].facets.schema.fields[1].name is missing",
    ),
    (
        "transformation-type",
        _set(f"{TF}.type", "COPY"),
        "outputs[0].facets.columnLineage.fields.total.inputFields[0].transformations[0].type "
        "'COPY' is not DIRECT or INDIRECT",
    ),
    (
        "input-field",
        _set("outputs.0.facets.columnLineage.fields.id.inputFields.0.field", KeyError),
        "outputs[0].facets.columnLineage.fields.id.inputFields[0].field is missing",
    ),
    (
        "lineage-dataset",
        _set("outputs.0.facets.columnLineage.dataset", "status"),
        "outputs[0].facets.columnLineage.dataset must be an array, found string",
    ),
    (
        "owners",
        _set("outputs.0.facets.ownership.owners.0", "team:analytics"),
        "outputs[0].facets.ownership.owners[0] must be an object, found string",
    ),
    (
        "facets-array",
        _set("inputs.0.facets", []),
        "inputs[0].facets must be an object, found array",
    ),
]


@pytest.mark.parametrize(("edit", "reason"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_events_are_refused_with_the_field_and_the_rule(
    edit: Callable[[dict[str, Any]], None], reason: str
) -> None:
    event = complete_event()
    edit(event)
    with pytest.raises(MalformedEvent) as err:
        parse_event(event)
    assert str(err.value) == reason


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ([], "expected a JSON object (an OpenLineage event), found array"),
        ("x", "expected a JSON object (an OpenLineage event), found string"),
    ],
    ids=["array", "string"],
)
def test_not_an_object(value: Any, reason: str) -> None:
    with pytest.raises(MalformedEvent) as err:
        parse_event(value)
    assert str(err.value) == reason


def test_unknown_and_deleted_facets_are_ignored() -> None:
    event = complete_event()
    event["outputs"][0]["facets"]["schema"] = {"_deleted": True}
    event["outputs"][0]["facets"]["brandNew"] = "any shape at all"
    event["run"]["facets"]["weird"] = [1, 2]
    assert parse_event(event).outputs[0].schema is None
