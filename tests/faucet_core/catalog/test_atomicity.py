"""Catalog writes are all or nothing; a version-2 store migrates to the catalog schema."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, insert, text

from faucet_core.catalog import Catalog, CatalogConfig
from faucet_core.db import migrations as mig
from faucet_core.db.schema import meta
from faucet_core.errors import StoreError
from faucet_core.store import ProfileStore
from tests.faucet_core.catalog.builders import B, run
from tests.faucet_core.store.helpers import day


def _refuse_edges(catalog: Catalog) -> None:
    with catalog.engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.execute(
                text(
                    "CREATE TRIGGER refuse BEFORE INSERT ON faucet_edges "
                    "BEGIN SELECT RAISE(ABORT, 'disk full (simulated)'); END"
                )
            )
        else:
            conn.execute(
                text(
                    "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                    "RAISE EXCEPTION 'disk full (simulated)'; END $$ LANGUAGE plpgsql"
                )
            )
            conn.execute(
                text(
                    "CREATE TRIGGER refuse BEFORE INSERT ON faucet_edges "
                    "FOR EACH ROW EXECUTE FUNCTION refuse()"
                )
            )


def test_a_failed_record_writes_nothing(store_url: str) -> None:
    with Catalog(store_url) as catalog:
        _refuse_edges(catalog)
        with pytest.raises(StoreError) as err:
            catalog.record([run("r1", 1)])
        assert str(err.value).startswith(f"cannot record lineage in the catalog {catalog.url}: ")
        assert "disk full (simulated)" in str(err.value)
        assert catalog.counts() == {
            "datasets": 0,
            "edges": 0,
            "runs": 0,
            "consumers": 0,
            "snapshots": 0,
            "profiles": 0,
        }


def test_a_failed_config_merge_writes_nothing(store_url: str) -> None:
    with Catalog(store_url) as catalog:
        catalog.record([run("r1", 1)])
        with catalog.engine.begin() as conn:
            conn.execute(text("DROP TABLE faucet_consumers"))
        config = CatalogConfig.model_validate(
            {"datasets": [{"dataset": B.uri, "owners": ["x"], "consumers": [{"name": "d"}]}]}
        )
        with pytest.raises(StoreError):
            catalog.apply_config(config)
        assert catalog.dataset(B.id).owners == ()


def test_a_version_2_store_gains_the_catalog_and_keeps_its_baselines(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    with engine.begin() as conn:
        meta.create(conn)
        mig._v1(conn)
        mig._v2(conn)
        conn.execute(insert(meta).values(name="schema_version", value="2"))
    engine.dispose()
    with Catalog(sqlite_url) as catalog:
        assert catalog.schema_version == mig.LATEST
    with ProfileStore(sqlite_url) as store:
        store.record("orders", day(1))
        assert store.check() == mig.LATEST
        assert len(store.history("orders")) == 1
