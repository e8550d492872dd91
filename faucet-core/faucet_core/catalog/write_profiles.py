"""Writing one run's profile into the catalog (the catalog's copy, for browsing), with the
schema changes it makes against the dataset's previous profile."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, delete, insert, select

from faucet_core.catalog.codec import utc
from faucet_core.catalog.records import DatasetRef
from faucet_core.catalog.upsert import ensure_datasets
from faucet_core.db.schema import catalog_profiles, catalog_schema_changes
from faucet_core.drift.schema import schema_changes
from faucet_core.errors import FaucetError
from faucet_core.store.codec import decode_profile, encode_profile

__all__ = ["PROFILE_HISTORY", "write_profile"]

PROFILE_HISTORY = 100
"""Profiles kept per dataset (the catalog's copy is for browsing)."""


def _schema_history(
    conn: Connection,
    dataset_id: str,
    run_id: str,
    partition: str,
    when: dt.datetime,
    profile: Any,
) -> None:
    """Record what this run's columns changed against the dataset's previous profile (the
    same partition, recorded before ``when``); a run recorded again replaces its rows."""
    p = catalog_profiles.c
    c = catalog_schema_changes.c
    conn.execute(
        delete(catalog_schema_changes).where(
            c.dataset_id == dataset_id, c.run_id == run_id, c.partition == partition
        )
    )
    previous = conn.execute(
        select(p.profile, p.run_id)
        .where(
            p.dataset_id == dataset_id,
            p.partition == partition,
            p.run_id != run_id,
            p.recorded_at <= when,
        )
        .order_by(p.recorded_at.desc(), p.id.desc())
        .limit(1)
    ).first()
    if previous is None:
        return
    try:
        before = decode_profile(previous.profile, f"profile of run {previous.run_id}")
    except FaucetError:
        return  # a damaged earlier profile: nothing to compare with (reading reports it)
    rows = [
        {
            "dataset_id": dataset_id,
            "run_id": run_id,
            "partition": partition,
            "changed_at": when,
            "column": change.column,
            "change": change.kind.value,
            "before": json.dumps(list(change.before)),
            "after": json.dumps(list(change.after)),
        }
        for change in schema_changes(before, profile)
    ]
    if rows:
        conn.execute(insert(catalog_schema_changes), rows)


def write_profile(
    conn: Connection,
    dataset: DatasetRef,
    *,
    run_id: str,
    profile: Any,
    status: str,
    findings: Sequence[dict[str, Any]] = (),
    partition: str | None = None,
    recorded_at: dt.datetime,
    keep: int = PROFILE_HISTORY,
) -> None:
    """Record one run's profile on ``dataset`` (replacing the same run's, if any) and keep
    the newest ``keep`` (:data:`PROFILE_HISTORY`), inside the caller's transaction."""
    when = utc(recorded_at)
    p = catalog_profiles.c
    row = {
        "dataset_id": dataset.id,
        "run_id": run_id,
        "partition": partition or "",
        "recorded_at": when,
        "status": status,
        "row_count": int(profile.row_count),
        "profile": encode_profile(profile),
        "findings": json.dumps(list(findings), default=str).encode("utf-8"),
    }
    ensure_datasets(conn, [dataset], when)
    _schema_history(conn, dataset.id, run_id, partition or "", when, profile)
    conn.execute(
        delete(catalog_profiles).where(
            p.dataset_id == dataset.id, p.run_id == run_id, p.partition == row["partition"]
        )
    )
    conn.execute(catalog_profiles.insert().values(**row))
    cutoff = conn.execute(
        select(p.id)
        .where(p.dataset_id == dataset.id)
        .order_by(p.recorded_at.desc(), p.id.desc())
        .offset(keep)
        .limit(1)
    ).scalar()
    if cutoff is not None:
        newest = (
            select(p.id)
            .where(p.dataset_id == dataset.id)
            .order_by(p.recorded_at.desc(), p.id.desc())
            .limit(keep)
            .subquery()
        )
        conn.execute(
            delete(catalog_profiles).where(
                p.dataset_id == dataset.id, p.id.not_in(select(newest.c.id))
            )
        )
