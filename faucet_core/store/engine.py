"""Engines for the store: SQLite with write transactions that lock up front, or PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine
from sqlalchemy.pool import StaticPool

__all__ = ["make_engine"]

SQLITE_BUSY_TIMEOUT_MS = 30_000


def make_engine(url: URL) -> Engine:
    """An engine on which every transaction is safe against a concurrent writer.

    SQLite: WAL journal, a busy timeout, and ``BEGIN IMMEDIATE`` so a transaction
    takes the write lock before it reads (no lost update between two processes).
    PostgreSQL: writers lock their baseline row with ``SELECT ... FOR UPDATE``.
    """
    if url.get_backend_name() == "sqlite":
        memory = url.database in (None, "", ":memory:")
        kwargs: dict[str, Any] = {}
        if memory:
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        engine = create_engine(url, **kwargs)

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
            cursor = dbapi_conn.cursor()
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
            if not memory:
                cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True)
