"""The catalog on a SQLite file and on PostgreSQL: edges, column lineage, runs, schemas,
owners, consumers, contracts, profiles, lookups."""

from __future__ import annotations

import pytest

from faucet_core.catalog import (
    Catalog,
    CatalogConfig,
    ColumnInput,
    Consumer,
    Contract,
    DatasetRef,
    FieldRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
)
from faucet_core.errors import CatalogError
from faucet_core.store import SCHEMA_VERSION, ProfileStore
from tests.faucet_core.catalog.builders import JOB_B, A, B, C, at, run, schema
from tests.faucet_core.store.helpers import day


@pytest.fixture
def catalog(store_url: str):  # type: ignore[no-untyped-def]
    with Catalog(store_url) as cat:
        yield cat


def _lineage(cat: Catalog, source: DatasetRef, sink: DatasetRef) -> dict[str, list[str]] | None:
    edges = [e for e in cat.edges(sources=[source.id]) if e.sink_id == sink.id]
    assert len(edges) == 1, edges
    lineage = edges[0].column_lineage
    return None if lineage is None else lineage.as_map()


def test_a_complete_run_writes_an_edge_per_source_with_its_share_of_the_column_lineage(
    catalog: Catalog,
) -> None:
    summary = catalog.record(
        [
            run(
                "r1",
                1,
                inputs=(A, C),
                lineage={"contact": [(A, "email")], "total": [(A, "amount"), (C, "rate")]},
            )
        ]
    )
    assert (summary.events, summary.runs, summary.datasets, summary.edges) == (1, 1, 3, 2)
    assert _lineage(catalog, A, B) == {"contact": ["email"], "total": ["amount"]}
    assert _lineage(catalog, C, B) == {"total": ["rate"]}
    assert [(e.id, e.upstream, e.downstream) for e in catalog.datasets()] == [
        (A.id, 0, 1),
        (B.id, 2, 0),
        (C.id, 0, 1),
    ]


def test_an_edge_keeps_only_its_latest_runs_column_lineage(catalog: Catalog) -> None:
    catalog.record([run("r1", 1, lineage={"contact": [(A, "email")]})])
    catalog.record([run("r2", 2, lineage=None)])  # the chain turned opaque
    assert _lineage(catalog, A, B) is None
    catalog.record([run("r3", 3, lineage={"mail": [(A, "email")]})])
    assert _lineage(catalog, A, B) == {"mail": ["email"]}
    (edge,) = catalog.edges(sinks=[B.id])
    assert (edge.run_id, edge.event_time, edge.job) == ("r3", at(3), JOB_B)


def test_an_older_event_does_not_replace_a_newer_run(catalog: Catalog) -> None:
    catalog.record([run("new", 5, lineage={"x": [(A, "x")]})])
    catalog.record([run("old", 1, lineage=None)])
    assert _lineage(catalog, A, B) == {"x": ["x"]}
    # ... also inside one batch
    catalog.record([run("r9", 9, lineage={"y": [(A, "y")]}), run("r8", 8, lineage=None)])
    assert _lineage(catalog, A, B) == {"y": ["y"]}


def test_a_source_the_column_lineage_does_not_mention_is_opaque(catalog: Catalog) -> None:
    catalog.record([run("r1", 1, inputs=(A, C), lineage={"x": [(A, "x")]})])
    assert _lineage(catalog, C, B) is None


def test_whole_dataset_dependencies_and_transformations_are_kept(catalog: Catalog) -> None:
    record = RunRecord(
        job=JOB_B,
        run_id="r1",
        state=RunState.COMPLETE,
        event_time=at(1),
        inputs=(Observation(A),),
        outputs=(
            Observation(
                B,
                column_lineage={"total": (FieldRef(A, "amount", ("DIRECT/AGGREGATION",)),)},
                dataset_lineage=(FieldRef(A, "status", ("INDIRECT/FILTER",)),),
            ),
        ),
    )
    catalog.record([record])
    (edge,) = catalog.edges(sinks=[B.id])
    assert edge.column_lineage is not None
    assert edge.column_lineage.fields == {
        "total": (ColumnInput("amount", ("DIRECT/AGGREGATION",)),)
    }
    assert edge.column_lineage.dataset == (ColumnInput("status", ("INDIRECT/FILTER",)),)
    assert edge.column_lineage.reads() == {"amount", "status"}


@pytest.mark.parametrize("state", [RunState.FAIL, RunState.ABORT, RunState.START], ids=str)
def test_only_complete_runs_write_edges_and_schemas(catalog: Catalog, state: RunState) -> None:
    catalog.record([run("r1", 1, state=state, out_schema=schema("id"))])
    assert catalog.edges(sinks=[B.id]) == []
    detail = catalog.detail(B.uri)
    assert detail.dataset.schema is None
    assert [(r.run_id, r.state, r.role) for r in detail.runs] == [("r1", state, "output")]


def test_a_run_keeps_its_latest_state_and_its_start_and_end(catalog: Catalog) -> None:
    catalog.record([run("r1", 1, state=RunState.START)])
    catalog.record([run("r1", 4, state=RunState.COMPLETE)])
    catalog.record([run("r1", 2, state=RunState.RUNNING)])  # late, older: state stays
    (writer,) = catalog.detail(B.id).runs
    assert (writer.state, writer.event_time) == (RunState.COMPLETE, at(4))
    assert catalog.counts()["runs"] == 1


def test_the_last_observed_schema_and_owners_win(catalog: Catalog) -> None:
    catalog.record([run("r1", 1, out_schema=schema("id:integer", "email"), owners=("team-a",))])
    catalog.record([run("r0", 0, out_schema=schema("stale"))])  # older: ignored
    catalog.record([run("r2", 2, out_schema=schema("id:integer", "mail"))])
    entry = catalog.dataset(B.uri)
    assert [(f.name, f.type) for f in entry.schema or ()] == [("id", "integer"), ("mail", "string")]
    assert (entry.schema_run_id, entry.owners) == ("r2", ("team-a",))


def test_replace_inputs_drops_dependencies_no_longer_declared(catalog: Catalog) -> None:
    catalog.record([run("r1", 1, inputs=(A, C), replace_inputs=True)])
    catalog.record([run("r2", 2, inputs=(A,), replace_inputs=True)])
    assert [e.source_id for e in catalog.edges(sinks=[B.id])] == [A.id]


def test_a_record_without_a_run_never_overrides_a_runs_lineage(catalog: Catalog) -> None:
    catalog.record([run("r1", 1, lineage={"x": [(A, "x")]})])
    catalog.record([run(None, 9, lineage=None)])  # a definition sync / JobEvent, later
    assert _lineage(catalog, A, B) == {"x": ["x"]}
    catalog.record([run(None, 1, output=C, lineage=None)])  # but it creates missing edges
    assert _lineage(catalog, A, C) is None


def test_contracts_and_config_snapshots(catalog: Catalog) -> None:
    record = RunRecord(
        job=JOB_B,
        run_id="r1",
        state=RunState.COMPLETE,
        event_time=at(1),
        inputs=(Observation(A),),
        outputs=(Observation(B),),
        contract=Contract("7", ("contact",)),
        config={"asset": "b"},
    )
    catalog.record([record])
    catalog.record([record])  # same config: one snapshot
    (snap,) = catalog.detail(B.id).contracts
    assert (snap.job, snap.contract, snap.run_id) == (JOB_B, Contract("7", ("contact",)), "r1")
    assert snap.config == {"asset": "b", "contract": {"version": "7", "columns": ["contact"]}}
    assert catalog.counts()["snapshots"] == 1


def test_annotate_owners_replace_consumers_upsert_by_name(catalog: Catalog) -> None:
    catalog.record([run("r1", 1)])
    catalog.annotate(B.id, owners=["team-a"], consumers=[Consumer("dash", "dashboard", "#bi")])
    detail = catalog.annotate(
        B.id[:6],
        owners=["team-b", "team-c"],
        consumers=[Consumer("dash", "dashboard", "#bi-2", ("contact",)), Consumer("ml", "model")],
    )
    assert detail.dataset.owners == ("team-b", "team-c")
    assert detail.consumers == (
        Consumer("dash", "dashboard", "#bi-2", ("contact",)),
        Consumer("ml", "model"),
    )
    kept = catalog.annotate(B.uri, consumers=[Consumer("ml", "model", "#ml")])
    assert [c.name for c in kept.consumers] == ["dash", "ml"]  # upsert leaves "dash"
    assert kept.dataset.owners == ("team-b", "team-c")  # no owners given: unchanged
    replaced = catalog.annotate(B.uri, consumers=[Consumer("new", "export")], replace=True)
    assert [c.name for c in replaced.consumers] == ["new"]


def test_apply_config_touches_only_the_datasets_of_the_run(catalog: Catalog) -> None:
    catalog.record([run("r1", 1, inputs=(A,), output=B), run("r2", 2, inputs=(A,), output=C)])
    config = CatalogConfig.model_validate(
        {
            "datasets": [
                {"dataset": B.uri, "owners": ["team-b"], "consumers": [{"name": "dash"}]},
                {"dataset": C.id[:8], "owners": ["team-c"]},
            ]
        }
    )
    assert catalog.apply_config(config, touched=[A.id, B.id]) == 1
    assert (catalog.dataset(B.id).owners, catalog.dataset(C.id).owners) == (("team-b",), ())
    assert catalog.apply_config(config) == 2
    assert catalog.dataset(C.id).owners == ("team-c",)


def test_profiles_latest_and_history_are_kept_per_dataset(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    import faucet_core.catalog.catalog as module

    monkeypatch.setattr(module, "PROFILE_HISTORY", 3)
    for i in range(5):
        catalog.record_profile(
            B, run_id=f"r{i}", profile=day(i, rows=50), status="warming", recorded_at=at(i)
        )
    catalog.record_profile(
        B, run_id="r4", profile=day(9, rows=70), status="stable", recorded_at=at(4)
    )
    history = catalog.profiles(B.id)
    assert [(p.run_id, p.status, p.row_count) for p in history] == [
        ("r2", "warming", 50),
        ("r3", "warming", 50),
        ("r4", "stable", 70),
    ]
    detail = catalog.detail(B.uri)
    assert detail.latest_profile is not None
    assert detail.latest_profile.run_id == "r4"
    assert set(detail.latest_profile.profile.columns) == {"amount", "region"}
    assert [p["run_id"] for p in detail.to_dict()["profile"]["history"]] == ["r2", "r3", "r4"]


def test_downstream_walks_hops_once_per_dataset(catalog: Catalog) -> None:
    d = DatasetRef("file", "/data/d.csv")
    catalog.record(
        [
            run("r1", 1, inputs=(A,), output=B),
            run("r2", 2, inputs=(B,), output=C, job=JobRef("faucet", "c")),
            run("r3", 3, inputs=(C,), output=d, job=JobRef("faucet", "d")),
            run("r4", 4, inputs=(d,), output=B, job=JobRef("faucet", "loop")),
        ]
    )
    walked = [(hop, e.sink_uri) for hop, e in catalog.downstream(A.uri, depth=5)]
    assert walked == [(1, B.uri), (2, C.uri), (3, d.uri), (4, B.uri)]
    assert [(hop, e.sink_uri) for hop, e in catalog.downstream(A.uri, depth=2)] == walked[:2]


def test_lookups_by_id_prefix_and_uri(catalog: Catalog) -> None:
    catalog.record([run("r1", 1)])
    assert catalog.resolve(B.id) == catalog.resolve(B.id[:4].upper()) == catalog.resolve(B.uri)
    assert catalog.resolve("  " + A.uri + " ") == A.id


NEITHER = (
    "{ref!r} is neither a dataset URI (scheme://...) nor an id (4 to 12 hex digits, as "
    "`faucet catalog datasets` prints it)"
)
NO_ID = (
    "no dataset with id {ref!r} in the catalog {url}: `faucet catalog datasets` lists the ids "
    "it knows"
)
NO_URI = (
    "no dataset {ref!r} in the catalog {url}: `faucet catalog datasets` lists the URIs it knows"
)


@pytest.mark.parametrize(
    ("ref", "message"),
    [("orders", NEITHER), ("abc", NEITHER), ("ffff", NO_ID), ("file:///nope", NO_URI)],
    ids=["word", "short", "unknown-id", "unknown-uri"],
)
def test_lookup_errors(catalog: Catalog, ref: str, message: str) -> None:
    catalog.record([run("r1", 1)])
    with pytest.raises(CatalogError) as err:
        catalog.resolve(ref)
    assert str(err.value) == message.format(ref=ref, url=catalog.url)


def test_an_ambiguous_prefix_names_the_candidates(catalog: Catalog) -> None:
    one, two = DatasetRef("file", "/d/82"), DatasetRef("file", "/d/175")  # both 26d3...
    catalog.record([run("r1", 1, inputs=(), output=one), run("r2", 2, inputs=(), output=two)])
    with pytest.raises(CatalogError) as err:
        catalog.resolve("26d3")
    assert str(err.value) == (
        "id prefix '26d3' is ambiguous: it matches 26d393cc3846 (file:///d/175), "
        "26d3e2d2ec4b (file:///d/82); give more digits"
    )
    assert catalog.resolve("26d39") == two.id


def test_the_catalog_shares_the_profile_stores_schema_and_engine(store_url: str) -> None:
    with ProfileStore(store_url) as store:
        cat = Catalog(store.engine)
        assert cat.schema_version == store.schema_version == SCHEMA_VERSION
        cat.record([run("r1", 1)])
        cat.close()  # does not dispose the store's engine
        store.record("orders", day(1))
        assert Catalog(store.engine).counts()["datasets"] == 2


def test_annotate_adds_owners_and_removes_consumers_by_name(catalog: Catalog) -> None:
    catalog.record([run("r1", 1)])
    catalog.annotate(B.id, owners=["team-a"], consumers=[Consumer("dash"), Consumer("ml")])
    added = catalog.annotate(B.id, add_owners=["team-b", "team-a"])
    assert added.dataset.owners == ("team-a", "team-b")  # kept in order, no repeat
    dropped = catalog.annotate(B.uri, remove_consumers=["dash"], remove_owners=["team-a"])
    assert [c.name for c in dropped.consumers] == ["ml"]
    assert dropped.dataset.owners == ("team-b",)
    with pytest.raises(CatalogError, match="has no consumer 'dash' to remove; its consumers: ml"):
        catalog.annotate(B.id, remove_consumers=["dash"])
    with pytest.raises(CatalogError, match="cannot be combined"):
        catalog.annotate(B.id, clear_owners=True, add_owners=["x"])
    assert [c.name for c in catalog.detail(B.id).consumers] == ["ml"]  # nothing half-done


def test_last_drift_is_the_newest_drifted_profile_per_dataset(catalog: Catalog) -> None:
    catalog.record([run("r1", 1)])
    for i, status in enumerate(("stable", "drifted", "drifted", "stable")):
        catalog.record_profile(
            B, run_id=f"p{i}", profile=day(i, rows=20), status=status, recorded_at=at(i)
        )
    assert catalog.last_drift() == {B.id: at(2)}
