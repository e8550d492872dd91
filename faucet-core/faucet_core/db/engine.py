"""Engines for the store, and what their database errors mean to a user.

SQLite: WAL journal and a busy timeout. A write transaction (``engine.begin()``) starts
with ``BEGIN IMMEDIATE`` so it takes the write lock before it reads (no lost update
between two processes); a read (:func:`reader`) starts a deferred ``BEGIN``, so it reads
its snapshot while another process writes. PostgreSQL: writers lock their baseline row
with ``SELECT ... FOR UPDATE``.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine
from sqlalchemy.exc import SQLAlchemyError

from faucet_core.errors import (
    ConfigError,
    StoreCorruptError,
    StoreError,
    StoreSchemaError,
    message_line,
)
from faucet_core.redact import redact

__all__ = ["DEFAULT_BUSY_TIMEOUT", "database_error", "make_engine", "reader", "reason_of"]

DEFAULT_BUSY_TIMEOUT = 30.0
"""Seconds a SQLite connection waits for another process's lock before giving up."""
_READ = "faucet_read"

_BUSY = ("database is locked", "database table is locked", "lock timeout", "lock_timeout")
_DAMAGED = (
    "database disk image is malformed",
    "file is not a database",
    "file is encrypted",
    "malformed database schema",
    "disk i/o error",
)
_MISSING = re.compile(
    r"no such table|no such column|has no column named|(relation|column) \S+ does not exist"
)


def make_engine(url: URL, *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Engine:
    """An engine on which every write transaction is safe against a concurrent writer."""
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, busy_timeout)
    try:
        return create_engine(url, pool_pre_ping=True)
    except ImportError as exc:
        raise ConfigError(
            f"store URL {redact(url.render_as_string(hide_password=True))!r}: its driver is "
            f"not installed ({exc.name or exc}); install it, or use postgresql+psycopg://"
        ) from None


def _sqlite_engine(url: URL, busy_timeout: float) -> Engine:
    from sqlalchemy.pool import StaticPool

    memory = url.database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {}
    if memory:
        kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    engine = create_engine(url, **kwargs)
    wait_ms = max(0, int(busy_timeout * 1000))

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_conn.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {wait_ms}")
            if not memory:
                cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        deferred = conn.get_execution_options().get(_READ, False)
        conn.exec_driver_sql("BEGIN" if deferred else "BEGIN IMMEDIATE")

    return engine


def reader(engine: Engine) -> Engine:
    """The same engine (and pool) for reads: on SQLite its transactions start deferred, so a
    reader never waits behind, nor blocks, a writer."""
    return engine.execution_options(**{_READ: True})


def database_error(exc: BaseException, prefix: str, *, timeout: float) -> StoreError:
    """Our error for a database error; ``prefix`` says what failed where (``cannot record
    baseline orders in sqlite:///...``, the URL already redacted). Busy, damaged, missing
    part of its schema, or anything else: the message says what happened and what to do,
    and carries no secret."""
    reason = reason_of(exc)
    lowered = reason.lower()
    if any(marker in lowered for marker in _BUSY):
        return StoreError(
            f"{prefix}: the store is busy: another process held its lock for more than "
            f"{timeout:g} s ({reason}); retry when that process has finished"
        )
    if any(marker in lowered for marker in _DAMAGED):
        return StoreCorruptError(
            f"{prefix}: the store is damaged ({reason}); restore it from a backup, or move "
            "the file aside to start an empty store (baselines are then learned again)"
        )
    if _MISSING.search(lowered):
        return StoreSchemaError(
            f"{prefix}: part of the store's schema is missing ({reason}); the store was "
            "edited or damaged: restore it from a backup, or move it aside to start anew"
        )
    return StoreError(f"{prefix}: {reason}")


def reason_of(exc: BaseException) -> str:
    """The first line of a driver's error, without secrets."""
    orig = getattr(exc, "orig", None) if isinstance(exc, SQLAlchemyError) else None
    return redact(message_line(orig or exc) or type(exc).__name__)
