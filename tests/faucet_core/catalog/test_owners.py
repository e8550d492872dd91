"""Owners per source: code, OpenLineage, the catalog: block and annotations are all kept,
each labelled; every source replaces only its own set; annotate edits only its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, insert, select, update

from faucet_core.catalog import Catalog, CatalogConfig, OwnerSource
from faucet_core.db import migrations as mig
from faucet_core.db.schema import catalog_datasets, catalog_owners, meta
from faucet_core.errors import CatalogError
from tests.faucet_core.catalog.builders import B, run


def _labelled(catalog: Catalog) -> list[str]:
    return [str(o) for o in catalog.dataset(B.id).owner_sources]


def _dagster(run_id: str | None, minute: int, owners: tuple[str, ...]):  # type: ignore[no-untyped-def]
    return dataclasses.replace(run(run_id, minute, owners=owners), source="dagster")


@pytest.fixture
def catalog(store_url: str) -> Iterator[Catalog]:
    with Catalog(store_url) as cat:
        yield cat


def test_each_source_replaces_only_its_own_set(catalog: Catalog) -> None:
    catalog.record([_dagster("d1", 1, ("team-a",)), run("ol1", 2, owners=("lake",))])
    catalog.annotate(B.id, owners=["team-b", " ", "team-b"])
    assert _labelled(catalog) == ["team-a (code)", "lake (openlineage)", "team-b (annotation)"]
    # A re-sync (no run) and a new materialization bring the code owners again...
    catalog.record([_dagster(None, 3, ("team-a", "team-c"))])
    catalog.record([_dagster("d2", 4, ("team-c",))])
    # ...an OpenLineage producer changes its own...
    catalog.record([run("ol2", 5, owners=("lake-2",))])
    # ...and the catalog: block its own: the annotation survives all of them.
    config = CatalogConfig.model_validate({"datasets": [{"dataset": B.uri, "owners": ["ops"]}]})
    catalog.apply_config(config)
    assert _labelled(catalog) == [
        "team-c (code)",
        "lake-2 (openlineage)",
        "ops (config)",
        "team-b (annotation)",
    ]
    entry = catalog.dataset(B.id)
    assert entry.owners == ("team-c", "lake-2", "ops", "team-b")  # the union, plain names
    assert entry.to_dict()["owner_sources"][-1] == {"name": "team-b", "sources": ["annotation"]}


def test_a_name_from_two_sources_lists_both(catalog: Catalog) -> None:
    catalog.record([_dagster("d1", 1, ("team-a",))])
    catalog.annotate(B.id, owners=["team-a"])
    assert _labelled(catalog) == ["team-a (code, annotation)"]
    assert catalog.dataset(B.id).owners == ("team-a",)
    catalog.record([_dagster("d2", 2, ())])  # the asset no longer declares owners
    assert _labelled(catalog) == ["team-a (annotation)"]


def test_remove_and_clear_edit_only_the_annotated_owners(catalog: Catalog) -> None:
    catalog.record([_dagster("d1", 1, ("team-a",))])
    catalog.annotate(B.id, owners=["team-b", "team-c"])
    detail = catalog.annotate(B.id, remove_owners=["team-b"])
    assert [str(o) for o in detail.dataset.owner_sources] == [
        "team-a (code)",
        "team-c (annotation)",
    ]
    with pytest.raises(CatalogError) as info:
        catalog.annotate(B.id, remove_owners=["team-c", "team-a"])
    assert str(info.value) == (
        f"owner 'team-a' of dataset {B.id} is not an annotated owner: it comes from code (the "
        "Dagster asset's owners=); change it there (annotate edits only the annotated owners)"
    )
    with pytest.raises(CatalogError) as info:
        catalog.annotate(B.id, remove_owners=["nobody"])
    assert str(info.value) == (
        f"dataset {B.id} has no owner 'nobody' to remove; its owners: team-a (code), "
        "team-c (annotation)"
    )
    assert _labelled(catalog) == ["team-a (code)", "team-c (annotation)"]  # nothing written
    with pytest.raises(CatalogError, match="cannot be combined"):
        catalog.annotate(B.id, owners=["x"], clear_owners=True)
    catalog.annotate(B.id, clear_owners=True)
    assert _labelled(catalog) == ["team-a (code)"]
    assert catalog.dataset(B.id).owners == ("team-a",)


def test_a_version_4_store_keeps_its_owners_as_legacy_until_a_source_claims_them(
    sqlite_url: str,
) -> None:
    with Catalog(sqlite_url) as cat:
        cat.record([run("r1", 1)])
    engine = create_engine(sqlite_url)
    with engine.begin() as conn:  # back to version 4, owners written the old way
        catalog_owners.drop(conn)
        conn.execute(update(meta).values(value="4"))
        conn.execute(
            update(catalog_datasets)
            .where(catalog_datasets.c.id == B.id)
            .values(owners='["team-a", "team-old"]')
        )
    with Catalog(sqlite_url) as cat:
        assert cat.schema_version == mig.LATEST >= 6
        assert [str(o) for o in cat.dataset(B.id).owner_sources] == [
            "team-a (legacy)",
            "team-old (legacy)",
        ]
        cat.record([_dagster("d1", 2, ("team-a",))])
        assert [str(o) for o in cat.dataset(B.id).owner_sources] == [
            "team-a (code)",
            "team-old (legacy)",
        ]
        cat.annotate(B.id, remove_owners=["team-old"])
        assert cat.dataset(B.id).owners == ("team-a",)
    with engine.connect() as conn:
        o = catalog_owners.c
        rows = conn.execute(select(o.source, o.owners).where(o.dataset_id == B.id)).all()
    assert [tuple(r) for r in rows] == [("code", '["team-a"]')]
    engine.dispose()


def test_a_fresh_store_migrates_straight_to_version_5(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    with engine.begin() as conn:
        meta.create(conn)
        for step in (mig._v1, mig._v2, mig._v3, mig._v4):
            step(conn)
        conn.execute(insert(meta).values(name="schema_version", value="4"))
    engine.dispose()
    with Catalog(sqlite_url) as cat:
        assert cat.schema_version == mig.LATEST
        cat.record([run("r1", 1, owners=("lake",))])
        assert cat.dataset(B.id).owner_sources[0].sources == (OwnerSource.OPENLINEAGE,)
