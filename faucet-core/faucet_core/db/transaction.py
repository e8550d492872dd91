"""One write transaction under a writer lock, for every writer of the store.

SQLite: the engine starts every write transaction with ``BEGIN IMMEDIATE`` (see
:mod:`faucet_core.db.engine`), which takes the database's one write lock before the first
read. PostgreSQL: a writer that names a lock id first takes that transaction-scoped
advisory lock (``pg_advisory_xact_lock``), so writers of the same kind run one at a time;
writers that lock their own rows (``SELECT ... FOR UPDATE``) name none. The lock ids
serialise different writers and never change (a process of an older release must still
wait on the same id).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import SQLAlchemyError

__all__ = ["CATALOG_LOCK", "MIGRATION_LOCK", "ErrorOf", "Transaction", "take_lock"]

MIGRATION_LOCK = 7305271
"""PostgreSQL advisory lock id: one migrator at a time."""
CATALOG_LOCK = 7305272
"""PostgreSQL advisory lock id: one catalog writer at a time."""

ErrorOf = Callable[[SQLAlchemyError], Exception]
"""Turns a database error into the error the caller raises (it names what failed where)."""


def take_lock(conn: Connection, lock: int) -> None:
    """Take PostgreSQL advisory lock ``lock`` until the transaction ends (SQLite: nothing
    to do, its write transaction already holds the write lock)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text(f"SELECT pg_advisory_xact_lock({int(lock)})"))


class Transaction:
    """``with Transaction(engine, error, lock=...) as conn``: one write transaction,
    committed when the block ends, rolled back if it raises.

    ``lock``: the advisory lock id to take first on PostgreSQL (None: none). ``error``:
    what a database error (on begin, in the block, or on commit) becomes; None raises it
    as it is.
    """

    def __init__(self, engine: Engine, error: ErrorOf | None = None, *, lock: int | None = None):
        self._engine, self._error, self._lock = engine, error, lock
        self._cm: Any = None

    def _raise(self, exc: SQLAlchemyError) -> None:
        if self._error is None:
            raise exc
        raise self._error(exc) from None

    def __enter__(self) -> Connection:
        try:
            self._cm = self._engine.begin()
            conn: Connection = self._cm.__enter__()
        except SQLAlchemyError as exc:
            self._raise(exc)
            raise  # unreachable: _raise always raises
        if self._lock is not None:
            try:
                take_lock(conn, self._lock)
            except SQLAlchemyError as exc:
                self._cm.__exit__(type(exc), exc, None)  # roll back, release the connection
                self._raise(exc)
        return conn

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            self._cm.__exit__(exc_type, exc, tb)
        except SQLAlchemyError as err:
            self._raise(err)
        if isinstance(exc, SQLAlchemyError) and self._error is not None:
            raise self._error(exc) from None
