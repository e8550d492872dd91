"""Reading the catalog: rows -> value types."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, func, or_, select
from sqlalchemy.orm import aliased

from faucet_core.catalog.codec import decode_lineage, decode_list, decode_schema, utc
from faucet_core.catalog.model import (
    Consumer,
    Contract,
    DatasetEntry,
    DatasetProfileRun,
    DatasetSummary,
    Edge,
    JobRef,
    LatestOutcome,
    Owner,
    OwnerSource,
    RunState,
    SchemaChangeRecord,
    Snapshot,
    WriterRun,
)
from faucet_core.catalog.owners import owners_by_dataset
from faucet_core.db.chunks import chunks
from faucet_core.db.schema import (
    catalog_consumers,
    catalog_datasets,
    catalog_edges,
    catalog_profiles,
    catalog_run_datasets,
    catalog_runs,
    catalog_schema_changes,
    catalog_snapshots,
)
from faucet_core.errors import StoreCorruptError
from faucet_core.store.codec import decode_profile

__all__ = [
    "SCHEMA_HISTORY",
    "consumers_of",
    "edges_where",
    "entries",
    "latest_outcomes",
    "profiles_of",
    "runs_of",
    "schema_history_of",
    "snapshots_of",
]

SCHEMA_HISTORY = 100
"""Schema changes a dataset's detail shows (the newest)."""


def _rows(conn: Connection, query: Any) -> list[Any]:
    """A query's rows as plain pairs (the aggregate queries here select two loose columns)."""
    return list(conn.execute(query).all())


def _entry(
    row: Any,
    counts: dict[str, tuple[int, int]],
    last: dict[str, dt.datetime],
    sources: dict[str, tuple[Owner, ...]],
) -> DatasetEntry:
    where = f"dataset {row.id} ({row.uri})"
    up, down = counts.get(row.id, (0, 0))
    owners = decode_list(row.owners, where)
    # Owners written without a source row (not by this faucet) read as legacy.
    labelled = sources.get(row.id) or tuple(Owner(n, (OwnerSource.LEGACY,)) for n in owners)
    return DatasetEntry(
        id=row.id,
        uri=row.uri,
        namespace=row.namespace,
        name=row.name,
        owners=owners,
        owner_sources=labelled,
        schema=decode_schema(row.schema, where),
        schema_run_id=row.schema_run_id,
        created_at=utc(row.created_at),
        updated_at=utc(row.updated_at),
        upstream=up,
        downstream=down,
        last_run_at=last.get(row.id),
    )


def entries(conn: Connection, ids: Sequence[str] | None = None) -> list[DatasetEntry]:
    """Datasets (all, or ``ids``) with edge counts and the time of their last written run,
    sorted by URI."""
    t = catalog_datasets.c
    e = catalog_edges.c
    query = select(catalog_datasets).order_by(t.uri)
    rows = []
    if ids is None:
        rows = list(conn.execute(query))
    else:
        for part in chunks(sorted(set(ids))):
            rows.extend(conn.execute(query.where(t.id.in_(part))))
        rows.sort(key=lambda r: r.uri)
    wanted = None if ids is None else {r.id for r in rows}
    counts: dict[str, list[int]] = {}

    def _count(column: Any, slot: int) -> None:
        q = select(column, func.count(func.distinct(e.source_id if slot == 0 else e.sink_id)))
        q = q.group_by(column)
        if wanted is not None:
            for part in chunks(sorted(wanted)):
                for key, n in _rows(conn, q.where(column.in_(part))):
                    counts.setdefault(key, [0, 0])[slot] = int(n)
        else:
            for key, n in _rows(conn, q):
                counts.setdefault(key, [0, 0])[slot] = int(n)

    _count(e.sink_id, 0)
    _count(e.source_id, 1)
    last = _last_runs(conn, wanted)
    frozen = {k: (v[0], v[1]) for k, v in counts.items()}
    sources = owners_by_dataset(conn, None if wanted is None else sorted(wanted))
    return [_entry(row, frozen, last, sources) for row in rows]


def _last_runs(conn: Connection, wanted: set[str] | None) -> dict[str, dt.datetime]:
    """Each dataset's last written run's time (``wanted``: these datasets, None: all)."""
    rd = catalog_run_datasets.c
    r = catalog_runs.c
    last_q = (
        select(rd.dataset_id, func.max(r.event_time))
        .join(catalog_runs, r.id == rd.run)
        .where(rd.role == "output")
        .group_by(rd.dataset_id)
    )
    last: dict[str, dt.datetime] = {}
    if wanted is not None:
        for part in chunks(sorted(wanted)):
            last.update({k: utc(v) for k, v in _rows(conn, last_q.where(rd.dataset_id.in_(part)))})
    else:
        last.update({k: utc(v) for k, v in _rows(conn, last_q)})
    return last


def summaries(conn: Connection) -> list[DatasetSummary]:
    """Every dataset as a list shows it, sorted by URI: two queries, no schema decoded."""
    t = catalog_datasets.c
    query = select(t.id, t.uri, t.namespace, t.name, t.owners).order_by(t.uri)
    last = _last_runs(conn, None)
    return [
        DatasetSummary(
            id=row.id,
            uri=row.uri,
            namespace=row.namespace,
            name=row.name,
            owners=decode_list(row.owners, f"dataset {row.id} ({row.uri})"),
            last_run_at=last.get(row.id),
        )
        for row in conn.execute(query).all()
    ]


def consumers_of(conn: Connection, dataset_id: str) -> tuple[Consumer, ...]:
    c = catalog_consumers.c
    rows = conn.execute(
        select(catalog_consumers).where(c.dataset_id == dataset_id).order_by(c.name)
    )
    where = f"dataset {dataset_id} consumers"
    return tuple(
        Consumer(row.name, row.kind, row.contact, decode_list(row.columns, where)) for row in rows
    )


def edges_where(
    conn: Connection, *, sources: Sequence[str] = (), sinks: Sequence[str] = ()
) -> list[Edge]:
    """Edges out of ``sources`` and into ``sinks``, with both ends' URIs."""
    e = catalog_edges.c
    src = aliased(catalog_datasets, name="src")
    snk = aliased(catalog_datasets, name="snk")
    base = (
        select(catalog_edges, src.c.uri.label("source_uri"), snk.c.uri.label("sink_uri"))
        .join(src, src.c.id == e.source_id)
        .join(snk, snk.c.id == e.sink_id)
    )
    rows: list[Any] = []
    for ids, column in ((sources, e.source_id), (sinks, e.sink_id)):
        for part in chunks(sorted(set(ids))):
            rows.extend(conn.execute(base.where(column.in_(part))))
    seen: set[int] = set()
    out = []
    for row in rows:
        if row.id in seen:
            continue
        seen.add(row.id)
        out.append(
            Edge(
                source_id=row.source_id,
                source_uri=row.source_uri,
                sink_id=row.sink_id,
                sink_uri=row.sink_uri,
                job=JobRef(row.job_namespace, row.job_name),
                run_id=row.run_id,
                event_time=utc(row.event_time),
                column_lineage=decode_lineage(
                    row.column_lineage, f"edge {row.source_id} -> {row.sink_id}"
                ),
            )
        )
    out.sort(key=lambda x: (x.source_uri, x.sink_uri, str(x.job)))
    return out


def runs_of(conn: Connection, dataset_id: str, limit: int) -> tuple[WriterRun, ...]:
    rd = catalog_run_datasets.c
    r = catalog_runs.c
    rows = conn.execute(
        select(catalog_runs, rd.role)
        .join(catalog_run_datasets, rd.run == r.id)
        .where(rd.dataset_id == dataset_id)
        .order_by(r.event_time.desc(), r.id.desc())
        .limit(limit)
    )
    out = []
    for row in rows:
        try:
            state = RunState(row.state)
        except ValueError:
            raise StoreCorruptError(f"run {row.run_id}: unknown state {row.state!r}") from None
        out.append(
            WriterRun(
                job=JobRef(row.job_namespace, row.job_name),
                run_id=row.run_id,
                state=state,
                role=row.role,
                event_time=utc(row.event_time),
            )
        )
    return tuple(out)


def snapshots_of(conn: Connection, dataset_id: str) -> tuple[Snapshot, ...]:
    """The latest config snapshot of each job that wrote ``dataset_id``."""
    s = catalog_snapshots.c
    rows = conn.execute(
        select(catalog_snapshots)
        .where(s.dataset_id == dataset_id)
        .order_by(s.recorded_at.desc(), s.id.desc())
    )
    latest: dict[tuple[str, str], Snapshot] = {}
    for row in rows:
        key = (row.job_namespace, row.job_name)
        if key in latest:
            continue
        where = f"config snapshot {row.id}"
        contract = None
        if row.contract_version is not None:
            contract = Contract(row.contract_version, decode_list(row.contract_columns, where))
        try:
            config = json.loads(row.config)
        except ValueError:
            raise StoreCorruptError(f"{where}: stored config is unreadable") from None
        latest[key] = Snapshot(
            job=JobRef(*key),
            dataset_id=row.dataset_id or None,
            run_id=row.run_id,
            recorded_at=utc(row.recorded_at),
            config=config,
            contract=contract,
        )
    return tuple(sorted(latest.values(), key=lambda x: str(x.job)))


def profiles_of(
    conn: Connection, dataset_id: str, limit: int | None
) -> tuple[DatasetProfileRun, ...]:
    """Profile history of a dataset, oldest first (the newest ``limit``)."""
    p = catalog_profiles.c
    query = (
        select(catalog_profiles)
        .where(p.dataset_id == dataset_id)
        .order_by(p.recorded_at.desc(), p.id.desc())
    )
    if limit is not None:
        query = query.limit(limit)
    out = []
    for row in conn.execute(query):
        where = f"profile of dataset {dataset_id} run {row.run_id}"
        try:
            findings = tuple(json.loads(bytes(row.findings).decode("utf-8")))
        except ValueError:
            raise StoreCorruptError(f"{where}: stored findings are unreadable") from None
        out.append(
            DatasetProfileRun(
                dataset_id=dataset_id,
                run_id=row.run_id,
                partition=row.partition,
                recorded_at=utc(row.recorded_at),
                status=row.status,
                row_count=int(row.row_count),
                findings=findings,
                profile=decode_profile(row.profile, where),
            )
        )
    return tuple(reversed(out))


def latest_outcomes(conn: Connection) -> dict[str, LatestOutcome]:
    """Per dataset id, its newest recorded profile's outcome (status and findings, not the
    profile): one query, a window over the profile rows."""
    p = catalog_profiles.c
    newest = func.row_number().over(
        partition_by=p.dataset_id, order_by=(p.recorded_at.desc(), p.id.desc())
    )
    ranked = select(
        p.dataset_id, p.run_id, p.recorded_at, p.status, p.findings, newest.label("newest")
    ).subquery()
    out: dict[str, LatestOutcome] = {}
    for row in conn.execute(select(ranked).where(ranked.c.newest == 1)):
        try:
            findings = tuple(json.loads(bytes(row.findings).decode("utf-8")))
        except ValueError:
            where = f"profile of dataset {row.dataset_id} run {row.run_id}"
            raise StoreCorruptError(f"{where}: stored findings are unreadable") from None
        out[str(row.dataset_id)] = LatestOutcome(
            run_id=str(row.run_id),
            recorded_at=utc(row.recorded_at),
            status=str(row.status),
            findings=findings,
        )
    return out


def schema_history_of(
    conn: Connection, dataset_id: str, limit: int = SCHEMA_HISTORY
) -> tuple[SchemaChangeRecord, ...]:
    """Observed schema changes of a dataset, oldest first (the newest ``limit``)."""
    c = catalog_schema_changes.c
    query = (
        select(catalog_schema_changes)
        .where(c.dataset_id == dataset_id)
        .order_by(c.changed_at.desc(), c.id.desc())
        .limit(limit)
    )
    out = []
    for row in conn.execute(query):
        try:
            before = tuple(str(t) for t in json.loads(row.before))
            after = tuple(str(t) for t in json.loads(row.after))
        except (ValueError, TypeError):
            raise StoreCorruptError(
                f"schema change {row.id} of dataset {dataset_id}: stored types are unreadable; "
                "delete the row from faucet_schema_changes"
            ) from None
        out.append(
            SchemaChangeRecord(
                dataset_id=dataset_id,
                run_id=row.run_id,
                partition=row.partition,
                changed_at=utc(row.changed_at),
                column=row.column,
                change=row.change,
                before=before,
                after=after,
            )
        )
    return tuple(reversed(out))


def find_ids(conn: Connection, prefix: str, limit: int = 6) -> list[tuple[str, str]]:
    t = catalog_datasets.c
    rows = conn.execute(
        select(t.id, t.uri).where(t.id.like(prefix + "%")).order_by(t.id).limit(limit)
    )
    return [(r.id, r.uri) for r in rows]


def find_uri(conn: Connection, uris: Sequence[str]) -> list[tuple[str, str]]:
    t = catalog_datasets.c
    rows = conn.execute(select(t.id, t.uri).where(or_(*(t.uri == u for u in uris))))
    return [(r.id, r.uri) for r in rows]
