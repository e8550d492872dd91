"""Inferred column lineage of the edges into one dataset, from the stored profiles of it
and of its inputs (see :mod:`faucet_core.inference.columns`; a column confidently inferred over
several inputs is settled by :mod:`faucet_core.inference.rivals`); read on demand, never
written as an edge's lineage.

Kept in memory per process (:data:`CACHE_SIZE` sinks, least recently used out), keyed by
the store, the sink, its inputs and the identity of every stored profile row the
inference reads (id, run, partition, time, row count): a new or replaced profile of any of
them is a new key, so a cached result is never stale (an in-memory SQLite store, whose URL
names no one database, is not cached). One ``faucet plan`` of a change set
and a long-running ``faucet serve`` infer each sink once; separate ``faucet plan``
processes still infer anew."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from faucet_core.catalog.read import edges_where, profiles_of
from faucet_core.db.schema import catalog_profiles
from faucet_core.inference.columns import RUNS, InferredInput, infer_columns, pair_runs
from faucet_core.inference.rivals import keeps_grain, settle_rivals

__all__ = ["CACHE_SIZE", "InferredEdge", "clear_cache", "infer_edge", "infer_into"]

CACHE_SIZE = 512
"""Sinks whose inferred edges a process keeps."""
_cache: OrderedDict[tuple[Any, ...], dict[str, InferredEdge]] = OrderedDict()
_lock = threading.Lock()


@dataclass(frozen=True)
class InferredEdge:
    """Every candidate of an edge, and the confident ones as ``{out: (in...)}``."""

    source_id: str
    sink_id: str
    candidates: tuple[InferredInput, ...]
    runs: int
    """Run pairs compared (0: one side has no stored profile)."""

    @property
    def confident(self) -> tuple[InferredInput, ...]:
        return tuple(c for c in self.candidates if c.confident)

    def lineage(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for item in self.confident:
            out.setdefault(item.column, []).append(item.source)
        return {k: tuple(sorted(v)) for k, v in sorted(out.items())}

    def evidence(self) -> Mapping[tuple[str, str], str]:
        """``{(out, in): why}`` of the confident candidates."""
        return {
            (c.column, c.source): f"inferred {c.confidence:.2f}: {c.evidence.text()}"
            for c in self.confident
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "candidates": [c.to_dict() for c in self.candidates],
        }


def _runs(conn: Connection, dataset_id: str, limit: int) -> list[tuple[Any, str, Any]]:
    return [(p.recorded_at, p.partition, p.profile) for p in profiles_of(conn, dataset_id, limit)]


def _marks(conn: Connection, dataset_id: str, limit: int) -> tuple[tuple[Any, ...], ...]:
    """What identifies the newest ``limit`` stored profiles of a dataset, without them."""
    p = catalog_profiles.c
    rows = conn.execute(
        select(p.id, p.run_id, p.partition, p.recorded_at, p.row_count)
        .where(p.dataset_id == dataset_id)
        .order_by(p.recorded_at.desc(), p.id.desc())
        .limit(limit)
    )
    return tuple((r.id, r.run_id, r.partition, str(r.recorded_at), int(r.row_count)) for r in rows)


def clear_cache() -> None:
    """Forget every cached inference of this process."""
    with _lock:
        _cache.clear()


def infer_into(
    conn: Connection, sink_id: str, sources: Mapping[str, str | None] | None = None
) -> dict[str, InferredEdge]:
    """The inferred lineage of every edge into ``sink_id``, ``{source id: edge}``, from
    the newest stored profiles. ``sources`` (``{id: uri or None}``) are its inputs; by
    default those of the catalog's edges into it. Cached (see the module)."""
    if sources is None:
        sources = {e.source_id: e.source_uri for e in edges_where(conn, sinks=[sink_id])}
    url = conn.engine.url
    if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
        return _infer_into(conn, sink_id, sources)  # every in-memory store has one URL
    names = tuple(sorted(sources.items(), key=lambda kv: kv[0]))
    key = (
        url.render_as_string(hide_password=True),
        sink_id,
        names,
        _marks(conn, sink_id, RUNS),
        tuple(_marks(conn, s, 3 * RUNS) for s, _ in names),
    )
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return dict(hit)
    got = _infer_into(conn, sink_id, sources)
    with _lock:
        _cache[key] = got
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return dict(got)


def _infer_into(
    conn: Connection, sink_id: str, sources: Mapping[str, str | None]
) -> dict[str, InferredEdge]:
    downstream = _runs(conn, sink_id, RUNS)
    found: dict[str, tuple[tuple[InferredInput, ...], bool, int]] = {}
    for source_id, name in sorted(sources.items()):
        upstream = _runs(conn, source_id, 3 * RUNS) if downstream else []
        pairs = pair_runs(upstream, downstream)
        candidates = infer_columns(pairs, upstream_name=name) if pairs else ()
        found[source_id] = (candidates, keeps_grain(pairs), len(pairs))
    label = {s: (sources[s] or s) for s in found}
    settled = settle_rivals({label[s]: (c, grain) for s, (c, grain, _) in found.items()})
    return {
        s: InferredEdge(s, sink_id, settled[label[s]], runs) for s, (_, _, runs) in found.items()
    }


def infer_edge(
    conn: Connection, source_id: str, sink_id: str, *, source_name: str | None = None
) -> InferredEdge:
    """The inferred lineage of ``source_id -> sink_id``, weighed against the sink's other
    inputs in the catalog (:func:`infer_into`)."""
    sources: dict[str, str | None] = {
        e.source_id: e.source_uri for e in edges_where(conn, sinks=[sink_id])
    }
    sources[source_id] = source_name or sources.get(source_id)
    return infer_into(conn, sink_id, sources)[source_id]
