"""Inferred column lineage of the edges into one dataset, from the stored profiles of it
and of its inputs (see :mod:`faucet_core.lineage.infer`; a column confidently inferred over
several inputs is settled by :mod:`faucet_core.lineage.rivals`); read on demand, never
written as an edge's lineage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from faucet_core.catalog.read import edges_where, profiles_of
from faucet_core.lineage.infer import RUNS, InferredInput, infer_columns, pair_runs
from faucet_core.lineage.rivals import keeps_grain, settle_rivals

__all__ = ["InferredEdge", "infer_edge", "infer_into"]


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


def infer_into(
    conn: Connection, sink_id: str, sources: Mapping[str, str | None] | None = None
) -> dict[str, InferredEdge]:
    """The inferred lineage of every edge into ``sink_id``, ``{source id: edge}``, from
    the newest stored profiles. ``sources`` (``{id: uri or None}``) are its inputs; by
    default those of the catalog's edges into it."""
    if sources is None:
        sources = {e.source_id: e.source_uri for e in edges_where(conn, sinks=[sink_id])}
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
