"""Inferred column lineage of one catalog edge, from the two datasets' stored profiles
(see :mod:`faucet_core.lineage.infer`); read on demand, never written as an edge's lineage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from faucet_core.catalog.read import profiles_of
from faucet_core.lineage.infer import RUNS, InferredInput, infer_columns, pair_runs

__all__ = ["InferredEdge", "infer_edge"]


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


def infer_edge(
    conn: Connection, source_id: str, sink_id: str, *, source_name: str | None = None
) -> InferredEdge:
    """The inferred lineage of ``source_id -> sink_id`` from their newest stored profiles."""
    downstream = _runs(conn, sink_id, RUNS)
    upstream = _runs(conn, source_id, 3 * RUNS) if downstream else []
    pairs = pair_runs(upstream, downstream)
    if not pairs:
        return InferredEdge(source_id, sink_id, (), 0)
    return InferredEdge(
        source_id, sink_id, infer_columns(pairs, upstream_name=source_name), len(pairs)
    )
