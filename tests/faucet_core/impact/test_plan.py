"""plan_impact over fixture graphs in a real catalog (SQLite and PostgreSQL); the expected
reports are kept in ``expected/`` (FAUCET_REGENERATE_FIXTURES=1 rewrites them)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from faucet_core.catalog import Catalog, SchemaField
from faucet_core.errors import ImpactError
from faucet_core.impact import (
    ImpactReport,
    ImpactSeverity,
    PlannedFrom,
    TypeChange,
    from_declared,
    from_lineage,
    from_sample,
    plan_impact,
    render_text,
    unknown,
)
from tests.faucet_core.impact.graphs import UPSTREAM, A, B, C, D, E, record_graph, schema

EXPECTED = Path(__file__).parent / "expected"
DECLARED = from_declared(
    schema("id:integer", "mail:string", "amount:number", "name:string", "note:string")
)


def expect(name: str, report: ImpactReport) -> None:
    """The report's text and JSON equal the files ``name``.txt / ``name``.json."""
    text = render_text(report) + "\n"
    data = json.dumps(report.to_dict(), indent=2, sort_keys=True) + "\n"
    for suffix, got in ((".txt", text), (".json", data)):
        path = EXPECTED / f"{name}{suffix}"
        if os.environ.get("FAUCET_REGENERATE_FIXTURES") == "1":
            path.write_text(got)
        assert got == path.read_text()


@pytest.fixture
def catalog(store_url: str) -> Iterator[Catalog]:
    with Catalog(store_url) as cat:
        record_graph(cat)
        yield cat


def _by_uri(report: ImpactReport) -> dict[str, object]:
    return {a.dataset: a for a in report.affected}


def test_declared_rename_widening_contract_consumers_opaque(catalog: Catalog) -> None:
    report = plan_impact(catalog, A.uri, DECLARED, renames={"email": "mail"})
    expect("declared_rename", report)
    assert report.severity is ImpactSeverity.BREAKING
    delta = {(c.column, c.change.value, c.severity.value) for c in report.schema_delta}
    assert delta == {
        ("amount", "retyped", "additive"),
        ("email", "renamed", "breaking"),
        ("note", "added", "additive"),
    }
    got = {a.dataset: (a.depth, a.severity) for a in report.affected}
    assert got == {
        A.uri: (0, ImpactSeverity.BREAKING),
        B.uri: (1, ImpactSeverity.BREAKING),
        C.uri: (2, ImpactSeverity.UNKNOWN),
        D.uri: (3, ImpactSeverity.UNKNOWN),
        "file:///data/f.csv": (2, ImpactSeverity.BREAKING),
        "file:///data/g.csv": (3, ImpactSeverity.BREAKING),
    }
    assert E.uri not in got  # reads only `name`, which did not change
    b = next(a for a in report.affected if a.dataset == B.uri)
    assert [(h.version, h.affected) for h in b.contracts] == [("7", ("contact",))]
    assert [c.name for c in b.consumers] == ["contacts-dashboard"]
    assert report.owners == ("team-a", "team-b", "team-c", "team-d")


def test_depth_cut_is_named_in_the_notes(catalog: Catalog) -> None:
    report = plan_impact(catalog, A.uri, DECLARED, renames={"email": "mail"}, depth=1)
    expect("depth_cut", report)
    assert [a.dataset for a in report.affected] == [A.uri, B.uri]
    assert report.notes[-1].startswith("the walk stopped at depth 1: 1 dataset(s) there have 2")


def test_only_additive_changes_do_not_flow(catalog: Catalog) -> None:
    planned = from_declared(
        schema("id:integer", "email:string|null", "amount:number", "name:string", "x:boolean")
    )
    report = plan_impact(catalog, A.uri, planned)
    assert report.severity is ImpactSeverity.ADDITIVE
    assert [a.dataset for a in report.affected] == [A.uri]
    assert [c.name for c in report.affected[0].consumers] == ["raw-export"]


def test_sample_missing_column_is_a_note_unless_declared_dropped(
    catalog: Catalog, tmp_path: Path
) -> None:
    rows = [{"id": 1, "email": "a@x", "amount": 2.5}, {"id": 2, "email": None, "amount": 3}]
    report = plan_impact(catalog, A.uri, from_sample(rows))
    expect("sample", report)
    assert report.planned_from is PlannedFrom.SAMPLE
    assert [(c.column, c.change.value, c.direction) for c in report.schema_delta] == [
        ("amount", "retyped", TypeChange.WIDENING),  # integer -> integer|number
        ("email", "retyped", TypeChange.WIDENING),  # string -> string|null
    ]
    assert report.notes == (
        "name: the sample has no value for it, and the asset does not declare it dropped "
        "(faucet/drops), so it is left out of the delta",
    )
    dropped = plan_impact(catalog, A.uri, from_sample(rows), drops=["name"])
    assert [(c.column, c.change.value) for c in dropped.schema_delta] == [
        ("amount", "retyped"),
        ("email", "retyped"),
        ("name", "removed"),
    ]
    assert E.uri in {a.dataset for a in dropped.affected}


def test_lineage_planned_schema(catalog: Catalog) -> None:
    planned = from_lineage(
        {"id": [(UPSTREAM.uri, "id")], "email": [(UPSTREAM.uri, "email")]},
        {UPSTREAM.uri: (SchemaField("id", "integer"), SchemaField("email", "integer"))},
    )
    report = plan_impact(catalog, A.uri, planned, drops=["amount", "name"])
    assert report.planned_from is PlannedFrom.LINEAGE
    assert (report.schema_delta[0].column, report.schema_delta[0].change.value) == (
        "amount",
        "removed",
    )
    email = next(c for c in report.schema_delta if c.column == "email")
    assert (email.before, email.after, email.severity) == (
        "string",
        "integer",
        ImpactSeverity.BREAKING,
    )


def test_a_column_the_lineage_does_not_mention_is_unknown_not_removed(catalog: Catalog) -> None:
    # a's lineage names id and email; amount and name (an index, a loaded_at) have none
    planned = from_lineage(
        {"id": [(UPSTREAM.uri, "id")], "email": [(UPSTREAM.uri, "email")]},
        {UPSTREAM.uri: (SchemaField("id", "integer"), SchemaField("email", "string"))},
    )
    report = plan_impact(catalog, A.uri, planned)
    assert (report.severity, report.schema_delta, report.affected) == (ImpactSeverity.NONE, (), ())
    assert report.notes == (
        "amount, name: the declared column lineage does not mention them, so what the asset "
        "now writes there is unknown; left out of the delta (declare the column schema, or "
        "the column in dagster/column_lineage, to plan it)",
    )


def test_unknown_planned_schema_is_unknown_never_none(catalog: Catalog) -> None:
    report = plan_impact(catalog, A.uri, unknown())
    expect("unknown", report)
    assert report.severity is ImpactSeverity.UNKNOWN
    assert {a.severity for a in report.affected} == {ImpactSeverity.UNKNOWN}
    assert E.uri in {a.dataset for a in report.affected}


def test_no_recorded_run(catalog: Catalog) -> None:
    with pytest.raises(ImpactError, match=r"^shop: no recorded run"):
        plan_impact(catalog, "shop", DECLARED)
    with pytest.raises(ImpactError, match="no recorded run in the catalog"):
        plan_impact(catalog, UPSTREAM.uri, DECLARED)  # read by a run, never written
