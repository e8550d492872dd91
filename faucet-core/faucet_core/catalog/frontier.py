"""Bulk reads of the catalog by frontier (a set of dataset ids), for a walk downstream: the
Catalog reads one dataset at a time; a walk needs a whole frontier per query."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import Connection, func, select

from faucet_core.catalog.model import Consumer, Contract
from faucet_core.db.chunks import chunks
from faucet_core.db.schema import (
    catalog_consumers,
    catalog_datasets,
    catalog_edges,
    catalog_run_datasets,
    catalog_runs,
    catalog_snapshots,
)

__all__ = [
    "EdgeRow",
    "consumers_of",
    "contracts_of",
    "datasets_of",
    "edges_from",
    "edges_leaving",
    "last_run_of",
]


class EdgeRow(NamedTuple):
    """An edge as stored: its ends, its writer (``namespace/name``) and its column lineage
    as stored (JSON text; None: opaque)."""

    source_id: str
    sink_id: str
    job: str
    column_lineage: str | None


def edges_from(conn: Connection, sources: Sequence[str]) -> list[EdgeRow]:
    """Every edge out of ``sources`` (one query per :data:`~faucet_core.db.chunks.CHUNK` ids)."""
    e = catalog_edges.c
    query = select(e.source_id, e.sink_id, e.job_namespace, e.job_name, e.column_lineage)
    out = []
    for part in chunks(sorted(set(sources))):
        for row in conn.execute(query.where(e.source_id.in_(part))):
            out.append(
                EdgeRow(
                    row.source_id,
                    row.sink_id,
                    f"{row.job_namespace}/{row.job_name}",
                    row.column_lineage,
                )
            )
    return out


def edges_leaving(conn: Connection, sources: Sequence[str]) -> int:
    """How many edges leave ``sources``."""
    e = catalog_edges.c
    total = 0
    for part in chunks(sorted(set(sources))):
        total += int(
            conn.execute(
                select(func.count()).select_from(catalog_edges).where(e.source_id.in_(part))
            ).scalar_one()
        )
    return total


def datasets_of(conn: Connection, ids: Sequence[str]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """``{id: (uri, owners)}`` of the datasets the catalog knows among ``ids``."""
    t = catalog_datasets.c
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for part in chunks(sorted(set(ids))):
        for row in conn.execute(select(t.id, t.uri, t.owners).where(t.id.in_(part))):
            out[row.id] = (row.uri, tuple(str(o) for o in json.loads(row.owners or "[]")))
    return out


def consumers_of(conn: Connection, ids: Sequence[str]) -> dict[str, list[Consumer]]:
    c = catalog_consumers.c
    out: dict[str, list[Consumer]] = {}
    for part in chunks(sorted(set(ids))):
        rows = conn.execute(select(catalog_consumers).where(c.dataset_id.in_(part)))
        for row in rows:
            columns = tuple(str(x) for x in json.loads(row.columns or "[]"))
            out.setdefault(row.dataset_id, []).append(
                Consumer(row.name, row.kind, row.contact, columns)
            )
    for items in out.values():
        items.sort(key=lambda x: x.name)
    return out


def contracts_of(conn: Connection, ids: Sequence[str]) -> dict[str, list[tuple[str, Contract]]]:
    """``{dataset id: [(job, contract)...]}`` from each job's latest config snapshot."""
    s = catalog_snapshots.c
    out: dict[str, list[tuple[str, Contract]]] = {}
    for part in chunks(sorted(set(ids))):
        rows = conn.execute(
            select(catalog_snapshots)
            .where(s.dataset_id.in_(part))
            .order_by(s.recorded_at.desc(), s.id.desc())
        )
        seen: set[tuple[str, str]] = set()
        for row in rows:
            job = f"{row.job_namespace}/{row.job_name}"
            if (row.dataset_id, job) in seen:
                continue
            seen.add((row.dataset_id, job))
            if row.contract_version is None:
                continue
            columns = tuple(str(x) for x in json.loads(row.contract_columns or "[]"))
            out.setdefault(row.dataset_id, []).append(
                (job, Contract(row.contract_version, columns))
            )
    return out


def last_run_of(conn: Connection, dataset_id: str) -> tuple[str, str] | None:
    """``(run id, job)`` of the newest run that wrote ``dataset_id``, or None."""
    r = catalog_runs.c
    rd = catalog_run_datasets.c
    row = conn.execute(
        select(r.run_id, r.job_namespace, r.job_name)
        .join(catalog_run_datasets, rd.run == r.id)
        .where(rd.dataset_id == dataset_id, rd.role == "output")
        .order_by(r.event_time.desc(), r.id.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    return str(row.run_id), f"{row.job_namespace}/{row.job_name}"
