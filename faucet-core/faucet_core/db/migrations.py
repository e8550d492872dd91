"""Numbered schema migrations. The store records its version in ``faucet_meta``.

To change the schema: add a function ``_vN`` below and bump :data:`LATEST`.
A migration runs in one transaction, under a lock, so two processes opening
a new store at once migrate it once.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from sqlalchemy import Connection, Engine, insert, select, update

from faucet_core.clock import utc_now
from faucet_core.db.engine import reader
from faucet_core.db.schema import (
    audit_log,
    baseline_keys,
    catalog_consumers,
    catalog_datasets,
    catalog_edges,
    catalog_owners,
    catalog_profiles,
    catalog_run_datasets,
    catalog_runs,
    catalog_schema_changes,
    catalog_snapshots,
    meta,
    metric_counters,
    profile_memory,
    profile_runs,
    quarantine,
    revoked_sessions,
)
from faucet_core.db.transaction import MIGRATION_LOCK, Transaction
from faucet_core.errors import StoreSchemaError

__all__ = ["LATEST", "current_version", "migrate"]

LATEST = 9
_VERSION = "schema_version"


def _v1(conn: Connection) -> None:
    """Profile baselines: keys and runs."""
    for table in (baseline_keys, profile_runs):
        table.create(conn, checkfirst=True)


def _v2(conn: Connection) -> None:
    """Persistent Prometheus counters."""
    metric_counters.create(conn, checkfirst=True)


def _v3(conn: Connection) -> None:
    """The catalog: datasets, consumers, runs, lineage edges, config snapshots, profiles."""
    for table in (
        catalog_datasets,
        catalog_consumers,
        catalog_runs,
        catalog_run_datasets,
        catalog_edges,
        catalog_snapshots,
        catalog_profiles,
    ):
        table.create(conn, checkfirst=True)


def _v4(conn: Connection) -> None:
    """The audit log of the HTTP API (``faucet serve``)."""
    audit_log.create(conn, checkfirst=True)


def _v5(conn: Connection) -> None:
    """The quarantine of damaged runs (``faucet doctor --repair``)."""
    quarantine.create(conn, checkfirst=True)


def _v6(conn: Connection) -> None:
    """Dataset owners per source. The owners a store already holds came from an unknown
    source: they are kept, labelled ``legacy``, until the same names arrive from a known
    source or someone clears them (``faucet catalog annotate --clear-owners``)."""
    catalog_owners.create(conn, checkfirst=True)
    t = catalog_datasets.c
    now = utc_now()
    rows = []
    for key, owners in conn.execute(select(t.id, t.owners).where(t.owners != "[]")):
        try:
            names = [str(n) for n in json.loads(str(owners or "[]")) if str(n).strip()]
        except ValueError:
            continue  # unreadable: reading the dataset reports it, as before
        if names:
            rows.append(
                {
                    "dataset_id": key,
                    "source": "legacy",
                    "owners": json.dumps(names),
                    "updated_at": now,
                }
            )
    if rows:
        conn.execute(insert(catalog_owners), rows)


def _v7(conn: Connection) -> None:
    """Web console sessions ended by signing out (``faucet serve``)."""
    revoked_sessions.create(conn, checkfirst=True)


def _v8(conn: Connection) -> None:
    """Observed schema changes: the catalog's schema history (learned freshness and
    observed schema changes, issue 28). Starts empty: history begins with this version."""
    catalog_schema_changes.create(conn, checkfirst=True)


def _v9(conn: Connection) -> None:
    """Runs past the rolling window, without their sketches: the detector's memory.
    Starts empty: memory begins with this version."""
    profile_memory.create(conn, checkfirst=True)


MIGRATIONS: dict[int, Callable[[Connection], None]] = {
    1: _v1,
    2: _v2,
    3: _v3,
    4: _v4,
    5: _v5,
    6: _v6,
    7: _v7,
    8: _v8,
    9: _v9,
}


def current_version(conn: Connection) -> int:
    """The schema version recorded in the store (0 for an empty database)."""
    if not conn.dialect.has_table(conn, meta.name):
        return 0
    value = conn.execute(select(meta.c.value).where(meta.c.name == _VERSION)).scalar()
    try:
        version = int(value) if value is not None else 0
    except (ValueError, TypeError):
        version = -1
    if version < 0 or (version == 0 and value is not None):
        raise StoreSchemaError(
            f"the store's schema version {value!r} is not a version number (1 or more); the "
            "faucet_meta table was edited by hand or belongs to something else: restore the "
            "store from a backup, or point the store URL at another database"
        )
    return version


def _newer(version: int) -> StoreSchemaError:
    return StoreSchemaError(
        f"the store's schema version {version} is newer than this faucet-dagster "
        f"understands ({LATEST}); upgrade faucet-dagster"
    )


def migrate(engine: Engine) -> int:
    """Bring the store to :data:`LATEST`; returns the version it is at.

    A store already at :data:`LATEST` is only read (no write lock), so opening it never
    waits behind, nor blocks, a writer."""
    with reader(engine).connect() as conn:
        if conn.dialect.has_table(conn, meta.name):
            version = current_version(conn)
            if version == LATEST:
                return LATEST
            if version > LATEST:
                raise _newer(version)
    with Transaction(engine, lock=MIGRATION_LOCK) as conn:  # one migrator at a time
        meta.create(conn, checkfirst=True)
        version = current_version(conn)
        if version > LATEST:
            raise _newer(version)
        for number in range(version + 1, LATEST + 1):
            MIGRATIONS[number](conn)
        if version == 0:
            conn.execute(insert(meta).values(name=_VERSION, value=str(LATEST)))
        elif version < LATEST:
            conn.execute(update(meta).where(meta.c.name == _VERSION).values(value=str(LATEST)))
        return max(version, LATEST)
