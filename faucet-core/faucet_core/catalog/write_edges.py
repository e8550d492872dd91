"""Writing the lineage edges of a batch of run records: each edge keeps its newest run's
column lineage; a record without a run (a definition) only adds edges not yet known."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, bindparam, delete, select, update

from faucet_core.catalog.codec import decode_lineage, encode_lineage, utc
from faucet_core.catalog.records import (
    ColumnInput,
    ColumnLineage,
    JobRef,
    Observation,
    RunRecord,
    RunState,
)
from faucet_core.catalog.upsert import insert_rows
from faucet_core.db.chunks import chunks
from faucet_core.db.schema import catalog_edges

__all__ = ["write_edges"]


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


def write_edges(conn: Connection, records: Sequence[RunRecord]) -> int:
    """Write the edges of the COMPLETE records; returns how many were inserted or changed."""
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
