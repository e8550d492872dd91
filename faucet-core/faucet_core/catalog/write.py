"""Writing run records into the catalog: one batch, merged in Python, written in bulk.

Every function takes the open transaction's connection; the caller owns the transaction
(``Catalog``, or ``ProfileStore.record`` when a profile check writes its baseline run and
the catalog's copy in one commit), so a failure anywhere writes nothing. On PostgreSQL a
catalog writer first takes :func:`lock_catalog`.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, and_, bindparam, delete, insert, select, text, update
from sqlalchemy.dialects import postgresql, sqlite

from faucet_core.catalog.codec import (
    config_digest,
    decode_lineage,
    dumps,
    encode_lineage,
    encode_schema,
    utc,
)
from faucet_core.catalog.model import (
    ColumnInput,
    ColumnLineage,
    DatasetRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
)
from faucet_core.catalog.owners import OwnerSource, run_source, write_owner_sets
from faucet_core.drift.schema import schema_changes
from faucet_core.errors import FaucetError
from faucet_core.store.codec import decode_profile, encode_profile
from faucet_core.store.schema import (
    catalog_datasets,
    catalog_edges,
    catalog_profiles,
    catalog_run_datasets,
    catalog_runs,
    catalog_schema_changes,
    catalog_snapshots,
)

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

CHUNK = 400
CATALOG_LOCK = 7305272
"""PostgreSQL advisory lock id: one catalog writer at a time (SQLite: BEGIN IMMEDIATE)."""
PROFILE_HISTORY = 100
"""Profiles kept per dataset (the catalog's copy is for browsing)."""


def lock_catalog(conn: Connection) -> None:
    """Serialise catalog writers on PostgreSQL (held until the transaction ends)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text(f"SELECT pg_advisory_xact_lock({CATALOG_LOCK})"))


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


def chunks(items: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


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


@dataclass(frozen=True)
class _EdgeWrite:
    source_id: str
    sink_id: str
    job: JobRef
    run_id: str | None
    event_time: dt.datetime
    lineage: ColumnLineage | None
    declared: bool = False
    """The lineage is what the code declares now (see ``RunRecord.declares_lineage``)."""


def _edges_of(rec: RunRecord) -> Iterator[_EdgeWrite]:
    when = utc(rec.event_time)
    for out in rec.outputs:
        by_source = _split(out)
        sources: dict[str, None] = {o.dataset.id: None for o in rec.inputs}
        sources.update((key, None) for key in by_source)
        sink = out.dataset.id
        for source in sources:
            if source == sink:
                continue  # a job that reads and rewrites its own output adds no edge
            lineage = by_source.get(source)
            declared = rec.declares_lineage and rec.run_id is None and lineage is not None
            yield _EdgeWrite(source, sink, rec.job, rec.run_id, when, lineage, declared)


def _sorted(inputs: set[ColumnInput]) -> tuple[ColumnInput, ...]:
    if len(inputs) < 2:
        return tuple(inputs)
    return tuple(sorted(inputs, key=lambda i: (i.field, i.kinds)))


def _split(out: Observation) -> dict[str, ColumnLineage]:
    """An output's column lineage split per source dataset. A source it does not mention is
    left out: its edge is opaque (unknown), not "reads nothing"."""
    if out.column_lineage is None:
        return {}
    fields: dict[str, dict[str, set[ColumnInput]]] = {}
    for column, refs in out.column_lineage.items():
        for ref in refs:
            per = fields.setdefault(ref.dataset.id, {})
            per.setdefault(column, set()).add(ColumnInput(ref.field, ref.kinds))
    whole: dict[str, set[ColumnInput]] = {}
    for ref in out.dataset_lineage:
        whole.setdefault(ref.dataset.id, set()).add(ColumnInput(ref.field, ref.kinds))
    return {
        source: ColumnLineage(
            fields={c: _sorted(ins) for c, ins in fields.get(source, {}).items()},
            dataset=_sorted(whole.get(source, set())),
        )
        for source in {*fields, *whole}
    }


def _newer(edge: _EdgeWrite, old_run: str | None, old_time: dt.datetime) -> bool:
    """Whether ``edge`` replaces what is stored: a run's edge replaces an older run's (or a
    definition's); a record without a run (a definition sync, a JobEvent) only creates
    edges that do not exist yet, so it never overrides what a run recorded."""
    if edge.run_id is None:
        return old_run is None and edge.event_time >= old_time
    return old_run is None or edge.event_time >= old_time


def _edges(conn: Connection, records: Sequence[RunRecord]) -> int:
    latest: dict[tuple[str, str, str, str], _EdgeWrite] = {}
    replace: dict[tuple[str, str, str], set[str]] = {}
    for rec in records:
        if rec.state is not RunState.COMPLETE:
            continue
        for edge in _edges_of(rec):
            key = (edge.source_id, edge.sink_id, edge.job.namespace, edge.job.name)
            prev = latest.get(key)
            if prev is None or _newer(edge, prev.run_id, prev.event_time):
                latest[key] = edge
        if rec.replace_inputs:
            for out in rec.outputs:
                wanted = replace.setdefault(
                    (out.dataset.id, rec.job.namespace, rec.job.name), set()
                )
                wanted.update(o.dataset.id for o in rec.inputs)
    t = catalog_edges.c
    for (sink, namespace, name), sources in replace.items():
        conn.execute(
            delete(catalog_edges).where(
                and_(
                    t.sink_id == sink,
                    t.job_namespace == namespace,
                    t.job_name == name,
                    t.source_id.not_in(sorted(sources)) if sources else t.sink_id == sink,
                )
            )
        )
    if not latest:
        return 0
    sinks = sorted({key[1] for key in latest})
    existing: dict[tuple[str, str, str, str], Any] = {}
    for part in chunks(sinks):  # by sink (indexed), then matched on the whole key
        for row in conn.execute(
            select(
                t.id,
                t.source_id,
                t.sink_id,
                t.job_namespace,
                t.job_name,
                t.run_id,
                t.event_time,
                t.column_lineage,
            ).where(t.sink_id.in_(part))
        ):
            key = (row.source_id, row.sink_id, row.job_namespace, row.job_name)
            if key in latest:
                existing[key] = row
    inserts, updates, relineage = [], [], []
    for key, edge in latest.items():
        values = {
            "run_id": edge.run_id,
            "event_time": edge.event_time,
            "column_lineage": encode_lineage(edge.lineage),
        }
        old = existing.get(key)
        if old is None:
            inserts.append(
                {
                    "source_id": key[0],
                    "sink_id": key[1],
                    "job_namespace": key[2],
                    "job_name": key[3],
                    **values,
                }
            )
        elif _newer(edge, old.run_id, utc(old.event_time)):
            updates.append({"edge_pk": old.id, **values})
        elif edge.declared and edge.lineage != decode_lineage(old.column_lineage, "an edge"):
            relineage.append({"edge_pk": old.id, "column_lineage": values["column_lineage"]})
    insert_rows(conn, catalog_edges, inserts)
    if relineage:  # the code's declared column lineage on an edge a run recorded
        conn.execute(
            update(catalog_edges)
            .where(t.id == bindparam("edge_pk"))
            .values(column_lineage=bindparam("column_lineage")),
            relineage,
        )
    if updates:
        conn.execute(
            update(catalog_edges)
            .where(t.id == bindparam("edge_pk"))
            .values(
                run_id=bindparam("run_id"),
                event_time=bindparam("event_time"),
                column_lineage=bindparam("column_lineage"),
            ),
            updates,
        )
    return len(inserts) + len(updates) + len(relineage)


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
    edges = _edges(conn, records)
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
