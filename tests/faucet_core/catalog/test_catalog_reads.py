"""Catalog reads: never behind a SQLite writer, and our error for a damaged catalog."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import create_engine, text

from faucet_core.catalog import Catalog
from faucet_core.errors import StoreError
from tests.faucet_core.catalog.builders import run


def test_a_reader_reads_while_a_writer_holds_the_sqlite_lock(tmp_path) -> None:
    path = tmp_path / "c.db"
    with Catalog(f"sqlite:///{path}") as catalog:
        catalog.record([run("r1", 1)])
        writer = sqlite3.connect(path, timeout=0.1)
        writer.execute("BEGIN IMMEDIATE")  # a long write elsewhere
        try:
            uris = [d.uri for d in catalog.datasets()]
        finally:
            writer.rollback()
            writer.close()
    assert len(uris) == 2


def test_a_dropped_table_is_our_error_naming_the_catalog(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    with Catalog(url) as catalog:
        catalog.record([run("r1", 1)])
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text("DROP TABLE faucet_edges"))
        engine.dispose()
        with pytest.raises(StoreError) as info:
            catalog.datasets()
    message = str(info.value)
    assert message.startswith(f"cannot read the catalog {url}: ")
    assert "faucet_edges" in message
