"""The database plumbing the store and the catalog share: chunked IN lists, the one write
transaction, and the catalog read interface impact planning depends on."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import SQLAlchemyError

from faucet_core.catalog import Catalog, Consumer
from faucet_core.db import CHUNK, Transaction, chunks, make_engine, normalize_url
from faucet_core.db.schema import catalog_consumers
from faucet_core.db.transaction import ErrorOf
from faucet_core.errors import StoreError
from faucet_core.impact.reader import CatalogReader
from tests.faucet_core.catalog.builders import A, B, run


def test_chunks_cover_every_item_once_in_order_below_sqlites_oldest_limit() -> None:
    items = list(range(2 * CHUNK + 7))
    parts = list(chunks(items))
    assert [len(p) for p in parts] == [CHUNK, CHUNK, 7]
    assert [x for p in parts for x in p] == items
    assert CHUNK < 999
    assert list(chunks([])) == []


def test_a_transaction_commits_or_rolls_back_and_names_the_error(tmp_path: Path) -> None:
    engine = make_engine(normalize_url(f"sqlite:///{tmp_path / 'x.db'}"))
    try:
        with Transaction(engine) as conn:
            conn.execute(text("CREATE TABLE t (v INTEGER)"))
            conn.execute(text("INSERT INTO t VALUES (1)"))

        def error(exc: SQLAlchemyError) -> StoreError:
            return StoreError("cannot write t")

        def write(error: ErrorOf | None) -> None:
            with Transaction(engine, error, lock=7305272) as conn:
                conn.execute(text("INSERT INTO t VALUES (2)"))
                conn.execute(text("INSERT INTO missing VALUES (3)"))

        with pytest.raises(StoreError, match="cannot write t"):
            write(error)
        with pytest.raises(SQLAlchemyError):  # no error mapping: raised as it is
            write(None)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT v FROM t")).scalars().all() == [1]
    finally:
        engine.dispose()


def test_annotate_runs_its_callback_in_the_same_transaction(tmp_path: Path) -> None:
    with Catalog(f"sqlite:///{tmp_path / 'c.db'}") as catalog:
        catalog.record([run("r1", 1)])
        seen: list[str] = []
        detail = catalog.annotate(
            B.uri,
            consumers=[Consumer("bi", "dashboard")],
            in_transaction=lambda _conn, key: seen.append(key),
        )
        assert seen == [B.id]
        assert [c.name for c in detail.consumers] == ["bi"]

        def fail(_conn: object, _key: str) -> None:
            raise RuntimeError("audit refused")

        with pytest.raises(RuntimeError, match="audit refused"):
            catalog.annotate(B.uri, consumers=[Consumer("ml", "model")], in_transaction=fail)
        with catalog.engine.connect() as conn:
            names = conn.execute(select(catalog_consumers.c.name)).scalars().all()
        assert names == ["bi"]


def test_the_catalog_is_what_impact_planning_reads(tmp_path: Path) -> None:
    with Catalog(f"sqlite:///{tmp_path / 'c.db'}") as catalog:
        catalog.record([run("r1", 1)])
        reader: CatalogReader = catalog
        with reader.snapshot() as view:
            assert [(e.source_id, e.sink_id) for e in view.edges_from([A.id])] == [(A.id, B.id)]
            assert view.edges_leaving([A.id, B.id]) == 1
            assert view.last_run_of(B.id) is not None
            assert view.entry(B.id).uri == B.uri
