"""Bulk inserts into the catalog tables, and the datasets every write names first."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.dialects import postgresql, sqlite

from faucet_core.catalog.records import DatasetRef
from faucet_core.db.chunks import chunks
from faucet_core.db.schema import catalog_datasets

__all__ = ["ensure_datasets", "insert_rows", "upsert_ignore"]


def insert_rows(
    conn: Connection, table: Any, rows: list[dict[str, Any]], *, ignore_conflicts: bool = False
) -> None:
    """INSERT many rows (executemany); ``ignore_conflicts``: ON CONFLICT DO NOTHING."""
    if not rows:
        return
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(table)
    conn.execute(statement.on_conflict_do_nothing() if ignore_conflicts else statement, rows)


def upsert_ignore(conn: Connection, table: Any, rows: list[dict[str, Any]]) -> None:
    """INSERT ... ON CONFLICT DO NOTHING, many rows at once."""
    insert_rows(conn, table, rows, ignore_conflicts=True)


def ensure_datasets(conn: Connection, refs: Iterable[DatasetRef], now: dt.datetime) -> int:
    """Create the datasets not in the catalog yet; returns how many were new."""
    by_id = {r.id: r for r in refs}
    ids = sorted(by_id)
    known: set[str] = set()
    for part in chunks(ids):
        known.update(
            conn.execute(
                select(catalog_datasets.c.id).where(catalog_datasets.c.id.in_(part))
            ).scalars()
        )
    rows = [
        {
            "id": i,
            "uri": by_id[i].uri,
            "namespace": by_id[i].namespace,
            "name": by_id[i].name,
            "owners": "[]",
            "created_at": now,
            "updated_at": now,
        }
        for i in ids
        if i not in known
    ]
    upsert_ignore(conn, catalog_datasets, rows)
    return len(rows)
