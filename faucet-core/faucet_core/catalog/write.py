"""Writing run records into the catalog: one batch, merged in Python, written in bulk.

Every function takes the open transaction's connection; the caller owns the transaction
(``Catalog``, or ``ProfileStore.record`` when a profile check writes its baseline run and
the catalog's copy in one commit), so a failure anywhere writes nothing. On PostgreSQL a
catalog writer first takes :func:`lock_catalog`. Edges are written by
:mod:`faucet_core.catalog.write_edges`, profiles by :mod:`faucet_core.catalog.write_profiles`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, and_, bindparam, insert, select, update

from faucet_core.catalog.codec import config_digest, dumps, encode_schema, utc
from faucet_core.catalog.owners import OwnerSource, run_source, write_owner_sets
from faucet_core.catalog.records import DatasetRef, RunRecord, RunState
from faucet_core.catalog.upsert import ensure_datasets, insert_rows, upsert_ignore
from faucet_core.catalog.write_edges import write_edges
from faucet_core.catalog.write_profiles import PROFILE_HISTORY, write_profile
from faucet_core.db.chunks import chunks
from faucet_core.db.schema import (
    catalog_datasets,
    catalog_run_datasets,
    catalog_runs,
    catalog_snapshots,
)
from faucet_core.db.transaction import CATALOG_LOCK, take_lock

__all__ = [
    "CATALOG_LOCK",
    "PROFILE_HISTORY",
    "RecordSummary",
    "chunks",
    "ensure_datasets",
    "lock_catalog",
    "record_batch",
    "upsert_ignore",
    "write_profile",
]


def lock_catalog(conn: Connection) -> None:
    """Serialise catalog writers on PostgreSQL (held until the transaction ends)."""
    take_lock(conn, CATALOG_LOCK)


@dataclass(frozen=True)
class RecordSummary:
    """What one batch of run records changed."""

    events: int
    runs: int
    datasets: int
    """Datasets the batch named (new or known)."""
    new_datasets: int
    edges: int
    """Edges written (inserted or replaced with a newer run's)."""
    complete: int
    """COMPLETE events (the ones that write edges)."""

    def to_dict(self) -> dict[str, int]:
        return {
            "events": self.events,
            "runs": self.runs,
            "datasets": self.datasets,
            "new_datasets": self.new_datasets,
            "edges": self.edges,
            "complete": self.complete,
        }


@dataclass
class _Run:
    source: str
    state: RunState
    event_time: dt.datetime
    started_at: dt.datetime | None = None
    ended_at: dt.datetime | None = None
    io: set[tuple[str, str]] = field(default_factory=set)

    def merge(self, rec: RunRecord) -> None:
        when = utc(rec.event_time)
        if rec.state is RunState.START:
            self.started_at = min(self.started_at or when, when)
        if rec.state.terminal:
            self.ended_at = max(self.ended_at or when, when)
        if when >= self.event_time:
            self.event_time, self.state, self.source = when, rec.state, rec.source
        self.io.update(("input", o.dataset.id) for o in rec.inputs)
        self.io.update(("output", o.dataset.id) for o in rec.outputs)


def _runs(conn: Connection, records: Sequence[RunRecord]) -> int:
    merged: dict[tuple[str, str, str], _Run] = {}
    for rec in records:
        if rec.run_id is None:
            continue
        key = (rec.job.namespace, rec.job.name, rec.run_id)
        run = merged.get(key)
        if run is None:
            run = merged[key] = _Run(rec.source, rec.state, utc(rec.event_time))
        run.merge(rec)
    if not merged:
        return 0
    t = catalog_runs.c
    run_ids = sorted({key[2] for key in merged})
    existing: dict[tuple[str, str, str], Any] = {}
    for part in chunks(run_ids):  # by run id (indexed), then matched on the whole key
        for row in conn.execute(select(catalog_runs).where(t.run_id.in_(part))):
            key = (row.job_namespace, row.job_name, row.run_id)
            if key in merged:
                existing[key] = row
    new_rows = []
    for key, run in merged.items():
        old = existing.get(key)
        if old is None:
            new_rows.append(
                {
                    "job_namespace": key[0],
                    "job_name": key[1],
                    "run_id": key[2],
                    "source": run.source,
                    "state": run.state.value,
                    "started_at": run.started_at,
                    "ended_at": run.ended_at,
                    "event_time": run.event_time,
                }
            )
            continue
        values: dict[str, Any] = {}
        if run.event_time >= utc(old.event_time):
            values.update(state=run.state.value, event_time=run.event_time, source=run.source)
        if run.started_at and (old.started_at is None or run.started_at < utc(old.started_at)):
            values["started_at"] = run.started_at
        if run.ended_at and (old.ended_at is None or run.ended_at > utc(old.ended_at)):
            values["ended_at"] = run.ended_at
        if values:
            conn.execute(update(catalog_runs).where(t.id == old.id).values(**values))
    insert_rows(conn, catalog_runs, new_rows)
    pks: dict[tuple[str, str, str], int] = {}
    for part in chunks(run_ids):
        for row in conn.execute(
            select(t.id, t.job_namespace, t.job_name, t.run_id).where(t.run_id.in_(part))
        ):
            pks[(row.job_namespace, row.job_name, row.run_id)] = int(row.id)
    io_rows = [
        {"run": pks[key], "dataset_id": dataset, "role": role}
        for key, run in merged.items()
        for role, dataset in sorted(run.io)
    ]
    upsert_ignore(conn, catalog_run_datasets, io_rows)
    return len(merged)


def _observations(conn: Connection, records: Sequence[RunRecord], now: dt.datetime) -> None:
    """Latest schema per dataset and owners per dataset and source, from COMPLETE runs
    (newest event wins)."""
    schemas: dict[str, tuple[dt.datetime, str, str | None]] = {}
    owners: dict[tuple[str, OwnerSource], tuple[dt.datetime, tuple[str, ...]]] = {}
    for rec in records:
        if rec.state is not RunState.COMPLETE:
            continue
        when = utc(rec.event_time)
        source = run_source(rec.source)
        for obs in (*rec.inputs, *rec.outputs):
            key = obs.dataset.id
            if obs.schema is not None and (key not in schemas or when >= schemas[key][0]):
                schemas[key] = (when, encode_schema(obs.schema), rec.run_id)
            slot = (key, source)
            if obs.owners is not None and (slot not in owners or when >= owners[slot][0]):
                owners[slot] = (when, obs.owners)
    t = catalog_datasets.c
    if schemas:
        stamps: dict[str, dt.datetime | None] = {}
        for part in chunks(sorted(schemas)):
            for row in conn.execute(select(t.id, t.schema_at).where(t.id.in_(part))):
                stamps[row.id] = row.schema_at
        rows = [
            {"ds_id": key, "schema": text, "schema_at": when, "schema_run_id": run_id, "now": now}
            for key, (when, text, run_id) in schemas.items()
            if stamps.get(key) is None or when >= utc(stamps[key])  # type: ignore[arg-type]
        ]
        if rows:
            conn.execute(
                update(catalog_datasets)
                .where(t.id == bindparam("ds_id"))
                .values(
                    schema=bindparam("schema"),
                    schema_at=bindparam("schema_at"),
                    schema_run_id=bindparam("schema_run_id"),
                    updated_at=bindparam("now"),
                ),
                rows,
            )
    # Each source replaces only its own owner set (faucet_core.catalog.owners).
    write_owner_sets(conn, {slot: names for slot, (_, names) in owners.items()}, now)


def _snapshots(conn: Connection, records: Sequence[RunRecord], now: dt.datetime) -> None:
    t = catalog_snapshots.c
    for rec in records:
        if rec.config is None and rec.contract is None:
            continue
        config = dict(rec.config or {})
        if rec.contract is not None:
            config.setdefault("contract", rec.contract.to_dict())
        targets = [o.dataset.id for o in rec.outputs] or [""]
        digest = config_digest(config)
        for dataset in targets:
            values = {"run_id": rec.run_id, "recorded_at": utc(rec.event_time)}
            where = and_(
                t.job_namespace == rec.job.namespace,
                t.job_name == rec.job.name,
                t.dataset_id == dataset,
                t.digest == digest,
            )
            if conn.execute(update(catalog_snapshots).where(where).values(**values)).rowcount:
                continue
            conn.execute(
                insert(catalog_snapshots).values(
                    job_namespace=rec.job.namespace,
                    job_name=rec.job.name,
                    dataset_id=dataset,
                    digest=digest,
                    config=dumps(config),
                    contract_version=rec.contract.version if rec.contract else None,
                    contract_columns=dumps(list(rec.contract.columns)) if rec.contract else None,
                    **values,
                )
            )


def record_batch(conn: Connection, records: Sequence[RunRecord], now: dt.datetime) -> RecordSummary:
    refs: dict[str, DatasetRef] = {}
    for rec in records:
        for obs in (*rec.inputs, *rec.outputs):
            refs[obs.dataset.id] = obs.dataset
            for field_refs in (obs.column_lineage or {}).values():
                refs.update((r.dataset.id, r.dataset) for r in field_refs)
            refs.update((r.dataset.id, r.dataset) for r in obs.dataset_lineage)
    new = ensure_datasets(conn, refs.values(), now)
    runs = _runs(conn, records)
    edges = write_edges(conn, records)
    _observations(conn, records, now)
    _snapshots(conn, records, now)
    return RecordSummary(
        events=len(records),
        runs=runs,
        datasets=len(refs),
        new_datasets=new,
        edges=edges,
        complete=sum(1 for r in records if r.state is RunState.COMPLETE),
    )
